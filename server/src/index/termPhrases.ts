// Which word pairs are one mathematical phrase: every pair of adjacent words in an indexed title
// or term ("closed ball", "measure space", "ordered field", "Lipschitz continuous"). A term
// hover on "space" in "measure space" is about the phrase, not the word: the phrase decides
// which readings of the word are possible (or that none is).
import { perIndex, tick, type Pause } from './perIndex.js';
import type { LoadedIndex } from './store.js';

/** How words are compared: lower case, a six-letter prefix as the stem (topolo(gy|gical), space(s)). */
export const phraseStem = (w: string): string => w.toLowerCase().slice(0, 6);

const titleWords = (t: string) => t.replace(/^Definition:/, '').toLowerCase().split(/[^a-z]+/).filter(Boolean).map(phraseStem);

/** ~45k titles, 1000 per slice. */
const pairs = perIndex(function* (index: LoadedIndex): Generator<void, Set<string>> {
  const out = new Set<string>();
  const add = (t: string) => { const w = titleWords(t); for (let i = 1; i < w.length; i++) out.add(`${w[i - 1]} ${w[i]}`); };
  for (let id = 0; id < index.count; id++) {
    if (id % 1000 === 999) yield;
    add(index.title(id));
  }
  for (const t of Object.keys(index.header.terms)) add(t);
  return out;
});

/** Whether `a b` (adjacent words, in this order) is part of some indexed title or term. */
export function isPhrase(index: LoadedIndex, a: string, b: string): boolean {
  return pairs.get(index).has(`${phraseStem(a)} ${phraseStem(b)}`);
}

/** Builds the pairs in the background after a load, so the first term hover does not wait. */
export const preparePhrases = (index: LoadedIndex, pause: Pause = tick): Promise<void> => pairs.prepare(pause, index);
