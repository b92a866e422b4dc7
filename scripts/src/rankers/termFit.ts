// Fits the term disambiguation ranker (termRanker.ts in the server) on the MathD2 train split:
// softmax over each term's candidates; with an encoder, the cosine weight too, on the half of the
// train terms the encoder never trained on (splits.ts#isMathD2CosineFit).
import { Bm25Index, type MathTokenizer } from 'mathsense-server/api/embeddings';
import { termTitle, dot, featureRows, rankerChoice, TERM_FEATURES, type TermCosine, type TermRankerModel } from 'mathsense-server/api/index';
import { loadMathD2 } from '../data/mathd2.js';
import { isMathD2CosineFit } from '../data/splits.js';
import { fitSoftmaxRanker } from './softmaxFit.js';

/** L2-normalised vectors of texts, by the encoder whose version a TermCosine records. */
export type Embed = (texts: string[]) => Promise<Float32Array[]>;

/** One training example: the candidates' feature vectors and which one is right. */
export interface RankGroup { x: number[][]; gold: number }

export function rankerAccuracy(w: readonly number[], groups: RankGroup[]): number {
  return groups.length ? groups.filter((q) => rankerChoice(w, q.x) === q.gold).length / groups.length : 0;
}

export interface Disambiguation { term: string; title: string; context: string }

/**
 * Feature groups for a labelled set: each context against every title that shares its term in
 * the set, BM25 over "term: title" strings with `bm25` (ids of the context -> scores per title).
 */
export function rankGroups(rows: Disambiguation[], bm25: TitleScorer): Array<RankGroup & { titles: string[] }> {
  const byTerm = new Map<string, string[]>();
  for (const r of rows) { const ts = byTerm.get(r.term) ?? []; if (!ts.includes(r.title)) ts.push(r.title); byTerm.set(r.term, ts); }
  return rows.map((r) => {
    const titles = byTerm.get(r.term)!;
    const x = featureRows(r.context, titles.map((title) => ({ term: r.term, title })), bm25(r.context, r.term, titles));
    return { titles, gold: titles.indexOf(r.title), x };
  });
}

/** BM25 of a context against "term: title" strings of a fixed title set (IDF over the whole set). */
export type TitleScorer = (context: string, term: string, titles: string[]) => number[];

export function titleBm25(tok: MathTokenizer, pairs: Array<{ term: string; title: string }>): TitleScorer {
  const bm = new Bm25Index();
  const at = new Map<string, number>();
  for (const p of pairs) { const k = `${p.term}\u0000${p.title}`; if (!at.has(k)) at.set(k, bm.add(tok.encode(termTitle(p.term, p.title)))); }
  let last: { context: string; s: Float32Array } | undefined;
  return (context, term, titles) => {
    if (last?.context !== context) last = { context, s: bm.scores(tok.encode(context)) };
    return titles.map((t) => last!.s[at.get(`${term}\u0000${t}`) ?? -1] ?? 0);
  };
}

/** Fits the ranker on the MathD2 train split (never the test splits); with `embed`, its cosine weight too. */
export async function trainTermRanker(dataDir: string, tok: MathTokenizer, encoder?: { embed: Embed; version: string }): Promise<TermRankerModel> {
  const rows = loadMathD2(dataDir, 'train').map((r) => ({ term: r.term, title: r.title, context: r.definition }));
  const groups = rankGroups(rows, titleBm25(tok, rows));
  const weights = fitSoftmaxRanker(groups.map((g) => ({ x: g.x, gold: [g.gold] })), TERM_FEATURES.length);
  const model: TermRankerModel = { features: [...TERM_FEATURES], weights, trainedOn: 'MathD2 train split (ProofWiki, CC BY-SA 3.0)', trainAccuracy: rankerAccuracy(weights, groups), groups: groups.length };
  if (encoder) model.cosine = await fitTermCosine(model, rows.flatMap((r, i) => (isMathD2CosineFit(r.term) ? [{ ...groups[i], ...r }] : [])), encoder);
  return model;
}

/** Scale and cosine weight, fitted on held-out definitions (a two-input softmax ranker over the fitted score and the cosine). */
async function fitTermCosine(model: TermRankerModel, held: Array<RankGroup & { titles: string[]; term: string; context: string }>, encoder: { embed: Embed; version: string }): Promise<TermCosine> {
  const titles = [...new Set(held.flatMap((g) => g.titles.map((t) => termTitle(g.term, t))))];
  const [contexts, titleVecs] = [await encoder.embed(held.map((g) => g.context)), await encoder.embed(titles)];
  const at = new Map(titles.map((t, i) => [t, titleVecs[i]]));
  const two = held.map((g, i) => {
    const cos = g.titles.map((t) => dot(contexts[i], at.get(termTitle(g.term, t))!));
    const best = Math.max(...cos);
    return { x: g.x.map((x, k) => [dot(model.weights, x), cos[k] - best]), gold: g.gold };
  });
  const [scale, weight] = fitSoftmaxRanker(two.map((g) => ({ x: g.x, gold: [g.gold] })), 2);
  return { encoder: encoder.version, scale, weight, groups: held.length, accuracy: rankerAccuracy([scale, weight], two), accuracyWithout: rankerAccuracy([1, 0], two) };
}
