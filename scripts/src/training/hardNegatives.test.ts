import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { bm25Negatives } from './hardNegatives.js';

// term ids start at 8 (below are special tokens, never matched)
const pool = [
  [10, 11, 12], // 0: shares three words with the query
  [10, 11, 40], // 1: two
  [10, 41, 42], // 2: one
  [43, 44, 45], // 3: none
  [10, 11, 12, 13], // 4: the query's answer
  [1, 2, 3], // 5: special tokens only
];

test('ranks the pool by BM25, answers excluded, unmatched texts never drawn', () => {
  const [n] = bm25Negatives(pool, [{ ids: [10, 11, 12, 13], exclude: new Set([4]) }], 10, 0);
  assert.deepEqual(n, [0, 1, 2]);
});

test('passes over the first ranks and keeps at most `depth`', () => {
  const q = { ids: [10, 11, 12], exclude: new Set<number>() };
  assert.deepEqual(bm25Negatives(pool, [q], 10, 0)[0].slice(0, 2), [0, 4]);
  assert.deepEqual(bm25Negatives(pool, [q], 2, 1)[0], [4, 1]);
  assert.deepEqual(bm25Negatives(pool, [{ ids: [99], exclude: new Set() }])[0], []);
});
