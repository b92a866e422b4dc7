// Term disambiguation ranker: which of the titles sharing an ambiguous term ("Definition:Power
// of Element/Monoid", "Definition:Power (Algebra)", …) a context means. A definition names its
// sense in set ways: the title's phrase ("a simple graph is"), the qualifier's field
// ("topological space" for "(Topology)"), the sub-page's structure ("Let (S, ∘) be a monoid"),
// mostly in its first sentences, and above all in the phrase it defines ("x is called a right
// inverse", "an algebraic closure of K is"). Each of these is one feature; a linear model over
// them is fitted offline on the MathD2 train split (softmax over each term's candidates,
// scripts/src/rankers/termFit.ts), so nothing is tuned on the test splits. Candidates are scored by their
// titles only, never by their own text. With an encoder, the cosine of the context with each
// "term: title" vector joins the score; its weight is fitted on the half of the train terms the
// encoder never trained on (splits.ts#isMathD2CosineFit), where the cosine is as reliable as on
// unseen text (on pairs it was trained on, the encoder is right 77% of the time, elsewhere ~60%).
import { dot, readsFeatures } from './softmaxRanker.js';

/** Feature names, in vector order (stored with the weights so a stale model is detected). */
export const TERM_FEATURES = [
  'bm25', 'extraWords', 'extraWordsEarly', 'noExtraWords', 'titleBigrams', 'titlePhrase',
  'qualifier', 'qualifierEarly', 'noQualifier', 'subPage', 'subPageEarly', 'noSubPage', 'titleLength',
  'extraFirstAt', 'subPageFirstAt', 'qualifierFirstAt', 'extraAllBy', 'subPageAllBy',
  'definedCover', 'definedPrecision', 'nothingDefined',
] as const;

export interface TermRankerModel {
  features: string[];
  weights: number[];
  /** What it was fitted on, and its accuracy there. */
  trainedOn: string;
  trainAccuracy: number;
  groups: number;
  /** score = scale · (weights · features) + weight · (cosine − the best candidate's cosine), with `encoder`'s vectors. */
  cosine?: TermCosine;
}

export interface TermCosine {
  encoder: string;
  scale: number;
  weight: number;
  /** The held-out train definitions it was fitted on, and the ranker's accuracy on them with and without the cosine. */
  groups: number;
  accuracy: number;
  accuracyWithout: number;
}

/**
 * The ranker's score of each candidate (rows: featureRows); `cos`, the context's cosine with each
 * candidate's "term: title" vector, counts when the model has a cosine weight for that encoder.
 */
export function termScores(model: TermRankerModel, rows: number[][], cos?: readonly number[], encoder?: string): number[] {
  const s = rows.map((x) => dot(model.weights, x));
  const c = model.cosine;
  if (!c || !cos || encoder !== c.encoder) return s;
  const best = Math.max(...cos);
  return s.map((v, i) => c.scale * v + c.weight * (cos[i] - best));
}

/** The model when it reads exactly this code's features (an index built before a feature change carries a stale one). */
export function usableTermRanker(m: TermRankerModel | undefined): TermRankerModel | undefined {
  return readsFeatures(m, TERM_FEATURES) ? m : undefined;
}

const STOP = new Set(['of', 'the', 'a', 'an', 'in', 'on', 'and', 'or', 'for', 'to', 'with', 'by', 'as', 'is', 'at', 'from', 'under', 'over']);
// A six-letter prefix is a crude stem that is good enough here: topolo(gy|gical), monoid(s).
const stem = (w: string) => w.slice(0, 6);
const words = (t: string) => t.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w && !STOP.has(w)).map(stem);

interface TitleParts { main: string[]; qualifier: string[]; sub: string[] }

/** "Definition:Power of Element/Monoid" -> main "power element", sub "monoid"; "(Topology)" -> qualifier. */
export function titleParts(title: string): TitleParts {
  const t = title.replace(/^Definition:/, '');
  const [head, ...rest] = t.split('/');
  const noParen = (s: string) => s.replace(/\([^)]*\)/g, ' ');
  return {
    main: words(noParen(head)),
    qualifier: words([...t.matchAll(/\(([^)]*)\)/g)].map((m) => m[1]).join(' ')),
    sub: words(noParen(rest.join(' '))),
  };
}

/** What the features read of a context, computed once per context. */
export interface ContextWords { all: Set<string>; early: Set<string>; bigrams: Set<string>; joined: string; firstAt: Map<string, number>; defined: Set<string> }

export function contextWords(text: string): ContextWords {
  const all = words(text);
  const firstAt = new Map<string, number>();
  all.forEach((w, i) => { if (!firstAt.has(w)) firstAt.set(w, i); });
  return {
    all: new Set(all), early: new Set(words(text.slice(0, 300))), firstAt,
    bigrams: new Set(all.slice(1).map((w, i) => `${all[i]} ${w}`)), joined: ` ${all.join(' ')} `,
    defined: definedWords(text),
  };
}

