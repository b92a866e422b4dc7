// The term under the cursor, for the term hover: only in prose (structure/textPlace.ts), only a whole
// noun phrase. A term marked as one (`\emph{…}`, `\textbf{…}`, `\defn{…}`) is its argument. An
// unmarked word is a term only where it is the whole phrase: "space" in "a measure space" is
// the phrase "measure space", so only readings that name it are possible ("Measure Space"), or
// none; "field" in "an ordered field" likewise. A phrase is known from the index's titles
// (termPhrases.ts); a neighbour that makes none ("the graph looks", "a field $F$") is a
// boundary. Everyday idioms ("in terms of", "in other words") and everyday words used alone
// ("above", "left") are no terms.
import type { Doc } from '../../project/workspace.js';
import { textPlaceAt } from '../structure/textPlace.js';

export interface TermLookup {
  /** Whether the index lists this phrase as an ambiguous term. */
  isTerm(t: string): boolean;
  /** Whether adjacent words `a b` make a phrase the index knows. */
  isPhrase(a: string, b: string): boolean;
  /** The titles of the term's readings. */
  titles(t: string): readonly string[];
}

export interface TermHit {
  term: string;
  start: number;
  end: number;
  /** Marked as a term by the author (`\emph{…}`-like). */
  marked: boolean;
  /** Words around it that make one phrase with it: a reading must name them all. */
  phrase: string[];
  /** The phrase's span (the term's when `phrase` is empty). */
  phraseStart: number;
  phraseEnd: number;
}

const TERM_CMD = /\\(?:emph|textbf|textit|defn|define|term|index)\s*\{([^{}]{1,80})\}/g;

/** How far around the cursor words are read. */
const REACH = 200;

/**
 * Terms of the index that are, unmarked and alone, nearly always plain English in a paper
 * ("Lemma 3 above", "the left side", "like"): hovering them should not offer definitions.
 * Marked (`\emph{left}`) or within a longer term they are still looked up.
 */
const PROSE_WORDS = new Set(['above', 'below', 'left', 'right', 'like', 'top', 'bottom', 'side', 'foot', 'table', 'age', 'bar', 'machine', 'small', 'couple', 'word', 'state', 'common', 'content', 'consequence', 'alternative', 'auxiliary', 'family', 'one-to-one', 'term', 'sense', 'case', 'order', 'section', 'note', 'example', 'exercise', 'problem', 'result', 'statement', 'step', 'way', 'part', 'point', 'end', 'start', 'time', 'form', 'formula', 'expression', 'rule', 'value', 'number', 'notation', 'symbol', 'name', 'question', 'answer', 'figure', 'picture', 'diagram', 'argument', 'proof', 'method', 'reason', 'structure', 'pair', 'class', 'similar', 'difference', 'universe', 'object', 'version', 'level', 'degree of freedom']);

/** Everyday phrases holding a word the index lists as a term. */
const IDIOMS = /\b(?:in terms of|in other words|in a word|in order (?:to|that)|in (?:the|this|that|a|some|any) sense|in (?:this|that|any|either|each|which|the (?:first|second|latter|former|general|special)) cases?|in general|in particular|in fact|on the other hand|as a whole|up to (?:now|here|this point)|at (?:this|that|which) point|the point is|point of view|to this end|in the end|at the end|by the way|first of all|for the sake|a (?:great|good) deal|bear in mind|make sense|makes sense|in short|in turn|in practice|in principle|in theory|take place|takes place|the same way|in the same way|on (?:the )?one hand|set out|sets out|set up|sets up|similar to|(?:this|that|which|it|what) means?|means that|by means of|mean to)\b/gi;

/**
 * Words that end a noun phrase on either side: articles, determiners, pronouns, prepositions,
 * conjunctions, auxiliaries and the commonest verbs and adverbs of mathematical prose.
 */
const BOUNDARY = new Set(`a an the this that these those each every any some no all both either neither its their our his her my your
  of in on at to for from by with without within into onto over under between among about as than via per
  and or but nor so yet if then else when whenever where wherever while whereas since because although though unless until
  is are be been being was were am has have had having do does did can could may might must shall should will would
  we it they he she one you i us them which who whom whose what there here also not only just even still thus hence
  therefore however moreover furthermore indeed namely e.g i.e is called let suppose assume define denote consider
  such very more less many much few several other another same different new given above below
  one two three four five six seven eight nine ten first second third last next previous following only`.split(/\s+/).filter(Boolean));

