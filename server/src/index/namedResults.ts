// Results found by name. Mathematicians name the results they mean ("Fermat's little theorem",
// `\begin{theorem}[Heine--Borel]`), and a name is the one query that text retrieval serves
// badly: two or three words that every proof mentioning a theorem also contains. Indexed titles
// are compared with the name after normalisation (case, apostrophes, dashes, "Definition:",
// "(Proof 2)", "proof of …"), with and without a generic last word ("Theorem", "Lemma").
import type { EntryKind } from './format.js';
import { perIndex, tick, type Pause } from './perIndex.js';
import type { LoadedIndex } from './store.js';

const GENERIC_LAST = /\s(?:theorem|lemma|proposition|corollary)$/;

/** How a name or title is compared: lower case, letters and digits, single spaces. */
export function nameKey(s: string): string {
  return s
    .toLowerCase()
    .replace(/\\[a-z]+\s*/g, ' ') // LaTeX commands in a title (`\pi`, `\emph`) are not part of its name
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9/]+/g, ' ') // a sub-page ("/Corollary", "/Metric Space") is another result: "/" stays
    .replace(/ ?\/ ?/g, '/')
    .trim()
    .replace(/^(?:definition|proof of|the) /, '')
    .replace(/ proof \d+$/, '');
}

/** The keys of a name, most specific first: as written, then without a generic last word. */
export function nameKeys(name: string): string[] {
  const full = nameKey(name);
  if (full.length < 3) return [];
  const short = full.replace(GENERIC_LAST, '');
  return short !== full && short.length >= 3 ? [full, short] : [full];
}

/** Per kind: title key → entry ids (each title under both of its keys, the exact one first). */
type Names = Record<EntryKind, Map<string, number[]>>;

/** ~45k entry reads (~1 s for the ProofWiki index), 500 per slice. */
const names = perIndex(function* (index: LoadedIndex): Generator<void, Names> {
  const out = { statement: new Map(), proof: new Map(), definition: new Map() } as Names;
  let n = 0;
  for (const kind of Object.keys(out) as EntryKind[]) {
    const [a, b] = index.header.kinds[kind] ?? [0, 0];
    for (let id = a; id < b; id++) {
      if (++n % 500 === 0) yield;
      for (const k of nameKeys(index.peek(id).title)) {
        const ids = out[kind].get(k);
        if (ids) ids.push(id); else out[kind].set(k, [id]);
      }
    }
  }
  return out;
});

/** Builds the title keys in the background after a load, so the first named search does not wait. */
export const prepareNames = (index: LoadedIndex, pause: Pause = tick): Promise<void> => names.prepare(pause, index);

/**
 * Entries of `kind` whose title names `name`, with how exactly (2: the whole name, 1: without a
 * generic last word on one side). Statements named so bring their proofs when `kind` is proof.
 */
export function namedIds(index: LoadedIndex, name: string, kind: EntryKind): Map<number, number> {
  const out = new Map<number, number>();
  const keys = nameKeys(name);
  if (keys.length === 0) return out;
  const byKind = names.get(index);
  const put = (id: number, strength: number) => { if ((out.get(id) ?? 0) < strength) out.set(id, strength); };
  keys.forEach((k, i) => {
    const strength = i === 0 ? 2 : 1;
    for (const id of byKind[kind].get(k) ?? []) put(id, strength);
    if (kind === 'proof') for (const s of byKind.statement.get(k) ?? []) for (const p of index.entry(s).proofs ?? []) put(p, strength);
  });
  return out;
}
