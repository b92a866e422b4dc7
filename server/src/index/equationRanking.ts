// Ranking for "Find related equations": three channels fused into one score in [0, 1].
// * Fingerprint (strongest): the same equation up to scale (difference keys equal), the same
//   identity class, or an equivalent non-trivial side. Weight 0.55, so an equation that says the
//   same thing always ranks above one that only looks alike.
// * Formula encoder: cosine of the canonical texts' vectors, when both vectors exist (0.25).
// * Structure: structuralSimilarity of the shape features (0.20; 0.45 without the encoder).
// Candidates are every fingerprint hit plus the best few hundred by a cheap overlap of token
// bigrams and by cosine; only those get the exact structural score. Shared by the
// workspace (features/workspaceEquations.ts) and the bundled index (equationStore.ts).
import { structuralSimilarity } from '../math/equations/structural.js';
import { topK } from '../util/topK.js';
import { shapeOf, type EquationFeatures } from './equationFeatures.js';
import type { FingerprintMatch, Why } from '../ext/protocol.js';

export const W_FINGERPRINT = 0.55;
export const W_ENCODER = 0.25;
export const W_STRUCTURE = 0.2;
const POOL = 200;
/** Pool candidates scored exactly (structure), chosen by the score with token-bigram overlap for structure. */
const EXACT = 120;
const MAX_FP_HITS = 500;
const QUICK_POOL = 60;
const QUICK_EXACT = 30;

export interface Scored { id: number; score: number; why: Why }

/** A set of analysed equations that can be searched (ids 0 … size-1). */
export interface EquationCorpus {
  readonly size: number;
  /** Ids whose difference key, or one of whose side keys, is `key`. */
  withDifference(key: string): readonly number[];
  withSide(key: string): readonly number[];
  features(id: number): Pick<EquationFeatures, 'sides' | 'difference' | 'identity'>;
  /** Structural features (read on demand for the few candidates scored exactly). */
  shape(id: number): string[];
  /** Cheap overlap of token bigrams with the query's tokens, for every id. */
  shapeOverlap(tokens: readonly string[]): Float32Array;
  /** Cosine with the query vector for every id (-2 where an id has no vector), or undefined. */
  cosines(vec: Float32Array): Float32Array | undefined;
}

export interface RankQuery { f: EquationFeatures; vec?: Float32Array }

/** Token ids < 65535 (one shared id beyond): a bigram is one 32-bit code. */
const OTHER = 0xffff;

/** Canonical tokens numbered, so token sequences become sorted distinct bigram codes (what shapeOverlap compares). */
export class TokenTable {
  private readonly ids = new Map<string, number>();
  readonly list: string[] = [];

  constructor(list: readonly string[] = []) { for (const t of list) this.id(t, true); }

  /** The token's id (added when `add`), or undefined. */
  id(t: string, add: boolean): number | undefined {
    let i = this.ids.get(t);
    if (i === undefined && add) {
      i = Math.min(this.list.length, OTHER);
      if (this.list.length < OTHER) { this.list.push(t); this.ids.set(t, i); }
    }
    return i;
  }

  /** Sorted distinct codes of the token bigrams; unknown tokens make no code unless `add`. */
  codes(tokens: readonly string[], add: boolean): Uint32Array {
    const out: number[] = [];
    let prev: number | undefined;
    for (const t of tokens) {
      const i = this.id(t, add);
      if (prev !== undefined && i !== undefined) out.push(prev * 0x10000 + i);
      prev = i;
    }
    return sortedDistinct(out);
  }
}

export function sortedDistinct(xs: readonly number[]): Uint32Array {
  const a = Uint32Array.from(xs).sort();
  let n = 0;
  for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[i - 1]) a[n++] = a[i];
  return a.slice(0, n);
}

/**
 * `overlap` of the query codes with every list of a CSR layout (codes[offsets[i] … offsets[i+1]]).
 * A 4096-bit filter of the query's codes skips most codes without a search (the lists are long,
 * the query short), which makes a scan over ~70k equations a few milliseconds.
 */