/** Singular forms of a phrase's last word, most likely first. */
export function singulars(phrase: string): string[] {
  const m = /^(.*?)([A-Za-z'-]+)$/.exec(phrase);
  if (!m) return [];
  const [, head, w] = m;
  const out: string[] = [];
  if (/ices$/i.test(w)) out.push(w.replace(/ices$/i, 'ex'), w.replace(/ices$/i, 'ix'));
  if (/ies$/i.test(w)) out.push(w.replace(/ies$/i, 'y'));
  if (/(ch|sh|x|ss)es$/i.test(w)) out.push(w.replace(/es$/i, ''));
  if (/[^s]s$/i.test(w)) out.push(w.slice(0, -1));
  return out.map((x) => head + x);
}

interface Word { w: string; s: number; e: number }

/** The word right before `at` (spaces and a line break between), or undefined at anything else (math, punctuation, a command). */
function wordBefore(text: string, at: number): Word | undefined {
  const from = Math.max(0, at - 60);
  const m = /(?<![\\A-Za-z])([A-Za-z][A-Za-z'-]*)[ \t]*\n?[ \t]*$/.exec(text.slice(from, at));
  return m ? { w: m[1], s: from + m.index, e: from + m.index + m[1].length } : undefined;
}

/** The word right after `at`, or undefined at anything else. */
function wordAfter(text: string, at: number): Word | undefined {
  const m = /^([ \t]*\n?[ \t]*)([A-Za-z][A-Za-z'-]*)/.exec(text.slice(at, at + 60));
  return m ? { w: m[2], s: at + m[1].length, e: at + m[1].length + m[2].length } : undefined;
}

/** Words of a title, lower case (qualifiers and sub-pages apart: "Definition:Topological Manifold/Smooth Manifold"). */
const titleParts = (title: string) => title.replace(/^Definition:/, '').replace(/\([^)]*\)/g, '/').split('/').map((p) => p.toLowerCase().split(/[^a-z]+/).filter(Boolean));

/** Whether every reading's title uses the term to modify a noun ("Smooth Manifold", "Universal Object"): then the term alone is an adjective. */
export function modifierOnly(term: string, titles: readonly string[]): boolean {
  const last = lastWord(term);
  if (!last || titles.length === 0) return false;
  return titles.every((title) => onlyModifies(last, title, () => true));
}

/** The last word of a term, lower case. */
const lastWord = (term: string): string | undefined => term.toLowerCase().split(/[^a-z]+/).filter(Boolean).pop();

/**
 * Whether the title uses the word (by its first six letters), and every use is followed in its
 * part of the title by another word that `modifies` accepts (the word modifies that one).
 */
function onlyModifies(last: string, title: string, modifies: (next: string) => boolean): boolean {
  const uses = titleParts(title).flatMap((ws) => ws.flatMap((w, i) => (w.startsWith(last.slice(0, 6)) ? [i < ws.length - 1 && modifies(ws[i + 1])] : [])));
  return uses.length > 0 && uses.every(Boolean);
}

/** Adjectives by their form, or the commonest bare ones: "bounded", "integrable", "normal", "smooth". */
const ADJECTIVE = /(?:ed|able|ible|al|ous|ive|ic|ent|ant|ar|ful|less|ary|ory|ile|ian)$|^(?:smooth|open|closed|dense|compact|simple|complete|finite|infinite|prime|free|exact|flat|proper|convex|odd|even|real|complex|positive|negative|injective|surjective|bijective)$/i;

/**
 * Whether a reading's title uses a noun term as a modifier of another noun ("Mean Deviation"
 * for "mean", "Set Partition" for "set"): such a title names another thing than the term alone
 * does. An adjective term ("bounded" for "Bounded Sequence") modifies by nature, so not then.
 */
export function namesCompound(term: string, title: string): boolean {
  const last = lastWord(term);
  if (!last || ADJECTIVE.test(last)) return false;
  return onlyModifies(last, title, (next) => !BOUNDARY.has(next));
}

/** Title words that name no domain ("Measure (Measure Theory)", "Algebra (Mathematical Branch)"). */
const GENERIC_TITLE_WORDS = new Set(['definition', 'theory', 'mathematical', 'branch', 'general', 'and', 'the', 'to', 'by', 'a', 'an', 'as', 'at', 'or', 'with']);

/** A word without its plural ending ("matrices" → "matrix", "families" → "family"). */
export function wordStem(w: string): string {
  const x = w.toLowerCase().replace(/'s?$/, '');
  if (/ices$/.test(x)) return x.replace(/ices$/, 'ix');
  if (/ies$/.test(x)) return x.replace(/ies$/, 'y');
  if (/(ch|sh|x|ss)es$/.test(x)) return x.replace(/es$/, '');
  return /[^su]s$/.test(x) ? x.slice(0, -1) : x;
}
/**
 * Whether a reading's title names every one of these words, plurals aside: a phrase's readings
 * name its words as written ("differentiable function" is no "Differentiable Functional"),
 * where finding the phrase (termPhrases.ts) may match on a prefix.
 */
export function titleNames(title: string, words: readonly string[]): boolean {
  const named = new Set(title.replace(/^Definition:/, '').toLowerCase().split(/[^a-z']+/).filter(Boolean).map(wordStem));
  return words.every((w) => named.has(wordStem(w)));
}
/** The stems a word may stand for ("vertices": vertix or vertex). */
const stems = (w: string) => { const s = wordStem(w); return s.endsWith('ix') && /ices$/i.test(w) ? [s, `${s.slice(0, -2)}ex`] : [s]; };
const lowerWords = (t: string) => t.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 1);

/**
 * Whether a reading fits the context by its words. A single-word term's reading names that
 * word ("compact" is no "Compactification", "transformation" no "Group Action"); and the
 * context names the reading's domain (readingDomain): every object its title names ("Matrix"
 * of "Matrix/Column", "Ideal" of "Height of Prime Ideal"; `some`: one of them), else its field
 * ("Ring" of "Completion (Normed Division Ring)"), unless the title has none. A single word alone ("product",
 * "integral", "height") is read in every sense the index lists; without a word of that sense
 * around it, the sense meant may be none of them.
 */
export function readingEvidence(title: string, term: string, context: string, objects: 'all' | 'some' = 'all'): boolean {
  const own = new Set(lowerWords(term).map(wordStem));
  const t = title.replace(/^Definition:/, '');
  const named = new Set(lowerWords(t).map(wordStem));
  if (own.size === 1 && ![...own].every((w) => named.has(w))) return false;
  const domain = readingDomain(title, term);
  const said = new Set(lowerWords(context).flatMap(stems));
  // every object the title names ("Homomorphism" and "Complexes"), or with `some` one of them or
  // of its field; a field in parentheses ("(Spectral Theory)") only where nothing else says the domain
  if (objects === 'some') { const all = [...domain.objects, ...domain.field]; return all.length === 0 || all.some((h) => said.has(h)); }
  if (domain.objects.length) return domain.objects.every((h) => said.has(h));
  return domain.field.length === 0 || domain.field.some((h) => said.has(h));
}

/**
 * The domain a reading's title names beyond the term, stemmed: the head word of each other
 * part ("Homomorphism" and "Complexes" of "Kernel of Homomorphism of Differential Complexes"),
 * and the field a part in parentheses names ("Spectral" of "Spectrum (Spectral Theory)").
 */
export function readingDomain(title: string, term: string): { objects: string[]; field: string[] } {
  const own = new Set(lowerWords(term).map(wordStem));
  const head = (part: string) => {
    const w = lowerWords(part).filter((x) => !GENERIC_TITLE_WORDS.has(x)).pop();
    return w && !own.has(wordStem(w)) ? [wordStem(w)] : [];
  };
  const t = title.replace(/^Definition:/, '');
  const field = [...t.matchAll(/\(([^()]*)\)/g)].flatMap((m) => head(m[1]));
  const objects = t.replace(/\([^()]*\)/g, ' ').split(/\/|\b(?:of|in|on|over|for|under)\b/i).flatMap(head);
  return { objects, field };
}

const SENTENCE_END = /[.!?;](?:\s|$)|\n\s*\n/g;
/** Where a clause ends inside a sentence: ", so …", ", and …", ", which …". */
const CLAUSE_END = /[.!?;:](?:\s|$)|\n\s*\n|,\s+(?:so|and|hence|thus|then|but|whence|which|where|while|since|because)\b/g;

function spanAround(text: string, offset: number, end: RegExp): string {
  const before = text.slice(Math.max(0, offset - 400), offset);
  const after = text.slice(offset, offset + 400);
  let a = 0;
  for (const m of before.matchAll(end)) a = m.index + m[0].length;
  const b = after.search(new RegExp(end.source));
  return before.slice(a) + (b >= 0 ? after.slice(0, b) : after);
}

/** The sentence around `offset`: what its objects are ("the Sylow 5-subgroup is normal"). */
export const sentenceAround = (text: string, offset: number): string => spanAround(text, offset, SENTENCE_END);
/** The clause around `offset` ("so the Sylow 5-subgroup is normal"). */
export const clauseAround = (text: string, offset: number): string => spanAround(text, offset, CLAUSE_END);

/**
 * Of readings that fit the context, those whose domain the term's own clause or sentence
 * names (`spans`, nearest first): where some reading's domain is named there ("subgroup" in
 * "so the Sylow 5-subgroup is normal"), a reading whose domain is named only farther away
 * ("number" in the clause before) is not what is meant. Readings without a domain word are kept.
 */
export function sentenceReadings<R extends { title: string }>(readings: readonly R[], term: string, ...spans: string[]): R[] {
  const domains = readings.map((r) => { const { objects, field } = readingDomain(r.title, term); return [...objects, ...field]; });
  // the nearest span that names some reading's domain decides: the clause, else the sentence
  for (const span of spans) {
    const said = new Set(lowerWords(span).flatMap(stems));
    const fit = domains.map((d) => (d.length === 0 ? -1 : d.filter((w) => said.has(w)).length));
    if (fit.some((f) => f > 0)) return readings.filter((_r, i) => fit[i] !== 0);
  }
  return [...readings];
}

/** Whether `at` starts a sentence: after a full stop, a blank line, a command or environment line, or at the start of an argument. */
function sentenceStart(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 80), at);
  return /(?:^|[.!?:]["')]?\s+|\n\s*\n\s*|[{[]\s*|\\item\s+|\\\\\s*)$/.test(before) || /^\s*$/.test(before);
}

/** The term under the cursor, or undefined where none is (see the file comment). */
export function termAt(doc: Doc, offset: number, lookup: TermLookup): TermHit | undefined {
  if (textPlaceAt(doc, offset) !== 'prose') return undefined;
  const text = doc.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  const line = text.slice(lineStart, lineEnd);
  TERM_CMD.lastIndex = 0;
  for (let m = TERM_CMD.exec(line); m; m = TERM_CMD.exec(line)) {
    const s = lineStart + m.index, e = s + m[0].length;
    if (offset >= s && offset <= e) return { term: m[1].replace(/\s+/g, ' ').trim(), start: s, end: e, marked: true, phrase: [], phraseStart: s, phraseEnd: e };
  }
  const from = Math.max(lineStart, offset - REACH), to = Math.min(lineEnd, offset + REACH);
  const span = text.slice(from, to);
  for (const m of span.matchAll(IDIOMS)) {
    if (offset >= from + m.index! && offset <= from + m.index! + m[0].length) return undefined;
  }
  const words: Word[] = [];
  for (const m of span.matchAll(/[A-Za-z][A-Za-z'-]*/g)) {
    const s = from + m.index!;
    if (s > 0 && text[s - 1] === '\\') continue; // a command name
    words.push({ w: m[0], s, e: s + m[0].length });
  }
  const at = words.findIndex((w) => offset >= w.s && offset <= w.e);
  if (at < 0) return undefined;
  for (let n = 4; n >= 1; n--) {
    for (let i = Math.max(0, at - n + 1); i <= at && i + n <= words.length; i++) {
      const said = words.slice(i, i + n).map((w) => w.w).join(' ');
      // words of one phrase are written next to each other
      if (!/^[A-Za-z' -]+$/.test(text.slice(words[i].s, words[i + n - 1].e).replace(/\s+/g, ' '))) continue;
      // "loops", "vertices", "families": the term is listed in the singular
      const term = [said, ...singulars(said)].find((t) => lookup.isTerm(t));
      if (!term || (n === 1 && PROSE_WORDS.has(term.toLowerCase()))) continue;
      const start = words[i].s, end = words[i + n - 1].e;
      // "Linear Algebra for Everyone", "our Universe": capitals inside a sentence make a title or a name
      if (words.slice(i, i + n).every((w) => /^[A-Z]/.test(w.w)) && !sentenceStart(text, start)) return undefined;
      // "$f$-divergence", "$\sigma$-algebra": a compound the index does not know
      if (text[start - 1] === '-') return undefined;
      const hit: TermHit = { term, start, end, marked: false, phrase: [], phraseStart: start, phraseEnd: end };
      const before = wordBefore(text, start), after = wordAfter(text, end);
      if (before && !BOUNDARY.has(before.w.toLowerCase())) {
        // a modifier: "measure space" is a phrase the index knows; "Haar character", "simple formula" one it does not
        if (!lookup.isPhrase(before.w, words[i].w)) return undefined;
        hit.phrase.push(before.w); hit.phraseStart = before.s;
      }
      if (after && !BOUNDARY.has(after.w.toLowerCase())) {
        if (lookup.isPhrase(words[i + n - 1].w, after.w)) { hit.phrase.push(after.w); hit.phraseEnd = after.e; }
        // "complex Lie group", "universal constructions", "smooth open embeddings": the word
        // modifies a noun the index does not know with it (a capitalised name, or a noun after
        // a word the index only ever uses as a modifier); a verb after a noun ("the graph
        // looks") is no such noun
        else if (/^[A-Z]/.test(after.w) || modifierOnly(term, lookup.titles(term))) return undefined;
      }
      return hit;
    }
  }
  return undefined;
}
