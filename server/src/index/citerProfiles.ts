// Results described by the statements that cite them. A result's *citer profile* is the text of
// every citing statement whose proof uses it (the "anchor text" of citation recommendation): a
// lemma on modules of finite length is cited by statements about Artinian rings, so a query
// about Artinian rings matches its profile even where it shares few words with the lemma. Two
// scores over all candidates: BM25 of the query against each profile (words of different
// citers add up), and the cosine of the query's vector with the mean of the citers' vectors.
//
// Profiles are never materialised: a profile's term frequency is summed at query time from the
// citers' own postings (the index already has them), so the same code serves the trainer, the
// index (~18k statements) and a workspace, and leaving a citer out is exact: a fit query that is
// itself a citing statement is taken out of every profile it is in, and so is the query's own
// entry in the index.

import { FIRST_TERM_ID } from './store.js';
import { drain } from '../util/turns.js';

/** The citing statements, as the profiles read them. */
export interface CiterSource {
  /** Number of citing statements (ids 0..citers-1 for the calls below). */
  readonly citers: number;
  /** Calls `each(j, tf)` for every citing statement j that holds `term` (tf > 0). */
  postings(term: number, each: (j: number, tf: number) => void): void;
  /** What citing statement j cites (candidate ids); empty or undefined for none. */
  cites(j: number): readonly number[] | undefined;
  /** Number of terms of citing statement j. */
  length(j: number): number;
  /** Its unit vector, if there is one. */
  vector?(j: number): Float32Array | undefined;
}

/** Citers read in between pauses of a build in slices. */
const CITERS_PER_PAUSE = 1024;

export class CiterProfiles {
  private readonly lists: number[][];
  private readonly lengths: Float64Array;
  private readonly sums: Array<Float64Array | undefined>;
  private readonly counts: Int32Array;
  /** Per result, how many of its citers' vectors its sum holds. */
  private readonly withVector: Int32Array;
  /** The vector each citer's is summed with (undefined: none). */
  private readonly vectors: Array<Float32Array | undefined>;
  private readonly scratch: Float64Array;
  private total = 0;
  private profiles = 0;

  constructor(readonly candidates: number, private readonly source: CiterSource, private readonly k1 = 1.2, private readonly b = 0.75, filled = true) {
    this.lengths = new Float64Array(candidates);
    this.sums = new Array(candidates);
    this.counts = new Int32Array(candidates);
    this.withVector = new Int32Array(candidates);
    this.vectors = new Array(source.citers);
    this.scratch = new Float64Array(candidates);
    this.lists = new Array(source.citers);
    if (filled) drain(this.fill());
  }

  /**
   * Profiles built a slice at a time (`yield` between slices of citers): the index's, over all
   * its statements and their vectors, is more work than a request may wait behind.
   */
  static *built(candidates: number, source: CiterSource): Generator<void, CiterProfiles> {
    const p = new CiterProfiles(candidates, source, undefined, undefined, false);
    yield* p.fill();
    return p;
  }

  /** Reads the citers in: each citer's cites once and in range (the query loop below reads them). */
  private *fill(): Generator<void, void> {
    const source = this.source;
    for (let j = 0; j < source.citers; j++) {
      if (j % CITERS_PER_PAUSE === CITERS_PER_PAUSE - 1) yield;
      const cs = this.lists[j] = distinct(source.cites(j), this.candidates);
      if (cs.length === 0) continue;
      const len = source.length(j), v = source.vector?.(j);
      for (const c of cs) {
        if (this.counts[c]++ === 0) this.profiles++;
        this.lengths[c] += len;
        this.total += len;
        if (v) this.addVector(c, v, 1);
      }
      this.vectors[j] = v;
    }
  }

  /**
   * Gives citing statement j the vector `v` (one that arrived since, or none): the centroids
   * change as if the profiles had been built with it. A workspace's vectors come from the encoder
   * one batch at a time, and rebuilding the profiles for each would cost more than the ranking.
   */
  setVector(j: number, v: Float32Array | undefined): void {
    const old = this.vectors[j];
    if (old === v || j < 0 || j >= this.lists.length) return;
    for (const c of this.lists[j]) {
      if (old) this.addVector(c, old, -1);
      if (v) this.addVector(c, v, 1);
    }
    this.vectors[j] = v;
  }

  private addVector(c: number, v: Float32Array, sign: 1 | -1): void {
    let s = this.sums[c];
    if (!s) this.sums[c] = s = new Float64Array(v.length);
    if (s.length !== v.length) return;
    for (let d = 0; d < v.length; d++) s[d] += sign * v[d];
    this.withVector[c] += sign;
  }

  /** Number of results cited by at least one citing statement. */
  get size(): number { return this.profiles; }

