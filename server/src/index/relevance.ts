// Whether an index suggestion fits its query at all. Ranking scores only order one query's
// candidates: a fused score of 3 means "best of these", whether the best is the statement's own
// proof or a page that shares two words with a research lemma. This model turns signals that
// keep their meaning from one query to the next (the encoder's raw cosine, BM25 per query token,
// the gap to the next candidate, the length of the query, …) into a probability that the
// suggestion is relevant: a logistic model per task, fitted and then calibrated (Platt) on held-out
// queries offline (scripts/src/rankers/relevanceFit.ts, `npm run train:relevance`), half of them
// with their own answer taken out of the index, where nothing fits. An index suggestion is shown
// only at or above the task's threshold, chosen there for precision; when none passes, the index
// says nothing and the author's own project still shows.
import * as path from 'node:path';
import type { Hit, Query } from './store.js';
import { finiteNumbers, loadFittedModel, namesFeatures } from './softmaxRanker.js';

/** Feature names, in row order (relevanceRows). */
export const RELEVANCE_FEATURES = ['cosine', 'cosineOverList', 'logBm25', 'bm25PerToken', 'score', 'gapBelow', 'belowTop', 'logRank', 'logQueryTokens'] as const;

/**
 * The suggestions the model judges: the index's candidate proofs and results to cite, and the
 * author's library's statements (a library's lists are short and its BM25 reads another
 * corpus's statistics, so its signals mean other things than the index's).
 */
export const RELEVANCE_TASKS = ['proof', 'cite', 'library'] as const;
export type RelevanceTask = (typeof RELEVANCE_TASKS)[number];

/** A logistic model: P = sigmoid(a · (w·x + b) + c), the inner part fitted, (a, c) the calibration. */
export interface Logistic { weights: number[]; bias: number; platt: { a: number; c: number } }

export interface RelevanceTaskModel {
  /** With the query's encoder vector, and without (the lexical fallback before a vector arrives). */
  semantic: Logistic;
  lexical: Logistic;
  /** Shown at or above this probability (with the query's vector; `lexicalThreshold` without). */
  threshold: number;
  lexicalThreshold: number;
  /** Held-out reliability: per probability bin, how many suggestions, their mean probability and the share relevant. */
  reliability: Array<{ bin: string; n: number; predicted: number; observed: number }>;
}

export interface RelevanceModel {
  features: string[];
  /** The encoder whose cosines it read (a model fitted for another encoder is refused). */
  encoder: string;
  tasks: Record<RelevanceTask, RelevanceTaskModel>;
  trainedOn: string;
}

export const RELEVANCE_FILE = path.join('relevance', 'relevance.json');

const usableLogistic = (l: Logistic | undefined): boolean => !!l && finiteNumbers(l.weights, RELEVANCE_FEATURES.length) && Number.isFinite(l.bias) && !!l.platt && Number.isFinite(l.platt.a) && Number.isFinite(l.platt.c);

/** The model when it reads exactly this code's features with finite numbers for both tasks. */
export function usableRelevance(m: RelevanceModel | undefined): RelevanceModel | undefined {
  if (!namesFeatures(m, RELEVANCE_FEATURES) || !m!.tasks) return undefined;
  for (const t of RELEVANCE_TASKS) {
    const tm = m!.tasks[t];
    if (!tm || !usableLogistic(tm.semantic) || !usableLogistic(tm.lexical) || !Number.isFinite(tm.threshold) || !Number.isFinite(tm.lexicalThreshold)) return undefined;
  }
  return m;
}

/** The fitted relevance model of a models folder, or why there is none. */
export function loadRelevance(modelsDir: string | undefined, encoder: string): { model?: RelevanceModel; problem?: string } {
  const { model, problem } = loadFittedModel(modelsDir, RELEVANCE_FILE, usableRelevance);
  if (!model) return { problem };
  if (model.encoder !== encoder) return { problem: `${RELEVANCE_FILE} was fitted for encoder ${model.encoder}, the index's is ${encoder} (run \`npm run train:relevance\`)` };
  return { model };
}

/**
 * Feature rows of a query's ranked list (best first, as shown): each hit against the list
 * around it and the query's length. `semantic`: the hits carry the encoder's cosine.
 */
export function relevanceRows(hits: readonly Hit[], queryTokens: number, semantic: boolean): number[][] {
  const cosines = hits.map((h) => (semantic ? h.cosine ?? 0 : 0));
  const meanCos = cosines.length ? cosines.reduce((a, b) => a + b, 0) / cosines.length : 0;
  const tokens = Math.max(1, queryTokens);
  const top = hits[0]?.score ?? 0;
  return hits.map((h, i) => {
    const below = hits[i + 1]?.score ?? h.score;
    return [cosines[i], cosines[i] - meanCos, Math.log1p(Math.max(0, h.bm25)), Math.max(0, h.bm25) / tokens, h.score, h.score - below, top - h.score, Math.log1p(i), Math.log(tokens)];
  });
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The calibrated probability of one row under one logistic model. */
export function logisticProbability(l: Logistic, row: readonly number[]): number {
  let z = l.bias;
  for (let i = 0; i < row.length; i++) z += l.weights[i] * row[i];
  return sigmoid(l.platt.a * z + l.platt.c);
}

/** Each hit's probability of being relevant, in the list's order. */
export function relevanceOf(model: RelevanceModel, task: RelevanceTask, hits: readonly Hit[], queryTokens: number, semantic: boolean): number[] {
  const tm = model.tasks[task];
  const l = semantic ? tm.semantic : tm.lexical;
  return relevanceRows(hits, queryTokens, semantic).map((r) => logisticProbability(l, r));
}

/**
 * `hits` (one query's list, best first) with each one's probability of being relevant
 * (`relevance`) and whether it passes the task's threshold (`fits`); without a model, as they
 * are (every hit shown).
 */
export function withRelevance<T extends Hit>(model: RelevanceModel | undefined, task: RelevanceTask, hits: T[], q: Query): Array<T & { relevance?: number; fits?: boolean }> {
  if (!model || hits.length === 0) return hits;
  // the encoder's mode only when the hits carry its cosine (a query vector against an index
  // without vectors, or of another encoder, is scored by BM25 alone)
  const semantic = !!q.vec && hits.some((h) => h.cosine !== undefined);
  const ps = relevanceOf(model, task, hits, q.ids.length, semantic);
  const threshold = semantic ? model.tasks[task].threshold : model.tasks[task].lexicalThreshold;
  return hits.map((h, i) => ({ ...h, relevance: ps[i], fits: ps[i] >= threshold }));
}
