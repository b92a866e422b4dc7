// The signals of results to cite (referenceRanker.ts#TextSignals) for a pool of candidates,
// assembled here once for the index (retrieval.ts), the workspace (features/index/refRanking.ts) and
// the offline fit and evaluation (scripts/src/eval/referenceTasks.ts), so that the rankers are
// fitted on the signals they are applied to.
import { unitVotes, votesFromSimilarity } from './citationVotes.js';
import type { TextSignals } from './referenceRanker.js';
import { zScores } from '../util/zScores.js';

/** What each candidate cites (undefined: it cites nothing, or it may not vote). */
export type CitesOf = (i: number) => readonly number[] | undefined;

/** The signals of every candidate of a pool, one column each (absent: unknown, read as zeros). */
export interface SignalColumns {
  direct: ArrayLike<number>;
  votes: ArrayLike<number>;
  profile?: ArrayLike<number>;
  centroid?: ArrayLike<number>;
  name?: ArrayLike<number>;
  textInName?: ArrayLike<number>;
  nameVotes?: ArrayLike<number>;
}

/**
 * The name signals of `n` candidates: `byName`, the BM25 of the statement's name against each
 * candidate's name (undefined without a name), z-scored; `textInName`, the BM25 of its text
 * against them, z-scored; and the votes of the candidates nearest by name for what they cite.
 */
export function nameSignals(byName: Float32Array | undefined, textInName: Float32Array, citesOf: CitesOf, n: number): { name: Float32Array; textInName: Float32Array; nameVotes: Float32Array } {
  return {
    name: byName ? zScores(byName) : new Float32Array(n),
    textInName: zScores(textInName),
    nameVotes: byName ? unitVotes(votesFromSimilarity(byName, citesOf, n)) : new Float32Array(n),
  };
}

/** Candidate `i`'s signals, with how often it is cited and whether the statement \ref's it. */
export function textSignals(c: SignalColumns, i: number, cited: number, referred?: boolean): TextSignals {
  return { direct: c.direct[i], votes: c.votes[i], cited, profile: c.profile?.[i], centroid: c.centroid?.[i], name: c.name?.[i], textInName: c.textInName?.[i], referred, nameVotes: c.nameVotes?.[i] };
}
