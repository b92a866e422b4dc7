// The relevance model at run time (relevance.ts): the rows it reads from a ranked list, the
// probabilities and the threshold, refusal of a model that reads other features or another
// encoder, and the shipped file (fitting: scripts/src/rankers/relevanceFit.test.ts).
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadRelevance, RELEVANCE_FEATURES, RELEVANCE_TASKS, relevanceRows, usableRelevance, withRelevance, type Logistic, type RelevanceModel } from './relevance.js';
import { modelsDir } from '../testing/modelPaths.js';

const hits = [
  { id: 1, score: 3, bm25: 12, cosine: 0.8 },
  { id: 2, score: 1, bm25: 6, cosine: 0.5 },
  { id: 3, score: 0.5, bm25: 0, cosine: 0.2 },
];

/** A model whose probability rises with the cosine only. */
function model(threshold: number, lexicalThreshold = threshold): RelevanceModel {
  const byCosine: Logistic = { weights: RELEVANCE_FEATURES.map((f) => (f === 'cosine' ? 10 : 0)), bias: -5, platt: { a: 1, c: 0 } };
  const flat: Logistic = { weights: RELEVANCE_FEATURES.map(() => 0), bias: -2, platt: { a: 1, c: 0 } };
  const task = { semantic: byCosine, lexical: flat, threshold, lexicalThreshold, reliability: [] };
  return { features: [...RELEVANCE_FEATURES], encoder: 'e1', tasks: { proof: task, cite: task, library: task }, trainedOn: 'test' };
}

describe('relevance rows', () => {
  it('read each hit against its list: cosine and its excess over the mean, BM25 per query token, gaps, rank, query length', () => {
    const rows = relevanceRows(hits, 8, true);
    assert.equal(rows.length, 3);
    const at = (r: number, f: (typeof RELEVANCE_FEATURES)[number]) => rows[r][RELEVANCE_FEATURES.indexOf(f)];
    assert.equal(at(0, 'cosine'), 0.8);
    assert.ok(Math.abs(at(0, 'cosineOverList') - (0.8 - 0.5)) < 1e-9);
    assert.equal(at(0, 'bm25PerToken'), 1.5);
    assert.equal(at(0, 'gapBelow'), 2);
    assert.equal(at(2, 'gapBelow'), 0, 'the last has nothing below it in the list');
    assert.equal(at(1, 'belowTop'), 2);
    assert.equal(at(2, 'logRank'), Math.log1p(2));
    assert.equal(at(0, 'logQueryTokens'), Math.log(8));
  });

  it('without the encoder (lexical), the cosine columns are zeros whatever the hits carry', () => {
    const rows = relevanceRows(hits, 8, false);
    for (const r of rows) { assert.equal(r[0], 0); assert.equal(r[1], 0); }
  });
});

describe('relevance at run time', () => {
  it('marks what passes the threshold, under the model for the query\'s mode', () => {
    const q = { ids: [1, 2, 3, 4, 5, 6, 7, 8], vec: new Float32Array(4) };
    const judged = withRelevance(model(0.6), 'proof', hits, q);
    assert.deepEqual(judged.map((h) => h.fits), [true, false, false], 'sigmoid(10·cos − 5): 0.95, 0.5, 0.05');
    assert.ok(judged[0].relevance! > 0.9 && judged[2].relevance! < 0.1);
    const lexical = withRelevance(model(0.6, 0.1), 'proof', hits, { ids: q.ids });
    assert.deepEqual(lexical.map((h) => h.fits), [true, true, true], 'the lexical model and its own threshold');
    const noCosine = hits.map(({ cosine: _c, ...h }) => h);
    assert.deepEqual(withRelevance(model(0.6, 0.1), 'proof', noCosine, q).map((h) => h.fits), [true, true, true], 'a query vector against hits without cosines (an index without vectors) is read lexically');
  });

  it('without a model every hit is as it was (shown as ranked)', () => {
    const same = withRelevance(undefined, 'cite', hits, { ids: [1] });
    assert.equal(same, hits);
  });

  it('refuses a model for other features, with a non-finite number, or for another encoder', () => {
    assert.ok(usableRelevance(model(0.5)));
    assert.equal(usableRelevance({ ...model(0.5), features: ['cosine'] }), undefined);
    const broken = model(0.5);
    broken.tasks.cite = { ...broken.tasks.cite, threshold: Number.NaN };
    assert.equal(usableRelevance(broken), undefined);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-relevance-'));
    try {
      fs.mkdirSync(path.join(dir, 'relevance'));
      fs.writeFileSync(path.join(dir, 'relevance', 'relevance.json'), JSON.stringify(model(0.5)));
      assert.ok(loadRelevance(dir, 'e1').model);
      assert.match(loadRelevance(dir, 'e2').problem ?? '', /fitted for encoder e1/);
      fs.writeFileSync(path.join(dir, 'relevance', 'relevance.json'), '{"features": [');
      assert.match(loadRelevance(dir, 'e1').problem ?? '', /JSON|Unexpected|Expected/);
      assert.match(loadRelevance(undefined, 'e1').problem ?? '', /no models folder/);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });
});

describe('shipped relevance model', () => {
  const encoder = JSON.parse(fs.readFileSync(path.join(modelsDir, 'mathsense-encoder', 'config.json'), 'utf8')) as { version: string };
  it('models/relevance/relevance.json loads for the shipped encoder, names its data and licences, and its held-out reliability holds', () => {
    const { model: m, problem } = loadRelevance(modelsDir, encoder.version);
    assert.ok(m, problem);
    assert.match(m.trainedOn, /CC BY-SA 3\.0/);
    for (const t of RELEVANCE_TASKS) {
      const tm = m.tasks[t];
      assert.ok(tm.threshold > 0 && tm.threshold <= 1, `${t} threshold ${tm.threshold}`);
      // calibrated: in every well-filled bin the predicted probability is near the observed rate
      // (the library's model is fitted and calibrated on a few hundred papers, its quarters by paper:
      // held to it where it shows something, from its threshold's bin up, and there never more
      // confident than what it shows turns out to be)
      const shownBins = (b: { bin: string }) => Number(b.bin.slice(0, 3)) >= Math.floor(tm.threshold * 10) / 10 - 1e-9;
      for (const b of tm.reliability) {
        if (b.n < 100) continue;
        if (t !== 'library') assert.ok(Math.abs(b.predicted - b.observed) < 0.12, `${t} bin ${b.bin}: predicted ${b.predicted}, observed ${b.observed}`);
        else if (shownBins(b)) assert.ok(b.predicted - b.observed < 0.12, `${t} bin ${b.bin}: predicted ${b.predicted}, observed ${b.observed}`);
      }
    }
    // candidate proofs: on held-out queries, what passes the threshold keeps the precision the
    // threshold was chosen for (bins from the threshold's up, within the bins' coarseness)
    const target = (m as RelevanceModel & { precisionTarget: Record<string, number> }).precisionTarget.proof;
    const shown = m.tasks.proof.reliability.filter((b) => Number(b.bin.slice(0, 3)) >= Math.floor(m.tasks.proof.threshold * 10) / 10 - 1e-9);
    const n = shown.reduce((a, b) => a + b.n, 0), right = shown.reduce((a, b) => a + b.n * b.observed, 0);
    assert.ok(n > 100 && right / n >= target - 0.05, `held-out precision above the threshold: ${Math.round(right)}/${n}, target ${target}`);
  });
});
