// Neighbour votes for results to cite: weighting, the k nearest only, and the z-score sum.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { neighbourVotes, unitVotes, withVotes } from './citationVotes.js';
import type { IndexEntry } from './format.js';
import { citationsOf, timesCited, withCitationVotes } from './retrieval.js';
import { POSITION_FEATURES, SHARED_FEATURES, TEXT_FEATURES } from './referenceRanker.js';
import type { LoadedIndex } from './store.js';
import { MathTokenizer } from '../embeddings/tokenizer.js';
import { vocabFile } from '../testing/modelPaths.js';

describe('citation votes', () => {
  it('weights each neighbour by its similarity relative to the nearest, cubed, and reads only k', () => {
    const v = neighbourVotes([{ score: 10, cites: [0, 2] }, { score: 5, cites: [2] }, { score: 4, cites: [3] }], 4, 2, 3);
    assert.deepEqual([...v], [1, 0, 1.125, 0]);
    assert.deepEqual([...neighbourVotes([], 3)], [0, 0, 0]);
    assert.deepEqual([...neighbourVotes([{ score: 1, cites: [7, -1] }], 3)], [0, 0, 0], 'out-of-range ids are ignored');
  });

  it('adds standardised votes to the standardised direct match', () => {
    const direct = [3, 2, 1, 0];
    assert.deepEqual([...withVotes(direct, new Float32Array(4))].map((x) => Math.round(x * 100) / 100), [1.34, 0.45, -0.45, -1.34]);
    const s = withVotes(direct, Float32Array.from([0, 0, 0, 2]));
    assert.ok(s[3] > s[1], 'a voted candidate overtakes a better direct match');
    assert.ok(s[0] > s[3]);
  });

  it('divides votes by their norm for the rankers, so a pool\'s size does not scale them', () => {
    assert.deepEqual([...unitVotes(Float32Array.from([0, 3, 4]))], [0, 0.6000000238418579, 0.800000011920929]);
    assert.deepEqual([...unitVotes(new Float32Array(3))], [0, 0, 0]);
    const small = unitVotes(Float32Array.from([1, 0, 0])), large = unitVotes(Float32Array.from([1, ...new Array(9999).fill(0)]));
    assert.equal(small[0], large[0]);
  });
});

describe('votes over the index entries', () => {
  // a five-statement index: 0 cites 3 (a PS premise), 1's proof names 4, 2 cites nothing
  const entries: Record<number, Partial<IndexEntry>> = {
    0: { premises: [3] }, 1: { proofs: [10] }, 2: {}, 3: {}, 4: {}, 10: { refs: [4, 1] },
  };
  // no postings and no vectors: the citer profiles (citerProfiles.ts) read as zeros
  const entry = (id: number) => ({ id, ...entries[id] });
  const index = { entry, peek: entry, title: (id: number) => entry(id).title, digestCitations: () => undefined, count: 11, header: { kinds: { statement: [0, 5] }, modelVersion: '' }, postings: () => {}, lengths: new Uint16Array(11) } as unknown as LoadedIndex;

  it('reads what a statement cites from its premises and its proofs\' named results, never itself', () => {
    assert.deepEqual(citationsOf(index, 0), [3]);
    assert.deepEqual(citationsOf(index, 1), [4]);
    assert.deepEqual(citationsOf(index, 2), []);
  });

  it('lifts what the nearest citing statements cite; an excluded statement does not vote', () => {
    const direct = Float32Array.from([5, 4, 3, 0, 0]);
    const plain = withVotes(direct, new Float32Array(5));
    const gain = (exclude?: Set<number>) => { const v = withCitationVotes(index, exclude)(direct.slice(), 0); return [...v].map((x, i) => x - plain[i]); };
    const g = gain();
    assert.ok(g[3] > 0 && g[4] > 0 && g[2] < 0, `${g}`);
    assert.ok(g[3] > g[4], 'the nearer neighbour weighs more');
    const without0 = gain(new Set([0]));
    assert.ok(without0[3] < 0 && without0[4] > 0, 'statement 0 excluded: nothing votes for 3');
  });

  it('with a text ranker in the header, adds times cited, never counting an excluded statement\'s citations', () => {
    // a network of one unit reading times cited alone: tanh(log(1 + times cited))
    const net = (features: readonly string[], w: number[]) => ({ features: [...features], mean: features.map(() => 0), scale: features.map(() => 1), hidden: [w], bias: [0], out: [1] });
    const text = { features: [...TEXT_FEATURES], shared: net(SHARED_FEATURES, SHARED_FEATURES.map((f) => (f === 'log(1 + times cited)' ? 1 : 0))), names: [0, 0, 0, 0] };
    const position = net(POSITION_FEATURES, POSITION_FEATURES.map(() => 0));
    const ranked = { ...index, header: { ...index.header, referenceRankers: { text, position, trainedOn: '', licence: '', dev: {} } } } as unknown as LoadedIndex;
    assert.deepEqual([...timesCited(ranked)].slice(0, 5), [0, 0, 0, 1, 1]);
    const s = withCitationVotes(ranked)(Float32Array.from([5, 4, 3, 0, 0]), 0);
    const once = Math.round(Math.tanh(Math.log(2)) * 1000) / 1000;
    assert.deepEqual([...s].map((x) => Math.round(x * 1000) / 1000), [0, 0, 0, once, once]);
    const without0 = withCitationVotes(ranked, new Set([0]))(Float32Array.from([5, 4, 3, 0, 0]), 0);
    assert.deepEqual([...without0].map((x) => Math.round(x * 1000) / 1000), [0, 0, 0, 0, once]);
  });

  it('with names, reads the indexed statements\' titles: the statements titled like the query\'s name vote', () => {
    const tok = MathTokenizer.load(vocabFile);
    const titles = ['Sum of Geometric Sequence', 'Product of Primes', 'Cauchy Sequence is Bounded', 'Ratio Test', 'Prime Factorization'];
    const titledEntry = (id: number) => ({ id, title: titles[id] ?? '', ...entries[id] });
    const titled = { ...index, entry: titledEntry, peek: titledEntry, title: (id: number) => titledEntry(id).title } as unknown as LoadedIndex;
    const net = (features: readonly string[]) => ({ features: [...features], mean: features.map(() => 0), scale: features.map(() => 1), hidden: [features.map(() => 0)], bias: [0], out: [1] });
    // the shared network reads nothing; one weight on the votes of the neighbours by name
    const text = { features: [...TEXT_FEATURES], shared: net(SHARED_FEATURES), names: [0, 0, 0, 1] };
    const ranked = { ...titled, header: { ...index.header, referenceRankers: { text, position: net(POSITION_FEATURES), trainedOn: '', licence: '', dev: {} } } } as unknown as LoadedIndex;
    const q = { ids: tok.encode('Let $n$ be an integer.') };
    const direct = Float32Array.from([5, 4, 3, 0, 0]);
    // "primes product" is nearest statement 1 by title, whose proof names 4
    const s = withCitationVotes(ranked, undefined, q, { tok, name: 'primes product' })(direct.slice(), 0);
    assert.equal([...s].indexOf(Math.max(...s)), 4, `${[...s]}`);
    assert.ok(s[4] > 0 && s[3] === 0, `${[...s]}`);
    // without a name, or without names at all, the name signals read as zeros
    assert.deepEqual([...withCitationVotes(ranked, undefined, q, { tok })(direct.slice(), 0)], [0, 0, 0, 0, 0]);
    assert.deepEqual([...withCitationVotes(ranked)(direct.slice(), 0)], [0, 0, 0, 0, 0]);
  });
});
