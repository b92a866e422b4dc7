// A searchable set of analysed equations held in memory (EquationCorpus): the workspace's
// snapshot and a library's displays. The lookups by fingerprint and the bigram codes of their
// shapes are built on first use; an equation not analysed yet matches nothing. A corpus that
// stays as it is (a library's) also gets postings of its codes, so the shape overlap reads only
// the equations sharing a bigram with the query, as the bundled index's does; a snapshot, made
// again after edits, scans its codes instead.
import { shapeOf, type EquationFeatures } from './equationFeatures.js';
import { overlapAll, type TokenTable, type EquationCorpus } from './equationRanking.js';

export class FeatureCorpus implements EquationCorpus {
  private static readonly NONE: Pick<EquationFeatures, 'sides' | 'identity'> = { sides: [], identity: false };
  /** Lookups by difference and by side, and the shape codes: built on first use (a snapshot made to queue analyses never needs them). */
  private built?: { byDiff: Map<string, number[]>; bySide: Map<string, number[]>; offsets: Uint32Array; hashes: Uint32Array; postings?: Map<number, Uint32Array> };

  constructor(private readonly feats: ReadonlyArray<EquationFeatures | undefined>, private readonly vecs: ReadonlyArray<Float32Array | undefined>, private readonly table: TokenTable, private readonly codesOf: (f: EquationFeatures) => Uint32Array, private readonly opts: { postings?: boolean } = {}) {}

  private index(): NonNullable<FeatureCorpus['built']> {
    if (this.built) return this.built;
    const byDiff = new Map<string, number[]>();
    const bySide = new Map<string, number[]>();
    const lists: Uint32Array[] = [];
    const offsets = new Uint32Array(this.feats.length + 1);
    this.feats.forEach((f, i) => {
      const h = f ? this.codesOf(f) : new Uint32Array(0);
      lists.push(h);
      offsets[i + 1] = offsets[i] + h.length;
      if (!f) return;
      if (f.difference) push(byDiff, f.difference, i);
      for (const s of f.sides) push(bySide, s.key, i);
    });
    const hashes = new Uint32Array(offsets[this.feats.length]);
    lists.forEach((h, i) => hashes.set(h, offsets[i]));
    this.built = { byDiff, bySide, offsets, hashes, ...(this.opts.postings ? { postings: postingsOf(lists) } : {}) };
    return this.built;
  }

  get size(): number { return this.feats.length; }
  withDifference(key: string): readonly number[] { return this.index().byDiff.get(key) ?? []; }
  withSide(key: string): readonly number[] { return this.index().bySide.get(key) ?? []; }
  features(id: number) { return this.feats[id] ?? FeatureCorpus.NONE; }
  shape(id: number): string[] { const f = this.feats[id]; return f ? shapeOf(f) : []; }

  shapeOverlap(tokens: readonly string[]): Float32Array {
    const { hashes, offsets, postings } = this.index();
    const q = this.table.codes(tokens, false);
    if (!postings) return overlapAll(q, hashes, offsets, this.feats.length);
    // |A ∩ B| / sqrt(|A| |B|), as overlapAll computes it (each list's codes are distinct)
    const out = new Float32Array(this.feats.length);
    for (const c of q) { const ids = postings.get(c); if (ids) for (const i of ids) out[i]++; }
    if (q.length) for (let i = 0; i < out.length; i++) if (out[i]) out[i] /= Math.sqrt(q.length * (offsets[i + 1] - offsets[i]));
    return out;
  }

  cosines(q: Float32Array): Float32Array | undefined {
    let any = false;
    const out = new Float32Array(this.vecs.length).fill(-2);
    this.vecs.forEach((v, i) => {
      if (!v || v.length !== q.length) return;
      any = true;
      let s = 0;
      for (let j = 0; j < v.length; j++) s += v[j] * q[j];
      out[i] = s;
    });
    return any ? out : undefined;
  }
}

/** Each code's equations, in order. */
function postingsOf(lists: readonly Uint32Array[]): Map<number, Uint32Array> {
  const ids = new Map<number, number[]>();
  lists.forEach((h, i) => { for (const c of h) { const l = ids.get(c); if (l) l.push(i); else ids.set(c, [i]); } });
  return new Map([...ids].map(([c, l]) => [c, Uint32Array.from(l)]));
}

function push(m: Map<string, number[]>, k: string, i: number): void {
  const l = m.get(k);
  if (l) l.push(i); else m.set(k, [i]);
}
