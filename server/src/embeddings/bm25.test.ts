import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Bm25Index } from './bm25.js';
import { MathTokenizer } from './tokenizer.js';
import { vocabFile } from '../testing/modelPaths.js';

describe('BM25', () => {
  const tok = MathTokenizer.load(vocabFile);
  const texts = [
    'Every Artinian ring is Noetherian.',
    'An Artinian ring has finitely many maximal ideals.',
    'There are infinitely many prime numbers.',
    'A local Artinian ring has a nilpotent maximal ideal $\\mathfrak m$.',
    'Let $R$ be a Noetherian ring and $I$ an ideal.',
  ].map((t) => tok.encode(t));
  const index = new Bm25Index();
  for (const t of texts) index.add(t);

  it('ranks the documents that share rare words first', () => {
    const s = index.scores(tok.encode('nilpotent maximal ideal'));
    assert.equal(s.indexOf(Math.max(...s)), 3);
    assert.equal(s[2], 0);
  });

  it('leaves documents out exactly as if they had never been added', () => {
    const q = tok.encode('An Artinian ring is Noetherian with finitely many maximal ideals.');
    for (const without of [[0], [3], [1, 4], [0, 1, 2, 3, 4]]) {
      const rebuilt = new Bm25Index();
      texts.forEach((t, i) => { if (!without.includes(i)) rebuilt.add(t); });
      const expected = [...rebuilt.scores(q)];
      const got = [...index.scores(q, without)];
      for (const i of without) assert.equal(got[i], 0, `document ${i} left out scores 0`);
      const rest = got.filter((_, i) => !without.includes(i));
      assert.equal(rest.length, expected.length);
      rest.forEach((x, i) => assert.ok(Math.abs(x - expected[i]) < 1e-5, `without ${without}: ${rest} vs ${expected}`));
    }
  });
});
