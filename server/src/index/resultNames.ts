// What a result is called, for the results-to-cite rankers: the words of its label
// ('lemma-finite-length' -> 'finite length', 'thm:heine-borel' -> 'heine borel') and its
// optional title ('[Nakayama]'). Authors name results after what they say, and a proof
// tends to cite results whose names share words with the statement's own name or text
// (Stacks dev: +1.6 mAP from the label words alone). Also the labels a statement itself \ref's:
// what a statement refers to, its proof often uses.

import { labelWords } from '../embeddings/labelWords.js';
import { refCommandAlternation } from '../syntax/blockAnalyser.js';

/** The words of a label (embeddings/labelWords.ts: kind segments dropped, separators and camel case split) and of a title. */
export function resultName(label: string | undefined, title?: string): string {
  return [labelWords(label ?? ''), title?.trim() ?? ''].filter(Boolean).join(' ');
}

/** The reference commands of syntax/blockAnalyser.ts#REF_COMMANDS with their (first) argument. */
const REFS_IN = new RegExp(`\\\\(?:${refCommandAlternation()})\\*?\\s*\\{([^{}]*)\\}`, 'g');

/** The label keys a text \ref's (\ref, \cref, \eqref, …; comma lists split), in order, deduplicated. */
export function refsIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(REFS_IN)) {
    for (const k of m[1].split(',')) if (k.trim()) out.add(k.trim());
  }
  return [...out];
}
