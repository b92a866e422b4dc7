import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CiterProfiles, citerSourceOf } from './citerProfiles.js';
import { MathTokenizer } from '../embeddings/tokenizer.js';
import { vocabFile } from '../testing/modelPaths.js';

describe('citer profiles', () => {
  const tok = MathTokenizer.load(vocabFile);
  // candidates: 0 a lemma on modules of finite length, 1 one on primes, 2 nobody cites
  const citers = [
    { text: 'Every Artinian ring is Noetherian.', cites: [0] },
    { text: 'An Artinian ring has finitely many maximal ideals.', cites: [0, 1] },
    { text: 'There are infinitely many prime numbers.', cites: [1] },
    { text: 'A local Artinian ring has a nilpotent maximal ideal.', cites: [0, 0] },
  ];
  const unit = (v: number[]) => { const n = Math.hypot(...v); return Float32Array.from(v, (x) => x / n); };
  const vecs = [unit([1, 0.1, 0]), unit([0.8, 0.5, 0]), unit([0, 1, 0.2]), unit([1, 0, 0.1])];
  const rows = citers.map((c, j) => ({ ids: tok.encode(c.text), cites: c.cites, vec: vecs[j] }));
  const profiles = new CiterProfiles(3, citerSourceOf(rows));

  it('matches a query with the statements that cite a result, not with the result', () => {
    const s = profiles.bm25(tok.encode('Let $R$ be an Artinian ring.'));
    assert.ok(s[0] > s[1] && s[1] > 0, `${[...s]}`);
    assert.equal(s[2], 0, 'a result nobody cites has no profile');
    assert.equal(profiles.size, 2);
    const c = profiles.centroid(unit([1, 0, 0]));
    assert.ok(c[0] > c[1] && c[2] === 0, `${[...c]}`);
  });

  it('leaves a citer out exactly as if it had never been added', () => {
    const q = tok.encode('An Artinian ring has finitely many maximal ideals and primes.');
    for (const j of [0, 1, 2, 3]) {
      const rebuilt = new CiterProfiles(3, citerSourceOf(rows.map((r, k) => (k === j ? { ...r, cites: [] } : r))));
      const close = (a: Float32Array, b: Float32Array) => [...a].every((x, i) => Math.abs(x - b[i]) < 1e-5);
      assert.ok(close(profiles.bm25(q, [j]), rebuilt.bm25(q)), `bm25 without ${j}: ${[...profiles.bm25(q, [j])]} vs ${[...rebuilt.bm25(q)]}`);
      const v = unit([0.7, 0.7, 0.1]);
      assert.ok(close(profiles.centroid(v, [j]), rebuilt.centroid(v)), `centroid without ${j}`);
    }
  });

  it('leaves a result out exactly as if it were no candidate, with its own citer', () => {
    const q = tok.encode('An Artinian ring has finitely many maximal ideals and primes.');
    const close = (a: Float32Array, b: Float32Array) => [...a].every((x, i) => Math.abs(x - b[i]) < 1e-5);
    // four candidates that are their own citers (a workspace): leaving candidate k out must read
    // as the three others alone, their cites of k dropped
    const ws = [
      { ids: tok.encode('Every Artinian ring is Noetherian.'), cites: [1, 2] },
      { ids: tok.encode('An Artinian ring has finitely many maximal ideals.'), cites: [2] },
      { ids: tok.encode('There are infinitely many prime numbers.'), cites: [] as number[] },
      { ids: tok.encode('A local Artinian ring has a nilpotent maximal ideal.'), cites: [0, 1, 2] },
    ];
    const all = new CiterProfiles(4, citerSourceOf(ws));
    for (const k of [0, 1, 2, 3]) {
      const rest = ws.filter((_, i) => i !== k).map((r) => ({ ids: r.ids, cites: r.cites.filter((c) => c !== k).map((c) => (c > k ? c - 1 : c)) }));
      const alone = [...new CiterProfiles(3, citerSourceOf(rest)).bm25(q)];
      const left = [...all.bm25(q, [k], [k])];
      assert.equal(left[k], 0);
      left.splice(k, 1);
      assert.ok(close(Float32Array.from(left), Float32Array.from(alone)), `without ${k}: ${left} vs ${alone}`);
    }
  });

  it('reads a result cited by its only citer, left out, as nobody\'s', () => {
    const s = profiles.bm25(tok.encode('prime numbers'), [2, 1]);
    assert.equal(s[1], 0);
    assert.equal(profiles.centroid(unit([0, 1, 0]), [2, 1])[1], 0);
  });

  it('takes vectors that arrive later as if it had been built with them', () => {
    const late = new CiterProfiles(3, citerSourceOf(rows.map((r) => ({ ids: r.ids, cites: r.cites }))));
    const q = unit([0.7, 0.7, 0.1]);
    const close = (a: Float32Array, b: Float32Array) => [...a].every((x, i) => Math.abs(x - b[i]) < 1e-5);
    late.setVector(1, vecs[1]);
    late.setVector(3, unit([0, 0, 1])); // a wrong one first, replaced below
    for (const j of [0, 2, 3]) late.setVector(j, vecs[j]);
    assert.ok(close(late.centroid(q), profiles.centroid(q)), `${[...late.centroid(q)]} vs ${[...profiles.centroid(q)]}`);
    assert.ok(close(late.centroid(q, [1]), profiles.centroid(q, [1])), 'with a citer left out');
    late.setVector(2, undefined);
    const rebuilt = new CiterProfiles(3, citerSourceOf(rows.map((r, j) => ({ ...r, vec: j === 2 ? undefined : r.vec }))));
    assert.ok(close(late.centroid(q), rebuilt.centroid(q)), 'a vector taken away');
  });

  it('gives zeros without citers or without vectors', () => {
    const none = new CiterProfiles(2, citerSourceOf([{ ids: tok.encode('x'), cites: [] }]));
    assert.deepEqual([...none.bm25(tok.encode('x'))], [0, 0]);
    const noVec = new CiterProfiles(3, citerSourceOf(rows.map((r) => ({ ids: r.ids, cites: r.cites }))));
    assert.deepEqual([...noVec.centroid(unit([1, 0, 0]))], [0, 0, 0]);
  });
});
