// BM25 over the math-aware tokenizer's ids (the LaTeX-aware lexical baseline, and half of the
// fused score). Special tokens (unknowns, padding) are not terms.
import { lowerBound } from '../util/lowerBound.js';

const FIRST_TERM_ID = 8;

export class Bm25Index {
  private readonly postings = new Map<number, { docs: number[]; tfs: number[] }>();
  private readonly lengths: number[] = [];
  private avgLength = 0;

  constructor(private readonly k1 = 1.2, private readonly b = 0.75) {}

  get size(): number { return this.lengths.length; }

  /** Adds a document (token ids); returns its index. */
  add(ids: readonly number[]): number {
    const doc = this.lengths.length;
    const tf = new Map<number, number>();
    for (const id of ids) if (id >= FIRST_TERM_ID) tf.set(id, (tf.get(id) ?? 0) + 1);
    for (const [term, n] of tf) {
      let p = this.postings.get(term);
      if (!p) this.postings.set(term, p = { docs: [], tfs: [] });
      p.docs.push(doc);
      p.tfs.push(n);
    }
    this.lengths.push(ids.length);
    this.avgLength += (ids.length - this.avgLength) / this.lengths.length;
    return doc;
  }

  /**
   * Scores of every document for a query (each distinct query term counted once). `without`:
   * documents left out, exactly as if they had never been added (their own scores are 0), so
   * that one index over a set serves queries that must not see their own entry.
   */
  scores(query: readonly number[], without: readonly number[] = []): Float32Array {
    const out = new Float32Array(this.lengths.length);
    let n = this.lengths.length, avg = this.avgLength;
    const skip = new Set(without.filter((d) => d >= 0 && d < this.lengths.length));
    if (skip.size) {
      let total = avg * n;
      for (const d of skip) total -= this.lengths[d];
      n -= skip.size;
      avg = n ? total / n : 0;
    }
    for (const term of new Set(query)) {
      const p = this.postings.get(term);
      if (!p) continue;
      let df = p.docs.length;
      // a posting list is in document order: binary search for each left-out document
      if (skip.size) for (const d of skip) { const k = lowerBound(p.docs.length, (j) => p.docs[j] < d); if (p.docs[k] === d) df--; }
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i];
        const tf = p.tfs[i];
        out[d] += idf * (tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + this.b * this.lengths[d] / avg));
      }
    }
    for (const d of skip) out[d] = 0;
    return out;
  }
}

