// Hub scores of a pool (proofRanker.ts in the server): each candidate's mean of its best few
// scores against a fixed background of statements, streamed.
import { HUB_NEIGHBOURS } from 'mathsense-server/api/index';

/**
 * Streams background statements' scores against a pool of proofs and keeps, per proof, its
 * `k` best (a min-ordered array each): memory k per proof, not background × pool.
 */
export class HubScores {
  private readonly best: Float32Array;
  private readonly filled: Uint16Array;

  constructor(readonly size: number, readonly k = HUB_NEIGHBOURS) {
    this.best = new Float32Array(size * k);
    this.filled = new Uint16Array(size);
  }

  /** One background statement's scores against every proof; proofs for which `skip` holds (its own) ignore it. */
  add(scores: ArrayLike<number>, skip?: (proof: number) => boolean): void {
    const k = this.k, best = this.best;
    for (let j = 0; j < this.size; j++) {
      const s = scores[j];
      if (this.filled[j] === k && s <= best[j * k]) continue;
      if (skip?.(j)) continue;
      this.insert(j, s);
    }
  }

  /** The kept scores, to be merged into another instance (a worker's share of the background). */
  state(): { best: Float32Array; filled: Uint16Array } {
    return { best: this.best, filled: this.filled };
  }

  /** Adds the scores another instance kept: the result is what one instance streaming both backgrounds keeps. */
  merge(other: { best: Float32Array; filled: Uint16Array }): void {
    const k = this.k;
    for (let j = 0; j < this.size; j++) {
      for (let t = 0; t < other.filled[j]; t++) {
        const s = other.best[j * k + t];
        if (this.filled[j] === k && s <= this.best[j * k]) continue;
        this.insert(j, s);
      }
    }
  }

  /** Insertion into proof j's ascending run best[o .. o+n), dropping its lowest when full. */
  private insert(j: number, s: number): void {
    const k = this.k, best = this.best, o = j * k, n = this.filled[j];
    let i: number;
    if (n < k) { i = n; this.filled[j] = n + 1; } else { i = k - 1; for (let t = 0; t < k - 1; t++) best[o + t] = best[o + t + 1]; }
    while (i > 0 && best[o + i - 1] > s) { best[o + i] = best[o + i - 1]; i--; }
    best[o + i] = s;
  }

  /** Mean of each proof's kept scores (0 for a proof no background statement reached). */
  means(): Float32Array {
    const out = new Float32Array(this.size);
    for (let j = 0; j < this.size; j++) {
      let s = 0;
      for (let t = 0; t < this.filled[j]; t++) s += this.best[j * this.k + t];
      out[j] = this.filled[j] ? s / this.filled[j] : 0;
    }
    return out;
  }
}

