// Results-to-cite ranker: a small model over a few signals of whether a candidate result is
// one a statement's proof uses. The text model reads the direct match (BM25 + encoder, as
// z-scores), the votes of similar citing statements (citationVotes.ts), how often the
// candidate is cited at all (a much-cited lemma is a better guess than an obscure one), the
// statement against the texts of the candidate's citers (citerProfiles.ts), and
// the result's name (resultNames.ts: label words and title) against the statement's name and
// text, and whether the statement itself \ref's it. The position model adds where the
// candidate sits: authors cite results of the same file, written shortly before (half of the
// Stacks project's \ref's point into the same chapter, median 8 results back). The shared
// signals and the position model go through a one-hidden-layer network (mlpRanker.ts: the
// signals interact); the name signals are added linearly on top of the shared score, so that a
// source without names ranks exactly as the shared network says. The models are fitted offline by
// `npm run train:rankers` (softmax over each query's candidates, every gold reference a
// target) on train splits only and shipped as models/reference-ranker/ranker.json; the index
// build copies them into the index header.
import * as path from 'node:path';
import { dot, finiteNumbers, loadFittedModel, namesFeatures } from './softmaxRanker.js';
import { mlpScore, readsMlp, type MlpModel } from './mlpRanker.js';

// The votes are divided by their Euclidean norm (citationVotes.ts#unitVotes), not z-scored: for
// sparse votes a z-score is that times about sqrt(pool size) (30 or more among Stacks' 16,860
// results, about 2 among a paper's ten lemmas), and the models rank pools of every size.
/** The text signals every source has, then those only sources that name their results have. */
export const SHARED_FEATURES = ['direct match z', 'neighbour votes / norm', 'log(1 + times cited)', 'citer profile z', 'citer centroid cosine'] as const;
export const NAME_FEATURES = ['name match z', 'statement words in the name z', 'referred to in the statement', 'votes of the neighbours by name / norm'] as const;
export const TEXT_FEATURES = [...SHARED_FEATURES, ...NAME_FEATURES] as const;
export const POSITION_FEATURES = [...TEXT_FEATURES, 'same file', 'earlier in the same file', 'log(1 + results in between)'] as const;

export interface LinearModel { features: string[]; weights: number[] }

/** The text model: the shared network's score plus a weight per name feature (TEXT_FEATURES). */
export interface TextModel { features: string[]; shared: MlpModel; names: number[] }

export interface ReferenceRankers {
  /** For any pool of candidate results (ProofWiki, PS-ProofWiki, Stacks without positions). */
  text: TextModel;
  /** For results of one project (workspace labels): adds the file and order of each result. */
  position: MlpModel;
  trainedOn: string;
  licence: string;
  /** Development-split figures printed by the trainer (never a test split). */
  dev: Record<string, number>;
}

/** Where a result sits in a project: its file and its rank among the file's labelled results. */
export interface ResultPosition { file: string; order: number }

/** The position features of candidate `c` for a statement at `q` (zeros when either is unknown). */
export function positionFeatures(q: ResultPosition | undefined, c: ResultPosition | undefined): [number, number, number] {
  if (!q || !c || q.file !== c.file) return [0, 0, 0];
  return c.order < q.order ? [1, 1, Math.log1p(q.order - c.order - 1)] : [1, 0, 0];
}

/** A candidate's text signals; the name signals are 0 where names are unknown (z-scores of nothing). */
export interface TextSignals {
  direct: number; votes: number; cited: number;
  /** z-scored BM25 of the statement against the texts of the candidate's citers, and its cosine with their mean vector (citerProfiles.ts); 0 when unknown. */
  profile?: number; centroid?: number;
  /** z-scored BM25 of the statement's name against the candidate's name, and of its text against that name. */
  name?: number; textInName?: number;
  /** The statement \ref's the candidate. */
  referred?: boolean;
  /** Votes (over their norm) of the citing results whose names are nearest the statement's name. */
  nameVotes?: number;
}

/** One candidate's feature row: text signals (TEXT_FEATURES order), then position. */
export function referenceRow(t: TextSignals, pos?: [number, number, number]): number[] {
  const row = [t.direct, t.votes, Math.log1p(Math.max(t.cited, 0)), t.profile ?? 0, t.centroid ?? 0, t.name ?? 0, t.textInName ?? 0, t.referred ? 1 : 0, t.nameVotes ?? 0];
  return pos ? [...row, ...pos] : row;
}

/** Score of a row under a model; a row shorter than the model reads as zeros. */
export function referenceScore(m: TextModel | MlpModel | LinearModel, row: readonly number[]): number {
  if ('weights' in m) return dot(m.weights.slice(0, row.length), row);
  if (!('names' in m)) return mlpScore(m, row);
  // the shared network reads the first SHARED_FEATURES.length entries, the names the next ones
  let s = mlpScore(m.shared, row);
  for (let i = 0, k = SHARED_FEATURES.length; i < m.names.length && k + i < row.length; i++) s += m.names[i] * row[k + i];
  return s;
}

/** The text model with its name weights zeroed: the shared signals alone. */
export function withoutNames(m: TextModel): TextModel {
  return { ...m, names: m.names.map(() => 0) };
}

/** The rankers file, or undefined with the reason (then callers keep the parameter-free fusion). */
export function loadReferenceRankers(modelsDir: string | undefined): { rankers?: ReferenceRankers; problem?: string } {
  const { model, problem } = loadFittedModel(modelsDir, RANKERS_FILE, usableRankers);
  return model ? { rankers: model } : { problem };
}

/** The rankers an index header carries, if they match this version's features. */
export function usableRankers(r: ReferenceRankers | undefined): ReferenceRankers | undefined {
  const t = r?.text;
  const textOk = namesFeatures(t, TEXT_FEATURES) && readsMlp(t.shared, SHARED_FEATURES) && finiteNumbers(t.names, NAME_FEATURES.length);
  return r && textOk && readsMlp(r.position, POSITION_FEATURES) ? r : undefined;
}

export const RANKERS_FILE = path.join('reference-ranker', 'ranker.json');
