// The training export never contains a held-out equation: a small export (`--small`: a few
// Stacks and HoTT files, the first ProofWiki pages, a few synthetic clusters) is written to a
// temporary folder; no exported text and no source key is held out, and no held-out equation
// of those same files and pages, found independently here, appears among the exported texts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot, sharedData } from '../testing/paths.js';
import { isHeldOut, textKey } from '../data/splits.js';
import { canonicalFormula, macroTable } from 'mathsense-server/api/math';

const SKIP = fs.existsSync(path.join(sharedData, 'proofwiki')) && fs.existsSync(path.join(sharedData, 'latex', 'stacks-project'))
  ? false : `no shared data at ${sharedData}`;

interface Rec { s: string; v: number; k: string; d?: string; t: string[][]; c: number[][][] }

test('a small export holds no held-out equation', { skip: SKIP }, () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'formula-export-'));
  try {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'out', 'bin', 'exportFormulaData.js'), '--small', '--data', sharedData, '--out', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const recs = fs.readFileSync(path.join(out, 'clusters.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec);
    const meta = JSON.parse(fs.readFileSync(path.join(out, 'meta.json'), 'utf8'));
    const sources = new Set(recs.map((x) => x.s));
    for (const s of ['synthetic', 'real-proofwiki', 'context-proofwiki', 'context-stacks']) assert.ok(sources.has(s), `no ${s} clusters`);
    assert.ok(meta.dropped.heldOutSources > 0, 'the small export meets held-out equations (else this test checks nothing)');

    const exported = new Set<string>();
    for (const x of recs) {
      assert.equal(x.t.length, x.c.length);
      for (const [i, variants] of x.t.entries()) {
        assert.equal(variants.length, x.c[i].length);
        for (const t of variants) {
          assert.ok(!isHeldOut(textKey(t)), `held-out text exported: ${t}`);
          exported.add(t);
        }
        for (const ids of x.c[i]) assert.ok(ids.length >= 2 && ids.length <= 64);
      }
      // a real cluster: neither its seed chain (in the key) nor the display it came from is held out
      if (x.s.startsWith('real-')) {
        assert.ok(!isHeldOut(textKey(x.k.slice(x.k.indexOf(':') + 1))), x.k);
        assert.ok(x.d !== undefined && !isHeldOut(textKey(x.d)), `from a held-out display: ${x.d}`);
      }
    }

    // independently: the held-out equations of the first ProofWiki pages the export read
    const lines = fs.readFileSync(path.join(sharedData, 'proofwiki', 'proofwiki_pages_rendered.jsonl'), 'utf8').split('\n').slice(0, 400);
    const none = macroTable([]);
    let held = 0;
    for (const line of lines) {
      if (!line.trim()) continue;
      const page = JSON.parse(line) as { sections: Array<{ text: string }> };
      for (const sec of page.sections) {
        for (const m of sec.text.matchAll(/^\$([^$]+)\$[.,;]?$/gm)) {
          const c = canonicalFormula(m[1], none);
          if (!isHeldOut(textKey(c))) continue;
          held++;
          assert.ok(!exported.has(c), `held-out ProofWiki equation exported: ${c}`);
        }
      }
    }
    assert.ok(held > 0, 'some displayed ProofWiki formulas of those pages are held out');
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
