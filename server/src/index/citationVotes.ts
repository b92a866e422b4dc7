// Results to cite, by neighbours: a statement tends to need what similar statements needed.
// The query's nearest statements whose references are known (PS-ProofWiki train premises,
// references recovered from ProofWiki proofs, Stacks \ref's) vote for what they cite, each
// vote weighted by its neighbour's similarity relative to the nearest one, raised to a power
// so the closest neighbours dominate. The votes are then added to the direct text match as
// z-scores. K = 5 and power 3 were chosen on PS-ProofWiki dev, never on a test split.
import { topK } from '../util/topK.js';
import { zScores } from '../util/zScores.js';

export const VOTE_NEIGHBOURS = 5;
export const VOTE_POWER = 3;

/**
 * Votes per candidate. `neighbours` are the citing statements' similarities to the query, best
 * first (only the first `k` are read); `cites(j)` the candidate ids the j-th one references.
 */
export function neighbourVotes(neighbours: Array<{ score: number; cites: readonly number[] }>, candidates: number, k = VOTE_NEIGHBOURS, power = VOTE_POWER): Float32Array {
  const votes = new Float32Array(candidates);
  const top = neighbours[0]?.score ?? 0;
  if (top <= 0) return votes;
  for (const n of neighbours.slice(0, k)) {
    const w = (Math.max(n.score, 0) / top) ** power;
    for (const c of n.cites) if (c >= 0 && c < candidates) votes[c] += w;
  }
  return votes;
}

/**
 * Votes divided by their Euclidean norm (zeros stay zeros): the rankers' feature. Among many
 * candidates this is the z-score over sqrt(pool size), so it reads the same in a pool of ten
 * workspace lemmas as in one of 18k indexed statements.
 */
export function unitVotes(votes: Float32Array): Float32Array {
  let s = 0;
  for (const v of votes) s += v * v;
  const out = new Float32Array(votes.length);
  if (s > 0) { const n = Math.sqrt(s); for (let i = 0; i < votes.length; i++) out[i] = votes[i] / n; }
  return out;
}

/** Direct match plus votes, each standardised over the candidates. */
export function withVotes(direct: ArrayLike<number>, votes: Float32Array, weight = 1): Float32Array {
  const d = zScores(direct);
  if (!votes.some((v) => v > 0)) return d;
  const z = zScores(votes);
  for (let i = 0; i < d.length; i++) d[i] += weight * z[i];
  return d;
}

/**
 * Votes from a similarity scan: the nearest of `similarity` (over the citing statements) whose
 * `citesOf` is non-empty, up to K of them among the first `scan`; similarities are shifted by
 * their minimum, so that z-scored fusions (negative values) weigh like raw ones.
 */
export function votesFromSimilarity(similarity: Float32Array, citesOf: (i: number) => readonly number[] | undefined, candidates: number, scan = 40): Float32Array {
  let min = Infinity;
  for (let i = 0; i < similarity.length; i++) if (similarity[i] < min) min = similarity[i];
  const neighbours: Array<{ score: number; cites: readonly number[] }> = [];
  for (const i of topK(similarity, scan)) {
    const cites = citesOf(i);
    if (cites?.length) neighbours.push({ score: similarity[i] - min, cites });
    if (neighbours.length === VOTE_NEIGHBOURS) break;
  }
  return neighbourVotes(neighbours, candidates);
}
