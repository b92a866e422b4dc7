// statementsAt finds the statements around an offset through the environment tree; the
// reference is the full list `statements` builds, filtered to those containing the offset. Both
// ways, on real projects (their own theorem environments), before the full list is built and after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace } from '../project/workspace.js';
import { statements, statementsAt } from './structure.js';
import { sharedData } from '../testing/paths.js';
import { seededRandom } from '../util/random.js';

function texFiles(dir: string, max: number): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= max) return;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p); else if (e.name.endsWith('.tex')) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

const PROJECTS = fs.existsSync(path.join(sharedData, 'latex-wild')) ? fs.readdirSync(path.join(sharedData, 'latex-wild'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(sharedData, 'latex-wild', e.name)) : [];

test('statementsAt = the statements containing the offset, on real projects', { skip: PROJECTS.length === 0 && 'no corpus in ../shared/data' }, () => {
  const rand = seededRandom(11);
  let found = 0;
  for (const project of PROJECTS) {
    const ws = new Workspace();
    const files = texFiles(project, 30);
    for (const f of files) ws.loadFile(f);
    for (const f of files) {
      const doc = ws.get(`file://${f}`) ?? [...ws.all()].find((d) => d.uri.endsWith(encodeURI(path.basename(f))));
      if (!doc || doc.text.length === 0) continue;
      const offsets = Array.from({ length: 30 }, () => Math.floor(rand() * doc.text.length));
      // before the full list exists: built from the tree
      const early = offsets.map((o) => statementsAt(ws, doc, o));
      const all = statements(ws, doc);
      for (let k = 0; k < offsets.length; k++) {
        const o = offsets[k];
        const expected = all.filter((st) => st.env.start <= o && o <= st.env.end);
        const at = (list: typeof all) => list.map((st) => ({ index: st.index, title: st.title, kind: st.kind.env, labels: st.labels.map((l) => l.name) }));
        assert.deepEqual(at(early[k]), at(expected), `${f} @${o}`);
        // once the full list exists, its own objects
        const late = statementsAt(ws, doc, o);
        assert.equal(late.length, expected.length);
        late.forEach((st, i) => assert.equal(st, expected[i]));
        found += expected.length;
      }
    }
  }
  assert.ok(found > 100, `${found} statements found around the offsets`);
});
