// The formula-encoder path of related equations, through the real ONNX code (EncoderSession in
// the embedding worker, EmbeddingService, cache): query vectors with a bounded wait, background
// vectors for the workspace, encoder similarities in the ranking (the index's equations:
// scripts/src/indexBuild/formulaVectors.test.ts), and the answer without the model. The model is
// models/formula-encoder when it has been trained; until then the text encoder's files stand in for it under that folder name (the
// code only knows the folder and config format, which the two encoders share).
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixture } from '../testing/fixture.js';
import { hasTextEncoder, stageFormulaModels } from '../testing/modelPaths.js';
import { EquationAnalyses } from './equationAnalyses.js';
import { FormulaVectors } from './formulaVectors.js';
import { documentEquations } from '../analysis/equationSites.js';
import { findRelatedEquations } from '../features/equations/relatedEquations.js';
import { WorkspaceEquations } from './workspaceEquations.js';


describe('formula encoder in related equations', { skip: !hasTextEncoder && 'models missing', timeout: 300_000 }, () => {
  let models: string;
  let vectors: FormulaVectors;
  const logs: string[] = [];
  before(() => {
    models = stageFormulaModels();
    vectors = new FormulaVectors((m) => logs.push(m), () => ({ accelerator: 'cpu', modelsPath: models }));
  });
  after(() => { vectors.dispose(); fs.rmSync(models, { recursive: true, force: true }); });

  it('a query vector arrives within the wait; status says ready with the version', async () => {
    const v = await vectors.query('( x + y )^{2} = x^{2} + 2 x y + y^{2}', 60_000);
    assert.ok(v && v.length > 0);
    let n = 0;
    for (const x of v) n += x * x;
    assert.ok(Math.abs(n - 1) < 1e-3, 'L2-normalised');
    const s = await vectors.status();
    assert.equal(s.state, 'ready');
    assert.equal(s.modelVersion, vectors.modelVersion);
  });

  it('workspace vectors are filled in the background and the ranking uses the encoder', async () => {
    const f = fixture(String.raw`
%! a.tex
\begin{equation}\label{eq:one}
(a+b)^2 = a^2 + 2ab + b^2
\end{equation}
\begin{equation}\label{eq:two}
\int_0^1 x^2 \, dx = \frac{1}{3}
\end{equation}
%! b.tex
\begin{equation}\label{eq:three}
(x+y)^2 = x^2 + 2xy + y^2
\end{equation}
`);
    const analyses = new EquationAnalyses();
    const equations = new WorkspaceEquations(analyses, vectors);
    equations.snapshot(f.ws);
    await analyses.whenIdle();
    equations.snapshot(f.ws); // asks for the vectors of what is analysed now
    for (let i = 0; i < 200 && vectors.pending > 0; i++) await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 200 && equations.snapshot(f.ws).features.some((x) => x && !vectors.get(x.canonical)); i++) await new Promise((r) => setTimeout(r, 50));
    const ctx = { ws: f.ws, equations, queryVector: (t: string) => vectors.query(t, 30_000) };
    const a = f.doc('a.tex');
    const r = await findRelatedEquations(ctx, { doc: a, site: documentEquations(a)[0] });
    assert.equal(r.encoder, true);
    assert.equal(r.results[0].label, 'eq:three');
    assert.ok(r.results.every((x) => typeof x.why.encoder === 'number'), JSON.stringify(r.results.map((x) => x.why)));
  });

  it('without the model: no vector, no worker, and a message saying how it ranks', async () => {
    const none = new FormulaVectors(() => {}, () => ({ accelerator: 'cpu', modelsPath: path.join(models, 'nowhere') }));
    const t0 = Date.now();
    assert.equal(await none.query('x = 1', 5000), undefined);
    assert.ok(Date.now() - t0 < 1000);
    const s = await none.status();
    assert.equal(s.state, 'unavailable');
    assert.match(s.message ?? '', /fingerprints and structure only/);
  });
});
