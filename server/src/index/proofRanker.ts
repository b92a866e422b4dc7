// Candidate proofs for a statement: BM25 and encoder cosine, each also read against the proof's
// "hub" score, combined by four weights fitted on statement–proof pairs the encoder never saw.
// Some proofs match every statement a little (long proofs for BM25; for the encoder, proofs
// whose vectors sit near the centre of the statement cloud) and crowd the top of every list.
// A proof's hub score is the mean of its best few scores against a fixed background of
// statements (never its own statement); a score above that says "this statement in particular",
// which is what matching a proof to its statement asks. Hub scores are computed once per pool
// (offline, scripts/src/rankers/hubScores.ts): at index build for the index's proofs, per
// evaluation pool in `npm run eval`.
import * as path from 'node:path';
import { loadFittedModel, readsFeatures } from './softmaxRanker.js';
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

/** What the header says of the proof ranker an index carries: the fitted model and its hub files (indexHubs.ts). */
export type IndexProofRanker = ProofRankerModel & { hubs: { name: string; bytes: number; background: number }; statementHubs?: { name: string; bytes: number } };

/** The model when it reads exactly this code's features, its hub scores taken over as many best matches as this code keeps. */
export function usableProofRanker(m: ProofRankerModel | undefined): ProofRankerModel | undefined {
  return readsFeatures(m, PROOF_FEATURES) && m.hubNeighbours === HUB_NEIGHBOURS ? m : undefined;
}

/** The four feature columns of one query, each z-scored over the pool. */
export function proofFeatureColumns(bm25: ArrayLike<number>, cosine: ArrayLike<number>, hubBm25: ArrayLike<number>, hubCosine: ArrayLike<number>): Float32Array[] {
  const over = (x: ArrayLike<number>, h: ArrayLike<number>) => {
    const out = new Float32Array(x.length);
    for (let j = 0; j < x.length; j++) out[j] = x[j] - h[j];
    return out;
  };
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

export const PROOF_RANKER_FILE = path.join('proof-ranker', 'ranker.json');

/** The fitted proof ranker of a models folder (`npm run train:rankers`), or why there is none. */
export function loadProofRanker(modelsDir: string | undefined): { ranker?: ProofRankerModel; problem?: string } {
  const { model, problem } = loadFittedModel(modelsDir, PROOF_RANKER_FILE, usableProofRanker);
  return model ? { ranker: model } : { problem };
}
