// Vectors in the index's equations: the build embeds them with the formula encoder, and the
// server's query vectors (FormulaVectors) find each equation by its own vector. The model is
// models/formula-encoder when it has been trained; until then the text encoder's files stand in
// for it under that folder name.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { equationFeatures, IndexEquations, rankEquations } from 'mathsense-server/api/index';
import { FormulaVectors } from 'mathsense-server/api/features';
import { buildIndexEquations } from './equations.js';
import { readProofWiki } from './sources.js';
import { dataDir } from '../testing/indexSlice.js';
import { hasTextEncoder, stageFormulaModels } from 'mathsense-server/testing/modelPaths';

const hasProofWiki = fs.existsSync(path.join(dataDir, 'proofwiki', 'proofwiki_pages_rendered.jsonl'));

describe('formula encoder in the index equations', { skip: !hasTextEncoder && 'models missing', timeout: 300_000 }, () => {
  let models: string;
  let vectors: FormulaVectors;
  before(() => {
    models = stageFormulaModels();
    vectors = new FormulaVectors(() => {}, () => ({ accelerator: 'cpu', modelsPath: models }));
  });
  after(() => { vectors.dispose(); fs.rmSync(models, { recursive: true, force: true }); });

  it('index equations carry formula-encoder vectors when the model is there', { skip: !hasProofWiki && 'shared data missing' }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-eqvec-'));
    try {
      const entries = readProofWiki(dataDir, { slice: 60 }).map((r, id) => ({ id, kind: r.kind, source: r.source, text: r.text }));
      const h = (await buildIndexEquations({ dir, entries, modelsDir: models, cacheDir: null, threads: 1 }))!;
      assert.ok(h.dim > 0);
      const eqs = IndexEquations.load(dir, h);
      const id = [...Array(eqs.size).keys()].find((i) => eqs.features(i).difference || eqs.features(i).identity)!;
      const q = equationFeatures(eqs.line(id).latex);
      const vec = await vectors.query(q.canonical, 30_000);
      assert.equal(h.modelVersion, vectors.modelVersion);
      const cos = eqs.cosines(vec!)!;
      assert.ok(cos[id] > 0.95, `its own vector: cosine ${cos[id]}`);
      const top = rankEquations({ f: q, vec }, eqs, { limit: 3 });
      assert.equal(typeof top[0].why.encoder, 'number');
      assert.ok(top[0].score > 0.8);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });
});
