// Candidate proofs for a statement: BM25 and encoder cosine, each also read against the proof's
// "hub" score, combined by four weights fitted on statement–proof pairs the encoder never saw.
// Some proofs match every statement a little (long proofs for BM25; for the encoder, proofs
// whose vectors sit near the centre of the statement cloud) and crowd the top of every list.
// A proof's hub score is the mean of its best few scores against a fixed background of
// statements (never its own statement); a score above that says "this statement in particular",
// which is what matching a proof to its statement asks. Hub scores are computed once per pool:
// at index build for the index's proofs, per evaluation pool in `npm run eval`.
import * as path from 'node:path';
import { loadFittedModel, readsFeatures, type SoftmaxGroup } from './softmaxRanker.js';
import { zScores } from '../util/zScores.js';

/** Feature names, in vector order: each per-query z-scored over the candidate proofs. */
export const PROOF_FEATURES = ['bm25', 'cosine', 'bm25OverHub', 'cosineOverHub'] as const;

/** How many of a proof's best background scores make its hub score, and how many background statements. */
export const HUB_NEIGHBOURS = 10;
export const HUB_BACKGROUND = 2000;

export interface ProofRankerModel {
  features: string[];
  weights: number[];
  hubNeighbours: number;
  background: number;
  /** What it was fitted on, and the dev figures (MRR, %) against the parameter-free fusion. */
  trainedOn: string;
  dev: Record<string, number>;
}

/** The model when it reads exactly this code's features, its hub scores taken over as many best matches as this code keeps. */
export function usableProofRanker(m: ProofRankerModel | undefined): ProofRankerModel | undefined {
  return readsFeatures(m, PROOF_FEATURES) && m.hubNeighbours === HUB_NEIGHBOURS ? m : undefined;
}

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
      const o = j * k, n = this.filled[j];
      if (n === k && s <= best[o]) continue;
      if (skip?.(j)) continue;
      // insertion into the ascending run best[o .. o+n)
      let i: number;
      if (n < k) { i = n; this.filled[j] = n + 1; } else { i = k - 1; for (let t = 0; t < k - 1; t++) best[o + t] = best[o + t + 1]; }
      while (i > 0 && best[o + i - 1] > s) { best[o + i] = best[o + i - 1]; i--; }
      best[o + i] = s;
    }
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

/** The four feature columns of one query, each z-scored over the pool. */
export function proofFeatureColumns(bm25: ArrayLike<number>, cosine: ArrayLike<number>, hubBm25: ArrayLike<number>, hubCosine: ArrayLike<number>): Float32Array[] {
  const over = (x: ArrayLike<number>, h: ArrayLike<number>) => Float32Array.from(x, (v, j) => v - h[j]);
  return [bm25, cosine, over(bm25, hubBm25), over(cosine, hubCosine)].map((c) => zScores(c));
}

/** The ranker's score of every proof in the pool for one query. */
export function proofScores(weights: readonly number[], cols: Float32Array[]): Float32Array {
  const out = new Float32Array(cols[0].length);
  cols.forEach((c, f) => { const w = weights[f]; for (let j = 0; j < out.length; j++) out[j] += w * c[j]; });
  return out;
}

/** Hub scores of a pool: BM25 and cosine, one per candidate. */
export interface Hubs<T extends ArrayLike<number> = ArrayLike<number>> { bm: T; cos: T }

/** The ranker's score of every candidate in a pool for one query, from its BM25 and cosine and the pool's hub scores. */
export function rankWithHubs(weights: readonly number[], bm25: ArrayLike<number>, cosine: ArrayLike<number>, hubs: Hubs): Float32Array {
  return proofScores(weights, proofFeatureColumns(bm25, cosine, hubs.bm, hubs.cos));
}

/** A fitting example: the gold proof and the query's best `negatives` others by the parameter-free fusion. */
export function proofGroup(cols: Float32Array[], gold: number, negatives = 60): SoftmaxGroup {
  const fused = Array.from(cols[0], (v, j) => ({ j, s: v + cols[1][j] })).filter((x) => x.j !== gold).sort((a, b) => b.s - a.s || a.j - b.j).slice(0, negatives);
  const row = (j: number) => cols.map((c) => c[j]);
  return { x: [row(gold), ...fused.map((x) => row(x.j))], gold: [0] };
}

export const PROOF_RANKER_FILE = path.join('proof-ranker', 'ranker.json');

/** The fitted proof ranker of a models folder (`npm run train:rankers`), or why there is none. */
export function loadProofRanker(modelsDir: string | undefined): { ranker?: ProofRankerModel; problem?: string } {
  const { model, problem } = loadFittedModel(modelsDir, PROOF_RANKER_FILE, usableProofRanker);
  return model ? { ranker: model } : { problem };
}
