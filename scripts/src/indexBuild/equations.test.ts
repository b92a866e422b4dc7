// Equations of the bundled index, on the real ProofWiki data: eqn tables rebuilt into chains,
// the files written by the build (a slice), loaded back and searched, corrupt files reported.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadProofWiki } from '../data/proofwiki.js';
import { equationFeatures, rankEquations, EQUATION_FILES, type EquationsHeader, IndexEquations, IndexError, proofWikiEquations } from 'mathsense-server/api/index';
import { buildIndexEquations } from './equations.js';
import { readProofWiki } from './sources.js';
import { dataDir, modelsDir } from '../testing/indexSlice.js';

const hasProofWiki = fs.existsSync(path.join(dataDir, 'proofwiki', 'proofwiki_pages_rendered.jsonl'));

describe('index equations (ProofWiki)', { skip: !hasProofWiki && 'shared data missing', timeout: 300_000 }, () => {
  it('eqn tables become chains: a row with its own left side starts one, an empty left column continues it', () => {
    const t = loadProofWiki(dataDir).find((x) => x.base === '0.999...=1')!;
    assert.deepEqual(proofWikiEquations(t.proofs[1]), ['0.333 \\ldots = 1 / 3', '3 \\paren {0.333 \\ldots} = 3 \\paren {1 / 3}', '0.999 \\ldots = 3 / 3 = 1']);
    // a formula alone on its line is a display too; prose and `\leadsto` columns are not equations
    const eqs = proofWikiEquations(t.proofs[2]);
    assert.equal(eqs[0], 'c = 0.999 \\ldots');
    assert.equal(eqs[eqs.length - 1], '0.999 \\ldots = 1');
    assert.ok(eqs.every((e) => !/leadsto|multiplying/.test(e)));
    assert.deepEqual(proofWikiEquations('Let $x$ be real.\n\n$\\blacksquare$\n\\(\\ds a\\)\n\\(\\in\\)\n\\(\\ds B\\)'), []);
  });

  let tmp: string;
  let header: EquationsHeader;
  let eqs: IndexEquations;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-eqidx-'));
    const entries = readProofWiki(dataDir, { slice: 300 }).map((r, id) => ({ id, kind: r.kind, source: r.source, text: r.text }));
    header = (await buildIndexEquations({ dir: tmp, entries, modelsDir, cacheDir: null, threads: 2 }))!;
    eqs = IndexEquations.load(tmp, header);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('the build writes the files the header describes, each equation with its entry', () => {
    assert.ok(header.count > 300, `${header.count} equations`);
    for (const [k, name] of Object.entries(EQUATION_FILES)) assert.equal(fs.statSync(path.join(tmp, name)).size, header.files[k as keyof typeof EQUATION_FILES].bytes);
    assert.ok((header.stats.withFingerprint ?? 0) > 0);
    const line = eqs.line(0);
    assert.equal(typeof line.latex, 'string');
    assert.ok(line.e >= 0 && eqs.entryIds[0] === line.e);
    // structural features come back from the stored tokens exactly
    assert.deepEqual(eqs.tokens(0), equationFeatures(line.latex).tokens);
  });

  it('an equation of the index finds itself (and its copies) first by its fingerprint', () => {
    let tried = 0;
    for (let id = 0; id < eqs.size && tried < 20; id++) {
      const f = eqs.features(id);
      if (!f.difference && !f.identity) continue;
      tried++;
      const latex = eqs.line(id).latex;
      const q = equationFeatures(latex);
      const top = rankEquations({ f: q }, eqs, { limit: 5 });
      assert.ok(top.length > 0, latex);
      assert.equal(top[0].score >= 0.55, true, `${latex}: ${JSON.stringify(top[0])}`);
      assert.ok(top.some((t) => eqs.line(t.id).latex === latex), latex);
    }
    assert.ok(tried >= 10, `${tried} equations with a fingerprint`);
  });

  it('a truncated file is reported as a corrupt index', () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-eqidx-bad-'));
    try {
      for (const name of Object.values(EQUATION_FILES)) fs.copyFileSync(path.join(tmp, name), path.join(copy, name));
      fs.truncateSync(path.join(copy, EQUATION_FILES.data), 100);
      assert.throws(() => IndexEquations.load(copy, header), (e: Error) => e instanceof IndexError && /corrupt/.test(e.message));
      fs.rmSync(path.join(copy, EQUATION_FILES.lines));
      assert.throws(() => IndexEquations.load(copy, header), IndexError);
      // equations written by an older layout are rebuilt, never misread
      assert.throws(() => IndexEquations.load(tmp, { ...header, layout: undefined }), (e: Error) => e instanceof IndexError && /layout 1.*npm run index:build/.test(e.message));
    } finally { fs.rmSync(copy, { recursive: true, force: true }); }
  });
});
