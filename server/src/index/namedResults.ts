// Results found by name. Mathematicians name the results they mean ("Fermat's little theorem",
// `\begin{theorem}[Heine--Borel]`), and a name is the one query that text retrieval serves
// badly: two or three words that every proof mentioning a theorem also contains. Indexed titles
// are compared with the name after normalisation (case, accents written either way, TeX escapes,
// possessives, dashes, "Definition:", "(Proof 2)", "proof of …"), with and without a generic last
// word ("Theorem", "Lemma"); a name that adds a description to a person's result ("Picard's
// theorem on existence and uniqueness") finds the indexed title whose words it contains
// ("Picard's Existence Theorem"), more weakly.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENTRY_KINDS, type EntryKind } from './format.js';
import { perIndex, tick, type Pause } from './perIndex.js';
import type { LoadedIndex } from './store.js';
import { drain } from '../util/turns.js';

const GENERIC_LAST = /\s(?:theorem|lemma|proposition|corollary)$/;

/** TeX's accent commands (`\'e`, `\"{o}`, `\c{c}`, `\v s`): the letter they accent. */
const TEX_ACCENT = /\\(?:['"`^~=.]|[uvHckrbd](?![a-zA-Z]))\s*(?:\{\s*(\\?[a-zA-Z])\s*\}|(\\?[a-zA-Z]))/g;
/** TeX's special letters (`\ss`, `\o`, `\ae`), as ASCII. */
const TEX_LETTERS: Record<string, string> = { ss: 'ss', o: 'o', O: 'O', ae: 'ae', AE: 'AE', oe: 'oe', OE: 'OE', aa: 'a', AA: 'A', l: 'l', L: 'L', i: 'i', j: 'j' };
/** Letters NFD does not decompose. */
const UNICODE_LETTERS: Record<string, string> = { ß: 'ss', ø: 'o', Ø: 'O', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', ı: 'i', đ: 'd', Đ: 'D' };

/**
 * A name as plain ASCII text: TeX accents and special letters and Unicode accents dropped
 * (`Poincar\'e`, `Poincar\'{e}` and `Poincaré` alike), TeX dashes and quotes as plain ones,
 * braces gone. Case and words are kept.
 */
export function plainName(s: string): string {
  return s
    .replace(TEX_ACCENT, (_, a?: string, b?: string) => (a ?? b ?? '').replace(/^\\/, ''))
    .replace(/\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![a-zA-Z])\s*(?:\{\})?/g, (_, l: string) => TEX_LETTERS[l])
    .replace(/\\textquoteright\b\s*|[’‘`]/g, "'")
    .replace(/---?|[–—]/g, '-')
    .normalize('NFD').replace(/\p{M}+/gu, '')
    .replace(/[ßøØæÆœŒłŁıđĐ]/g, (c) => UNICODE_LETTERS[c])
    .replace(/(\\[A-Za-z]+)\s*\{/g, '$1 ') // `\myindex{Name}`: the command apart from its argument
    .replace(/[{}]/g, '');
}

/** How a name or title is compared: lower case, letters and digits, single spaces, no possessive. */
export function nameKey(s: string): string {
  return plainName(s)
    .toLowerCase()
    .replace(/\\[a-z]+\s*/g, ' ') // LaTeX commands in a title (`\pi`, `\emph`) are not part of its name
    .replace(/(\w)'s\b/g, '$1') // Picard's, Stokes's: the person's name
    .replace(/'/g, '') // Stokes'
    .replace(/[^a-z0-9/]+/g, ' ') // a sub-page ("/Corollary", "/Metric Space") is another result: "/" stays
    .replace(/ ?\/ ?/g, '/')
    .trim()
    .replace(/^(?:definition|proof of|the) /, '')
    .replace(/ proof \d+$/, '');
}

/** A query that is a name and nothing else (typed into a search box): a few words, no formula. */
export function isNameQuery(query: string): boolean {
  return !/[$\\=<>^_]/.test(query) && query.trim().split(/\s+/).length <= 6;
}

/** The keys of a name, most specific first: as written, then without a generic last word. */
export function nameKeys(name: string): string[] {
  const full = nameKey(name);
  if (full.length < 3) return [];
  const short = full.replace(GENERIC_LAST, '');
  return short !== full && short.length >= 3 ? [full, short] : [full];
}

/** Words that number a person's results ("First Sylow Theorem"): a name without them names them all. */
const ORDINAL = /\b(?:first|second|third|fourth|fifth|sixth|seventh)\b/g;
/** A title's leading chain of hyphenated names ("Cauchy-Bunyakovsky-Schwarz Inequality"). */
const NAME_CHAIN = /^(\p{Lu}\p{L}+(?:-\p{Lu}\p{L}+)+)(?=\s|$)/u;

/**
 * The other names a title answers to: without the ordinal that numbers it ("Sylow" for "First
 * Sylow Theorem"), a chain of names by its chain alone and by its first and last names
 * ("Cauchy-Schwarz" for "Cauchy-Bunyakovsky-Schwarz Inequality"), and a page for a setting by
 * its page's name ("Cauchy-Schwarz Inequality" for "…/Complex Numbers").
 */
export function aliasKeys(title: string): string[] {
  const slash = title.indexOf('/');
  const out = new Set<string>();
  if (slash >= 0) {
    // a page's setting ("…/Complex Numbers") is the result named by its page; its lemmas and corollaries are other results
    if (/^\s*(?:lemma|corollary|proof|porism|examples?)\b/i.test(title.slice(slash + 1))) return [];
    title = title.slice(0, slash);
    for (const k of nameKeys(title)) out.add(k);
  }
  const key = nameKey(title);
  const unnumbered = key.replace(ORDINAL, ' ').replace(/\s+/g, ' ').trim();
  if (unnumbered !== key) for (const k of nameKeys(unnumbered)) out.add(k);
  const chain = NAME_CHAIN.exec(plainName(title).trim());
  if (chain) {
    const names = chain[1].split('-');
    const rest = key.split(' ').slice(names.length).join(' ');
    const ends = `${names[0]} ${names[names.length - 1]}`.toLowerCase();
    // the chain alone only where one word follows it ("… Inequality", "… Equations"): "Mittag-Leffler
    // Expansion for Cosecant Function" is not what "Mittag-Leffler" names
    const alone = rest.split(' ').filter(Boolean).length <= 1;
    if (alone) out.add(nameKey(names.join(' ')));
    if (names.length >= 3) { if (alone) out.add(ends); if (rest) for (const k of nameKeys(`${ends} ${rest}`)) out.add(k); }
  }
  if (slash < 0) for (const k of nameKeys(title)) out.delete(k);
  return [...out].filter((k) => k.length >= 3);
}

/** Words that say what kind of result, not which: left out when a name's words are compared. */
const NOT_DESCRIPTIVE = new Set(['theorem', 'theorems', 'lemma', 'proposition', 'corollary', 'result', 'the', 'a', 'an', 'of', 'on', 'for', 'in', 'and', 'to', 'with', 'about', 'concerning', 'its', 'their']);

/** Words compared as the same: plural and singular. */
const stem = (w: string) => (w.length > 4 && /[^s]s$/.test(w) ? w.slice(0, -1) : w);

/** The descriptive words of a key (its name and what it is about), stemmed. */
const contentWords = (key: string) => key.split(/[ /]/).filter((w) => w && !NOT_DESCRIPTIVE.has(w)).map(stem);

/**
 * A title is a person's result when its first word is a possessive or a hyphenated pair of
 * capitalised names ("Picard's Existence Theorem", "Heine-Borel Theorem"): only such a name is
 * recognisable inside a longer description.
 */
const PERSONAL = /^(?:\p{Lu}[\p{L}.]*(?:'s?|’s?)\s|\p{Lu}\p{L}+-\p{Lu}\p{L}+(?:-\p{Lu}\p{L}+)*\s)/u;

/** A person's result as compared inside a longer name: its words and those of its qualifier ("(Group Theory)"). */
interface Personal { id: number; words: string[]; qualifier: string[] }

/**
 * Per kind: title key → entry ids (each title under both of its keys; under the key without its
 * generic last word as -(id + 1)); `aliases`: title ids by their other names (aliasKeys);
 * `personal`: the statements that are a person's result, by their first word.
 */
type Names = Record<EntryKind, Map<string, number[]>> & { aliases: Record<EntryKind, Map<string, number[]>>; personal: Map<string, Personal[]> };

function add(m: Map<string, number[]>, k: string, v: number): void {
  const ids = m.get(k);
  if (ids) ids.push(v); else m.set(k, [v]);
}

/** Every entry's title keyed, a slice at a time. */
function* buildNames(index: LoadedIndex): Generator<void, Names> {
  const out = { statement: new Map(), proof: new Map(), definition: new Map(), aliases: { statement: new Map(), proof: new Map(), definition: new Map() }, personal: new Map() } as Names;
  let n = 0;
  for (const kind of ENTRY_KINDS) {
    const [a, b] = index.header.kinds[kind] ?? [0, 0];
    for (let id = a; id < b; id++) {
      if (++n % 200 === 0) yield;
      const title = index.title(id);
      nameKeys(title).forEach((k, i) => add(out[kind], k, i === 0 ? id : -(id + 1)));
      for (const k of aliasKeys(title)) add(out.aliases[kind], k, id);
      if (kind === 'statement' && PERSONAL.test(plainName(title)) && !title.includes('/')) {
        const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(title);
        const words = contentWords(nameKey(m ? m[1] : title));
        if (words.length === 0) continue;
        const p: Personal = { id, words, qualifier: m ? contentWords(nameKey(m[2])) : [] };
        const list = out.personal.get(words[0]);
        if (list) list.push(p); else out.personal.set(words[0], [p]);
      }
    }
  }
  return out;
}

/**
 * What the keys are made of: bumped whenever nameKeys, aliasKeys or PERSONAL change, so that a
 * table written by an older build (names.json) is keyed again at run time rather than trusted.
 */
export const NAME_KEYS_VERSION = 1;
export const NAMES_FILE = 'names.json';

type Pairs<V> = Array<[string, V[]]>;
interface NamesFile {
  version: number;
  count: number;
  kinds: Record<EntryKind, Pairs<number>>;
  aliases: Record<EntryKind, Pairs<number>>;
  personal: Pairs<Personal>;
}

/**
 * The title table written beside an index at build time: keying 45k titles takes the server a
 * second of one thread, which a request that needs it first would otherwise wait for.
 */
export function writeNames(dir: string, index: LoadedIndex): { name: string; bytes: number; version: number } {
  const t = drain(buildNames(index));
  const pairs = <V>(m: Map<string, V[]>): Pairs<V> => [...m];
  const file: NamesFile = {
    version: NAME_KEYS_VERSION, count: index.count,
    kinds: { statement: pairs(t.statement), proof: pairs(t.proof), definition: pairs(t.definition) },
    aliases: { statement: pairs(t.aliases.statement), proof: pairs(t.aliases.proof), definition: pairs(t.aliases.definition) },
    personal: pairs(t.personal),
  };
  const buf = Buffer.from(JSON.stringify(file));
  fs.writeFileSync(path.join(dir, NAMES_FILE), buf);
  return { name: NAMES_FILE, bytes: buf.length, version: NAME_KEYS_VERSION };
}

/** The build's table, or undefined when the index has none, or one of other keys or size (then keyed here). */
function parseNames(index: LoadedIndex, buf: Buffer): Names | undefined {
  const f = JSON.parse(buf.toString('utf8')) as NamesFile;
  if (f.version !== NAME_KEYS_VERSION || f.count !== index.count) return undefined;
  const maps = (r: Record<EntryKind, Pairs<number>>) => ({ statement: new Map(r.statement), proof: new Map(r.proof), definition: new Map(r.definition) });
  return { ...maps(f.kinds), aliases: maps(f.aliases), personal: new Map(f.personal) };
}

/** The index's names.json when its header lists it with this version of the keys and its size. */
function namesFileOf(index: LoadedIndex): string | undefined {
  const n = index.header.names;
  return n && n.version === NAME_KEYS_VERSION ? path.join(index.dir, n.name) : undefined;
}

/** The build's table from its bytes, or why it cannot be used. */
function fromFile(index: LoadedIndex, file: string, buf: Buffer): Names | string {
  try {
    if (buf.length !== index.header.names?.bytes) throw new Error(`${buf.length} bytes, the header says ${index.header.names?.bytes}`);
    return parseNames(index, buf) ?? `${file} was keyed for another index`;
  } catch (e) {
    return `${file} cannot be used (${(e as Error).message})`;
  }
}

/** Per index: why the build's table was not used (the titles were keyed here instead). */
const namesProblems = new WeakMap<LoadedIndex, string>();

/** The build's table (names.json), else the titles keyed here, a slice at a time (perIndex: once per index). */
const names = perIndex(function* (index: LoadedIndex): Generator<void, Names> {
  const file = namesFileOf(index);
  if (file) {
    let got: Names | string;
    try { got = fromFile(index, file, fs.readFileSync(file)); } catch (e) { got = `${file} cannot be read (${(e as Error).message})`; }
    if (typeof got === 'object') return got;
    namesProblems.set(index, `${got}: result names are keyed at run time (rebuild the index with \`npm run index:build\`)`);
  } else {
    namesProblems.set(index, `the index has no ${NAMES_FILE} of this version: result names are keyed at run time (rebuild it with \`npm run index:build\`)`);
  }
  return yield* buildNames(index);
});

/**
 * Reads the build's table (or keys the titles in slices, awaiting `pause` between them) in the
 * background after a load, so the first named search does not wait. Resolves with why the
 * build's table could not be used, if it could not.
 */
export async function prepareNames(index: LoadedIndex, pause: Pause = tick): Promise<string | undefined> {
  await names.prepare(pause, index);
  return namesProblems.get(index);
}

/**
 * Entries of `kind` whose title names `name`, with how exactly (2: the whole name, or a name of
 * several words without the title's generic last word, "Heine--Borel"; 1: otherwise without a
 * generic last word, "Rolle" for "Rolle's Theorem", as a person has several; 0.5: a person's
 * result whose words the name contains, see `described`). Statements named so bring their
 * proofs when `kind` is proof.
 */
export function namedIds(index: LoadedIndex, name: string, kind: EntryKind): Map<number, number> {
  const out = new Map<number, number>();
  const keys = nameKeys(name);
  if (keys.length === 0) return out;
  const byKind = names.get(index);
  const put = (id: number, strength: number) => { if ((out.get(id) ?? 0) < strength) out.set(id, strength); };
  const several = keys[0].split(' ').length >= 2;
  keys.forEach((k, i) => {
    const strength = (v: number) => (i === 0 && (v >= 0 || several) ? 2 : 1);
    const id = (v: number) => (v >= 0 ? v : -v - 1);
    // another name of a title ("Cauchy-Schwarz" for Cauchy-Bunyakovsky-Schwarz): as strong as its
    // own name of several words, a person's name alone ("Sylow") as weak as ever
    const alias = i === 0 && several ? 2 : 1;
    for (const v of byKind[kind].get(k) ?? []) put(id(v), strength(v));
    for (const a of byKind.aliases[kind].get(k) ?? []) put(a, alias);
    if (kind === 'proof') {
      for (const v of byKind.statement.get(k) ?? []) for (const p of index.entry(id(v)).proofs ?? []) put(p, strength(v));
      for (const s of byKind.aliases.statement.get(k) ?? []) for (const p of index.entry(s).proofs ?? []) put(p, alias);
    }
  });
  if (out.size === 0 && kind !== 'definition') {
    for (const s of described(byKind.personal, name)) {
      if (kind === 'statement') put(s, 0.5);
      else for (const p of index.entry(s).proofs ?? []) put(p, 0.5);
    }
  }
  // only the closest: "Euclid's Lemma" names Euclid's Lemma, not also Euclid's Theorem
  const best = Math.max(0, ...out.values());
  for (const [id, strength] of out) if (strength < best) out.delete(id);
  return out;
}

/**
 * The persons' results a longer name describes: "Picard's theorem on existence and uniqueness"
 * holds every word of "Picard's Existence Theorem". The name must itself start with the person
 * (a possessive or hyphenated names) and hold at least one word beyond the person's name, so
 * "Euler's theorem on homogeneous functions" is not "Euler's Theorem"; a qualifier ("Cauchy's
 * Lemma (Group Theory)") counts as that word when the name shares one of its words.
 */
export function described(personal: ReadonlyMap<string, readonly Personal[]>, name: string): number[] {
  if (!PERSONAL.test(`${plainName(name).trim()} `)) return [];
  const said = contentWords(nameKey(name));
  const words = new Set(said);
  const first = said[0];
  const out: number[] = [];
  for (const p of personal.get(first) ?? []) {
    if (!p.words.every((w) => words.has(w))) continue;
    const qualified = p.qualifier.length > 0 && p.qualifier.some((w) => words.has(w));
    if (p.qualifier.length > 0 && !qualified) continue;
    if (p.words.length >= 2 || qualified) out.push(p.id);
  }
  return out;
}
