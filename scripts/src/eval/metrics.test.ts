import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { accuracyMacroF1, assignTopK, averagePrecision, goldRank, recallAt } from './metrics.js';
import { Bm25Index } from 'mathsense-server/api/embeddings';

test('rank, average precision and recall', () => {
  const s = [0.1, 0.9, 0.5, 0.7];
  assert.equal(goldRank(s, new Set([2])), 3);
  assert.equal(averagePrecision(s, new Set([1, 2])), (1 / 1 + 2 / 3) / 2);
  assert.equal(recallAt(s, new Set([0, 1]), 2), 0.5);
});

test('global decoding gives each statement a distinct proof', () => {
  // both statements prefer proof 0; the assignment resolves the conflict
  const rows = [[0.9, 0.8, 0.0], [0.95, 0.1, 0.0]];
  assert.deepEqual(assignTopK(rows, 2), [1, 0]);
  const big = Array.from({ length: 50 }, (_, i) => Array.from({ length: 50 }, (_, j) => (i === j ? 1 : Math.sin(i * 7 + j))));
  assert.deepEqual(assignTopK(big, 5), big.map((_, i) => i));
});

test('accuracy and macro-F1', () => {
  const r = accuracyMacroF1(['a', 'a', 'b'], ['a', 'b', 'b']);
  assert.equal(r.accuracy, 2 / 3);
  assert.ok(Math.abs(r.macroF1 - (2 / 3 + 2 / 3) / 2) < 1e-9);
});

test('BM25 prefers documents sharing rare terms', () => {
  const idx = new Bm25Index();
  idx.add([10, 11, 12]); idx.add([10, 13, 13]); idx.add([10, 14]);
  const s = idx.scores([13, 10]);
  assert.ok(s[1] > s[0] && s[1] > s[2]);
});