// The phrases a text defines, by the set forms of English definitions (lower case, math and
// symbols dropped): "is called / known as / said to be … a P", "is a P if (and only if)",
// and a sentence that opens "A P is" / "The P of … is". Up to the last six words of each P.
const PHRASE = '([a-z][a-z0-9\\- ]{0,60}?)';
const DEFINING = [
  new RegExp(`\\b(?:is|are) (?:then )?(?:called|known as|said to be|referred to as|described as|termed|defined as|defined to be)\\s+(?:an? |the )?${PHRASE}(?=[.,:;(]|\\s+(?:if|of|iff|with|on|in|and|when|by)\\b|$)`, 'g'),
  new RegExp(`\\b(?:is|are) (?!(?:then )?(?:called|known|said|referred|described|termed|defined)\\b)(?:an? |the )?${PHRASE}\\s+(?:if and only if|iff|if|when|precisely when)\\b`, 'g'),
  new RegExp(`(?:^|[.:]\\s|=== )(?:an? |the )${PHRASE}\\s+(?:is|are)\\b`, 'g'),
];

/** Words of the phrases the text defines (DEFINING), stemmed like every other feature word. */
export function definedWords(text: string): Set<string> {
  const t = text.slice(0, 20_000).toLowerCase().replace(/[^a-z0-9 .,:;=()-]+/g, ' ').replace(/\s+/g, ' ');
  const defined = new Set<string>();
  for (const re of DEFINING) for (const m of t.matchAll(re)) for (const w of words(m[1]).slice(-6)) defined.add(w);
  return defined;
}

/** The feature vector of one candidate title; `bm25` is its BM25 divided by the best candidate's. */
export function termFeatures(ctx: ContextWords, term: string, title: string, bm25: number): number[] {
  const p = titleParts(title);
  const termWords = new Set(words(term));
  const extra = p.main.filter((w) => !termWords.has(w));
  const cover = (ws: string[], s: Set<string>) => (ws.length ? ws.filter((w) => s.has(w)).length / ws.length : 0);
  const bigrams = p.main.slice(1).map((w, i) => `${p.main[i]} ${w}`);
  // how soon the words are mentioned: 1 at the first word, 1/2 twenty words in, 0 when absent
  const soon = (i: number) => 1 / (1 + i / 20);
  const firstOf = (ws: string[]) => { let best = Infinity; for (const w of ws) best = Math.min(best, ctx.firstAt.get(w) ?? Infinity); return best === Infinity ? 0 : soon(best); };
  const allBy = (ws: string[]) => { if (!ws.length) return 0; let last = 0; for (const w of ws) { const i = ctx.firstAt.get(w); if (i === undefined) return 0; last = Math.max(last, i); } return soon(last); };
  // the title's own words (not the term's) against the defined phrases, both ways
  const own = [...new Set([...p.main, ...p.sub])].filter((w) => !termWords.has(w));
  const titleWords = new Set([...p.main, ...p.sub, ...p.qualifier]);
  const definedOwn = [...ctx.defined].filter((w) => !termWords.has(w));
  return [
    bm25,
    cover(extra, ctx.all), cover(extra, ctx.early), extra.length ? 0 : 1,
    bigrams.length ? bigrams.filter((b) => ctx.bigrams.has(b)).length / bigrams.length : 0,
    p.main.length > 1 && ctx.joined.includes(` ${p.main.join(' ')} `) ? 1 : 0,
    cover(p.qualifier, ctx.all), cover(p.qualifier, ctx.early), p.qualifier.length ? 0 : 1,
    cover(p.sub, ctx.all), cover(p.sub, ctx.early), p.sub.length ? 0 : 1,
    Math.log1p(p.main.length + p.sub.length),
    firstOf(extra), firstOf(p.sub), firstOf(p.qualifier), allBy(extra), allBy(p.sub),
    cover(own, ctx.defined), cover(definedOwn, titleWords), own.length && ctx.defined.size ? 0 : 1,
  ];
}

/** The index of the highest score (the first of equals). */
function bestOf(s: readonly number[]): number {
  let best = 0;
  s.forEach((v, k) => { if (v > s[best]) best = k; });
  return best;
}

/** The candidate the ranker puts first (the first of equals). */
export function rankerChoice(w: readonly number[], x: number[][]): number {
  return bestOf(x.map((v) => dot(w, v)));
}

/** The candidate the model puts first, with the cosine when termScores uses it. */
export function termChoice(model: TermRankerModel, rows: number[][], cos?: readonly number[], encoder?: string): number {
  return bestOf(termScores(model, rows, cos, encoder));
}

/** Feature rows of candidate titles read in one context; `bm25` is each title's raw BM25. */
export function featureRows(context: string, candidates: Array<{ term: string; title: string }>, bm25: readonly number[]): number[][] {
  const top = Math.max(...bm25, 0) || 1;
  const ctx = contextWords(context);
  return candidates.map((c, i) => termFeatures(ctx, c.term, c.title, bm25[i] / top));
}