  /**
   * BM25 of the query's terms against every profile (0 for results nobody cites). `without`:
   * citing statements left out of every profile (the query itself, when it is one). `results`:
   * results left out as if they were no candidates (their scores are 0), so that one set of
   * profiles over a workspace's results serves a query that is itself one of them.
   */
  bm25(query: readonly number[], without: readonly number[] = [], results: readonly number[] = []): Float32Array {
    const out = new Float32Array(this.candidates);
    if (this.profiles === 0) return out;
    const skip = new Set(without);
    const gone = new Set(results.filter((c) => c >= 0 && c < this.candidates));
    // without the left-out citers: their profiles are shorter (or gone), and so is the total
    let lengths = this.lengths, profiles = this.profiles, total = this.total;
    let left = this.counts;
    if (skip.size) {
      lengths = this.lengths.slice();
      left = this.counts.slice();
      for (const j of skip) {
        for (const c of this.lists[j] ?? []) {
          lengths[c] -= this.source.length(j);
          total -= this.source.length(j);
          if (--left[c] === 0) profiles--;
        }
      }
    }
    for (const c of gone) {
      if (left[c] <= 0) continue;
      total -= lengths[c];
      profiles--;
    }
    if (profiles <= 0) return out;
    const avg = total / (profiles || 1);
    const tf = this.scratch, touched: number[] = [];
    for (const term of new Set(query)) {
      this.source.postings(term, (j, n) => {
        if (skip.has(j)) return;
        for (const c of this.lists[j]) {
          if (gone.has(c)) continue;
          if (tf[c] === 0) touched.push(c);
          tf[c] += n;
        }
      });
      if (touched.length === 0) continue;
      const idf = Math.log(1 + (profiles - touched.length + 0.5) / (touched.length + 0.5));
      for (const c of touched) {
        const len = Math.max(lengths[c], 1);
        out[c] += idf * (tf[c] * (this.k1 + 1)) / (tf[c] + this.k1 * (1 - this.b + this.b * len / (avg || 1)));
        tf[c] = 0;
      }
      touched.length = 0;
    }
    return out;
  }

  /**
   * Cosine of `q` with the mean vector of each result's citers (0 for results nobody cites, or
   * without vectors); `without` as for bm25.
   */
  centroid(q: Float32Array, without: readonly number[] = []): Float32Array {
    const out = new Float32Array(this.candidates);
    const minus = new Map<number, { n: number; nv: number; v: Float64Array }>();
    for (const j of without) {
      const v = this.vectors[j];
      for (const c of this.lists[j] ?? []) {
        let m = minus.get(c);
        if (!m) minus.set(c, m = { n: 0, nv: 0, v: new Float64Array(q.length) });
        m.n++;
        if (v && v.length === q.length) { m.nv++; for (let d = 0; d < v.length; d++) m.v[d] += v[d]; }
      }
    }
    this.sums.forEach((s, c) => {
      if (!s || s.length !== q.length) return;
      const m = minus.get(c);
      // no citer left, or none with a vector (a sum of none is rounding, not a direction)
      if (m && this.counts[c] - m.n <= 0) return;
      if (this.withVector[c] - (m?.nv ?? 0) <= 0) return;
      let qs = 0, ss = 0;
      for (let d = 0; d < s.length; d++) { const v = m ? s[d] - m.v[d] : s[d]; qs += q[d] * v; ss += v * v; }
      out[c] = ss > 1e-12 ? qs / Math.sqrt(ss) : 0;
    });
    return out;
  }
}

/** A citer's cites, each once and within range (a proof may \ref a result twice). */
function distinct(cites: readonly number[] | undefined, n: number): number[] {
  if (!cites?.length) return [];
  const out: number[] = [];
  for (const c of cites) if (c >= 0 && c < n && !out.includes(c)) out.push(c);
  return out;
}

/** A CiterSource over token-id lists (the trainer, a workspace): an inverted index of its citers. */
export function citerSourceOf(citers: ReadonlyArray<{ ids: readonly number[]; cites: readonly number[]; vec?: Float32Array }>): CiterSource {
  const postings = new Map<number, { docs: number[]; tfs: number[] }>();
  const lengths = citers.map(({ ids, cites }, j) => {
    if (!cites.length) return 0;
    const tf = new Map<number, number>();
    for (const t of ids) if (t >= FIRST_TERM_ID) tf.set(t, (tf.get(t) ?? 0) + 1);
    let len = 0;
    for (const [t, n] of tf) {
      let p = postings.get(t);
      if (!p) postings.set(t, p = { docs: [], tfs: [] });
      p.docs.push(j); p.tfs.push(n);
      len += n;
    }
    return len;
  });
  return {
    citers: citers.length,
    postings(term, each) { const p = postings.get(term); if (p) for (let i = 0; i < p.docs.length; i++) each(p.docs[i], p.tfs[i]); },
    cites: (j) => citers[j].cites,
    length: (j) => lengths[j],
    vector: (j) => citers[j].vec,
  };
}
