// Which indexed definition a term under the cursor means in its context (term disambiguation on
// hover), shown only when the term ranker is sure enough.
import type { Range } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../../project/workspace.js';
import { statementAt } from '../../analysis/structure.js';
import { disambiguate, search, termCandidates } from '../../index/retrieval.js';
import { isPhrase } from '../../index/termPhrases.js';
import { clauseAround, namesCompound, readingEvidence, sentenceAround, sentenceReadings, termAt, titleNames, wordStem } from './termAt.js';
import type { ServerIndex } from '../../index/serverIndex.js';
import { entryLine } from './excerpts.js';


/** The context a term is read in: the enclosing theorem-like environment, else its paragraph. */
function contextAround(ws: Workspace, doc: Doc, offset: number): string {
  const f = statementAt(ws, doc, offset);
  if (f) return f.text.slice(0, 2000);
  const t = doc.text;
  let a = t.lastIndexOf('\n\n', offset);
  let b = t.indexOf('\n\n', offset);
  if (a < 0 || offset - a > 1500) a = Math.max(0, offset - 1000);
  if (b < 0 || b - offset > 1500) b = Math.min(t.length, offset + 1000);
  return t.slice(a, b).trim();
}

/** Words of a text, plurals aside, for telling whether a context says them. */
const contextWords = (text: string) => text.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 2).map(wordStem);

/**
 * The least probability the term ranker must give a reading of an unmarked term for the hover
 * to show it, read off the hand-judged term hovers of latex-wild (test/real-world/
 * hover-judgements.json): below it the ranker's stated probability is right far less often
 * than it says (about two readings in three however sure it claims to be).
 */
export const TERM_CONFIDENCE = 0.97;
/** The same for a term the author marked (`\emph{…}`): the mark says it is a term, not which one. */
export const MARKED_TERM_CONFIDENCE = 0.6;


/**
 * Which indexed definition a term under the cursor means here, or nothing: a term only in prose
 * and as a whole phrase (termAt.ts); readings restricted to those naming the phrase around it;
 * shown only when the best reading is likely enough (TERM_CONFIDENCE), so an everyday word or
 * a context that says nothing about the term gets no hover.
 */
export function disambiguationMarkdown(ws: Workspace, doc: Doc, offset: number, si: ServerIndex): { md: string; range: Range } | undefined {
  const got = si.get();
  if (!got) return undefined;
  const index = got.index;
  const hit = termAt(doc, offset, {
    isTerm: (t) => termCandidates(index, t).length > 0,
    isPhrase: (a, b) => isPhrase(index, a, b),
    titles: (t) => termCandidates(index, t).map((id) => index.title(id)),
  });
  if (!hit) return undefined;
  const context = contextAround(ws, doc, offset);
  const q = si.query(context);
  if (!q) return undefined;
  // which sense a context means is read from its meaning: until the context's vector has come
  // (asked for just now, ahead of the queue) the words alone say too little, so nothing yet
  if (!q.vec && si.expectsVectors) return undefined;
  let ranked = disambiguate(index, got.tok, hit.term, q);
  let heading = `**Which “${hit.term}”?**`;
  const phraseText = doc.text.slice(hit.phraseStart, hit.phraseEnd).replace(/\s+/g, ' ');
  if (hit.phrase.length) {
    // "measure space": only the readings that name the phrase (their domain is checked below)
    ranked = ranked.filter((r) => titleNames(r.entry.title, hit.phrase));
    const sum = ranked.reduce((x, r) => x + (r.probability ?? 0), 0);
    if (sum > 0) ranked = ranked.map((r) => ({ ...r, probability: (r.probability ?? 0) / sum }));
    heading = `**Which “${phraseText}”?**`;
  }
  // the term alone: not a reading whose title makes it a modifier of another noun ("the mean"
  // is no "Mean Deviation"); the others keep their probability, so the threshold still says how sure
  else ranked = ranked.filter((r) => !namesCompound(hit.term, r.entry.title) && (hit.marked || readingEvidence(r.entry.title, hit.term, context, 'some')));
  // the reading the ranker prefers must fit every object its title names and the sentence's own
  // objects ("closed subset" in a topology text is no "Multiplicatively Closed Subset of Ring";
  // "the Sylow 5-subgroup is normal" no "Normal Number"); where it does not, nothing: another
  // reading the ranker liked less is not promoted on that evidence
  if (ranked.length) {
    const fits = sentenceReadings(ranked.filter((r) => hit.marked || readingEvidence(r.entry.title, phraseText, context)).map((r) => ({ ...r, title: r.entry.title })), phraseText, clauseAround(doc.text, offset), sentenceAround(doc.text, offset));
    if (!fits.some((r) => r.id === ranked[0].id)) return undefined;
    ranked = fits;
  }
  if (ranked.length === 0) {
    // a term marked as defined here (\emph in a definition) with no disambiguation group:
    // the indexed definitions whose title names it
    if (!hit.marked || hit.phrase.length || !statementAt(ws, doc, offset)) return undefined;
    const tq = si.query(`${hit.term}: ${context}`)!;
    // a title that names more than the term names it only where the context says the rest
    // ("finite" in a definition of finite sets is no "finite morphism")
    const said = new Set(contextWords(context));
    const termWords = contextWords(hit.term);
    const namesOnlyTerm = (title: string) => contextWords(title).every((w) => said.has(w) || termWords.includes(w));
    // by its words: "uncountable" does not name "countable"
    ranked = search(index, tq, 'definition', { limit: 30, sources: got.sources }).filter((r) => titleNames(r.entry.title, termWords) && namesOnlyTerm(r.entry.title.replace(/^Definition:/, ''))).slice(0, 4);
    if (ranked.length === 0) return undefined;
    heading = `**Definitions of “${hit.term}” elsewhere**`;
  } else {
    const p = ranked[0].probability;
    // without the ranker's probability (no term ranker in the index) nothing says how sure: silent
    if (p === undefined || p < (hit.marked ? MARKED_TERM_CONFIDENCE : TERM_CONFIDENCE)) return undefined;
  }
  const [best, ...rest] = ranked.slice(0, 6);
  const sure = best.probability !== undefined ? ` (${Math.round(best.probability * 100)}%)` : '';
  const lines = [
    heading, '',
    `Best match for this context${sure}: ${entryLine(best, index.sourceOf(best.entry).name)}`,
  ];
  if (rest.length) {
    lines.push('', 'Alternatives:', '');
    for (const r of rest) lines.push(`* [${r.entry.title}](${r.entry.url})${r.probability !== undefined ? ` · ${Math.round(r.probability * 100)}%` : ''}`);
  }
  if (!q.vec) lines.push('', '*(lexical match only: no encoder for this index)*');
  return { md: lines.join('\n'), range: doc.range(hit.phraseStart, hit.phraseEnd) };
}