export function overlapAll(q: Uint32Array, codes: Uint32Array, offsets: Uint32Array, n: number): Float32Array {
  const out = new Float32Array(n);
  if (q.length === 0) return out;
  const bits = new Uint32Array(128);
  const slot = (c: number) => Math.imul(c, 0x9e3779b1) >>> 20;
  for (const c of q) { const h = slot(c); bits[h >>> 5] |= 1 << (h & 31); }
  for (let i = 0; i < n; i++) {
    const a = offsets[i], b = offsets[i + 1];
    if (a === b) continue;
    let common = 0;
    for (let j = a; j < b; j++) {
      const c = codes[j];
      const h = slot(c);
      if ((bits[h >>> 5] & (1 << (h & 31))) === 0) continue;
      let lo = 0, hi = q.length;
      while (lo < hi) { const m = (lo + hi) >>> 1; if (q[m] < c) lo = m + 1; else hi = m; }
      if (lo < q.length && q[lo] === c) common++;
    }
    if (common) out[i] = common / Math.sqrt(q.length * (b - a));
  }
  return out;
}

/** The fingerprint relation of a candidate to the query, and its strength in [0, 1]. */
export function fingerprintMatch(q: Pick<EquationFeatures, 'sides' | 'difference' | 'identity'>, c: Pick<EquationFeatures, 'sides' | 'difference' | 'identity'>): { match?: FingerprintMatch; strength: number } {
  if (q.difference && q.difference === c.difference) return { match: q.identity ? 'identity' : 'equation', strength: 1 };
  // identities without a class of their own (no functions to perturb) are matched by their sides' class
  if (q.identity && c.identity && !q.difference && !c.difference && q.sides.length && c.sides.some((s) => s.key === q.sides[0].key)) return { match: 'identity', strength: 1 };
  let best = 0;
  for (const s of q.sides) for (const t of c.sides) if (s.key === t.key) best = Math.max(best, Math.min(s.weight, t.weight));
  return best > 0 ? { match: 'side', strength: best } : { strength: 0 };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export interface RankOptions {
  limit?: number;
  exclude?: (id: number) => boolean;
  /** Fewer candidates by the cheap scores, fewer scored exactly: for many searches at once (lenses). */
  quick?: boolean;
}

export function rankEquations(q: RankQuery, corpus: EquationCorpus, opts: RankOptions = {}): Scored[] {
  const limit = opts.limit ?? 20;
  const poolSize = opts.quick ? QUICK_POOL : POOL;
  const exactSize = opts.quick ? QUICK_EXACT : EXACT;
  if (corpus.size === 0) return [];
  const pool = new Set<number>();
  // fingerprint hits: the equation, then its sides by weight (common small sides are capped)
  if (q.f.difference) for (const id of corpus.withDifference(q.f.difference)) pool.add(id);
  for (const s of [...q.f.sides].sort((a, b) => b.weight - a.weight)) {
    for (const id of corpus.withSide(s.key)) { if (pool.size >= MAX_FP_HITS) break; pool.add(id); }
  }
  const over = corpus.shapeOverlap(q.f.tokens);
  for (const i of topK(over, poolSize)) if (over[i] > 0) pool.add(i);
  const cos = q.vec ? corpus.cosines(q.vec) : undefined;
  if (cos) for (const i of topK(cos, poolSize)) if (cos[i] > -2) pool.add(i);
  const fuse = (fp: number, c: number | undefined, structure: number) =>
    W_FINGERPRINT * fp + (c !== undefined ? W_ENCODER * Math.max(0, c) + W_STRUCTURE * structure : (W_ENCODER + W_STRUCTURE) * structure);
  // the exact structural score (n-gram multisets) only for the best candidates by the cheap one
  const pre: Array<{ id: number; fm: ReturnType<typeof fingerprintMatch>; c?: number; score: number }> = [];
  for (const id of pool) {
    if (opts.exclude?.(id)) continue;
    const fm = fingerprintMatch(q.f, corpus.features(id));
    const c = cos && cos[id] > -2 ? cos[id] : undefined;
    pre.push({ id, fm, c, score: fuse(fm.strength, c, over[id]) });
  }
  pre.sort((a, b) => b.score - a.score || a.id - b.id);
  const out: Scored[] = [];
  const qShape = shapeOf(q.f);
  for (const p of pre.slice(0, Math.max(exactSize, limit))) {
    const structure = qShape.length ? structuralSimilarity(qShape, corpus.shape(p.id)) : 0;
    const score = fuse(p.fm.strength, p.c, structure);
    if (score <= 0) continue;
    out.push({ id: p.id, score: round(score), why: { ...(p.fm.match ? { fingerprint: p.fm.match } : {}), ...(p.c !== undefined ? { encoder: round(p.c) } : {}), structure: round(structure) } });
  }
  return out.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
}
