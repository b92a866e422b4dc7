// Reading the shared data into index entries (before ids are assigned): ProofWiki theorems and
// proofs (through the embeddings data loader), MathD2 definitions grouped by ambiguous term,
// PlanetMath entries, optionally Stacks results. Each entry keeps its URL and licence line.
import { expandProofWikiMacros, termTitle, titleText, type EntryKind, type IndexSource } from 'mathsense-server/api/index';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadProofWiki } from '../data/proofwiki.js';
import { loadStacks } from '../data/stacks.js';
import type { MacroTable } from 'mathsense-server/api/embeddings';
import { latexToPlain } from 'mathsense-server/api/analysis';

export const SOURCE_IDS = ['proofwiki', 'mathd2', 'planetmath', 'stacks'] as const;
export type SourceId = typeof SOURCE_IDS[number];
export const DEFAULT_SOURCES: SourceId[] = ['proofwiki', 'mathd2', 'planetmath'];

export const SOURCES: Record<SourceId, Omit<IndexSource, 'entries'>> = {
  proofwiki: { id: 'proofwiki', name: 'ProofWiki', licence: 'CC BY-SA 3.0', attribution: 'ProofWiki contributors (proofwiki.org); text scraped Dec 2024', home: 'https://proofwiki.org' },
  mathd2: { id: 'mathd2', name: 'ProofWiki disambiguation pages (MathD2)', licence: 'CC BY-SA 3.0', attribution: 'ProofWiki contributors (proofwiki.org), via the MathD2 dataset', home: 'https://proofwiki.org' },
  planetmath: { id: 'planetmath', name: 'PlanetMath', licence: 'CC BY-SA 3.0', attribution: 'PlanetMath authors (named per entry), github.com/planetmath', home: 'https://planetmath.org' },
  stacks: { id: 'stacks', name: 'The Stacks project', licence: 'GNU FDL 1.2', attribution: 'The Stacks project authors (stacks.math.columbia.edu)', home: 'https://stacks.math.columbia.edu' },
};

/** An entry before ids are assigned; links are by key. */
export interface RawEntry {
  key: string;
  kind: EntryKind;
  source: SourceId;
  title: string;
  url: string;
  licence: string;
  /** Full text (BM25 and, unless embedText is given, the encoder). */
  text: string;
  embedText?: string;
  /** The text the tokenizer reads (BM25 and the encoder) when it differs from `text` (ProofWiki's macros written out). */
  tokenText?: string;
  macros?: MacroTable;
  statementKey?: string;
  /** Keys of the entries a proof \ref's (Stacks: its proofs' \ref graph is real reference data). */
  refKeys?: string[];
  term?: string;
  /** Further ambiguous terms whose disambiguation page lists this same definition. */
  alsoTerms?: string[];
  categories?: string[];
  authors?: string[];
  heldOut?: boolean;
  /** ProofWiki page title (for reference recovery and PS-ProofWiki mapping). */
  pageTitle?: string;
}

export interface SliceOptions {
  slice?: number;
  /** ProofWiki's notation macros written out in the text the tokenizer reads (syntax/proofwikiMacros.ts). */
  expandProofWikiMacros?: boolean;
}

const cut = <T>(xs: T[], n?: number) => (n ? xs.slice(0, n) : xs);

export function proofWikiUrl(title: string): string {
  return `https://proofwiki.org/wiki/${encodeURI(title.replace(/ /g, '_')).replace(/\?/g, '%3F').replace(/=/g, '%3D')}`;
}

/**
 * Pages outside ProofWiki's content: user sandboxes, talk pages, drafts, site pages. The scrape
 * holds 225 of them ("User:…/Sandbox" with half-written proofs); they are not results to show.
 */
export const isProofWikiSitePage = (title: string): boolean =>
  /^(?:User|Talk|User talk|ProofWiki|ProofWiki talk|Draft|Help|Template|Category|File|MediaWiki|Special):/.test(title);

export function readProofWiki(dataDir: string, o: SliceOptions = {}): RawEntry[] {
  const out: RawEntry[] = [];
  const lic = `${SOURCES.proofwiki.licence}, ProofWiki contributors`;
  const tokens = (text: string) => (o.expandProofWikiMacros ? { tokenText: expandProofWikiMacros(text) } : {});
  for (const t of cut(loadProofWiki(dataDir), o.slice)) {
    if (isProofWikiSitePage(t.base)) continue;
    const url = t.url.replace(/\/Proof_\d+$/, '');
    const key = `pw:${t.base}`;
    out.push({ key, kind: 'statement', source: 'proofwiki', title: t.base, url, licence: lic, text: t.statement, heldOut: t.heldOut, pageTitle: t.base, ...tokens(t.statement) });
    t.proofs.forEach((p, i) => out.push({
      key: `${key}#${i}`, kind: 'proof', source: 'proofwiki', title: t.proofs.length > 1 ? `${t.base} (Proof ${i + 1})` : t.base,
      url, licence: lic, text: p, statementKey: key, heldOut: t.heldOut, ...tokens(p),
    }));
  }
  return out;
}

interface MathD2Json { title: Record<string, string>; term: Record<string, string>; def_item_list: Record<string, Array<{ title: string; categories: string[]; plain_text_definition: string }>> }

export function readMathD2(dataDir: string, o: SliceOptions = {}): RawEntry[] {
  const j = JSON.parse(fs.readFileSync(path.join(dataDir, 'mathd2', 'disambiguation_pages_with_macros.json'), 'utf8')) as MathD2Json;
  const out: RawEntry[] = [];
  const seen = new Map<string, RawEntry>();
  for (const k of cut(Object.keys(j.title), o.slice)) {
    const term = j.term[k];
    for (const d of j.def_item_list[k] ?? []) {
      // one entry per definition page, listed under every term that names it
      const first = seen.get(d.title);
      if (first) {
        if (first.term !== term && !first.alsoTerms?.includes(term)) (first.alsoTerms ??= []).push(term);
        continue;
      }
      out.push({
        key: `md:${d.title}`, kind: 'definition', source: 'mathd2', title: d.title, url: proofWikiUrl(d.title),
        licence: `${SOURCES.mathd2.licence}, ProofWiki contributors`, text: `${titleText(d.title)}: ${d.plain_text_definition}`,
        // the encoder was trained to match a definition's context with "term: title"
        embedText: termTitle(term, d.title), term, categories: d.categories, pageTitle: d.title,
      });
      seen.set(d.title, out[out.length - 1]);
    }
  }
  return out;
}

interface PlanetMathJson { source_repo: string; commit: string; path: string; canonical_name: string; title: string; type: string; author: string[]; defines: string[]; body_latex: string }

export function readPlanetMath(dataDir: string, o: SliceOptions = {}): RawEntry[] {
  const lines = fs.readFileSync(path.join(dataDir, 'planetmath', 'planetmath_entries.jsonl'), 'utf8').split('\n').filter((l) => l.trim());
  const entries = cut(lines, o.slice).map((l) => JSON.parse(l) as PlanetMathJson);
  const titles = new PlanetMathTitles(entries.map((p) => p.body_latex));
  const out: RawEntry[] = [];
  for (const p of entries) {
    const kind: EntryKind | undefined = p.type === 'Definition' ? 'definition'
      : /^(Theorem|Result|Corollary|Axiom|Conjecture)$/.test(p.type) ? 'statement' : p.type === 'Proof' ? 'proof' : undefined;
    if (!kind) continue;
    const body = p.body_latex.replace(/\\newtheorem\*?\{[^}]*\}(\[[^\]]*\])?\{[^}]*\}(\[[^\]]*\])?/g, '').trim();
    if (!body) continue;
    // shown as plain text like ProofWiki titles (accents as letters, math kept in `$`)
    const title = latexToPlain(titles.repair(p.title, p.canonical_name, p.body_latex), 1000);
    out.push({
      key: `pm:${p.canonical_name}`, kind, source: 'planetmath', title,
      url: `https://github.com/${p.source_repo}/blob/${p.commit}/${p.path}`,
      licence: `${SOURCES.planetmath.licence}, PlanetMath author${p.author.length === 1 ? '' : 's'}: ${p.author.join(', ')}`,
      text: kind === 'definition' ? `${title}: ${body}` : body, authors: p.author,
    });
  }
  return out;
}

const alnumKey = (s: string): string => s.replace(/[^A-Za-z0-9]/g, '').toLowerCase();

/** What a LaTeX string leaves open: braces (a stray `}` counted apart) and math (escaped `\{`, `\}`, `\$` do not count). */
function openGroups(s: string): { braces: number; stray: boolean; math: boolean } {
  let braces = 0;
  let stray = false;
  let math = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '{') braces++;
    else if (c === '}') { if (braces === 0) stray = true; else braces--; }
    else if (c === '$') math = !math;
  }
  return { braces, stray, math };
}

/** Braces and `$` of a LaTeX string are closed (escaped `\{`, `\}`, `\$` do not count). */
export function latexBalanced(s: string): boolean {
  const g = openGroups(s);
  return g.braces === 0 && !g.stray && !g.math;
}

/**
 * The dataset's PlanetMath titles were scraped up to the first `}` ("Schr\"{o", "$\mathbb{C")
 * and the full \pmtitle is not in the data. The canonical name is the title's letters and digits
 * ("SchroderBernsteinTheoremProof"), so a title is completed from it: (1) a phrase of the
 * bodies that starts with the cut title and spells exactly the canonical name
 * ("$\mathbb{C}$ is not an ordered field"); else (2) the longest closing of the cut group seen
 * in the bodies that still spells a prefix of the name ("$\mathbb{R" -> "$\mathbb{R}^n$"),
 * then the rest of the name as words ("Erd\H{o}s Rado theorem"); what cannot be recovered
 * inside math is shown as \dots.
 */
export class PlanetMathTitles {
  private corpus?: string;
  private wordCase?: Map<string, number>;
  private commands?: Set<string>;

  constructor(private readonly bodies: string[]) {}

  repair(title: string, canonicalName: string, ownBody = ''): string {
    if (latexBalanced(title)) return title;
    const target = alnumKey(canonicalName);
    const targets = [target, target.replace(/\d+$/, '')];
    const corpus = (this.corpus ??= this.bodies.join('\n'));
    for (const text of [ownBody, corpus]) {
      const exact = this.exact(title, text, targets);
      if (exact) return exact;
    }
    const closed = this.closing(title, corpus, target) ?? this.close(title);
    if (!target.startsWith(alnumKey(closed))) return closed;
    let rest = canonicalName.slice(alnumKey(closed).length);
    // only the duplicate suffix left ("…K33" + "1" for a second entry of the same title)
    if (/^\d+$/.test(rest) && targets[1] === alnumKey(closed)) rest = '';
    return this.withWords(closed, rest);
  }

  /** A phrase of `text` starting with `title` whose letters are one of `targets`, balanced. */
  private exact(title: string, text: string, targets: string[]): string | undefined {
    const start = alnumKey(title);
    for (let i = text.indexOf(title); i >= 0; i = text.indexOf(title, i + 1)) {
      let key = start;
      for (let j = i + title.length; j < text.length && j < i + title.length + 300; j++) {
        const c = text[j];
        if (/[A-Za-z0-9]/.test(c)) key += c.toLowerCase();
        if (!targets[0].startsWith(key)) break;
        if (targets.includes(key) && !/[A-Za-z0-9]/.test(text[j + 1] ?? '') && latexBalanced(text.slice(i, j + 1))) return text.slice(i, j + 1);
      }
    }
    return undefined;
  }

  /**
   * Closes the open group of a cut title the way the bodies most often continue its last
   * piece (from the open `$`, else the last word), consuming as much of the name as possible.
   */
  private closing(title: string, corpus: string, target: string): string | undefined {
    const from = openGroups(title).math ? title.lastIndexOf('$') : title.search(/\S+$/);
    const tail = title.slice(from);
    const head = alnumKey(title);
    const votes = new Map<string, { len: number; n: number }>();
    let seen = 0;
    for (let i = corpus.indexOf(tail); i >= 0 && seen < 2000; i = corpus.indexOf(tail, i + 1), seen++) {
      let key = head;
      for (let j = i + tail.length; j < corpus.length && j < i + tail.length + 80; j++) {
        const c = corpus[j];
        if (c === '\n') break;
        if (/[A-Za-z0-9]/.test(c)) key += c.toLowerCase();
        if (!target.startsWith(key)) break;
        const cand = title + corpus.slice(i + tail.length, j + 1);
        if (!/[A-Za-z0-9]/.test(corpus[j + 1] ?? '') && latexBalanced(cand)) {
          const v = votes.get(cand) ?? { len: key.length, n: 0 };
          v.n++;
          votes.set(cand, v);
        }
      }
    }
    let best: string | undefined;
    for (const [cand, v] of votes) {
      const b = best === undefined ? undefined : votes.get(best)!;
      if (!b || v.len > b.len || (v.len === b.len && (v.n > b.n || (v.n === b.n && cand.length < best!.length)))) best = cand;
    }
    return best;
  }

  /** Closes open braces and math. */
  private close(title: string): string {
    const g = openGroups(title);
    return title + '}'.repeat(g.braces) + (g.math ? '$' : '');
  }

  /** Appends the rest of a canonical name ("sRadoTheorem") as words: "Erd\H{o}s Rado theorem". */
  private withWords(closed: string, rest: string): string {
    if (!rest) return closed;
    const words: string[] = [...(rest.match(/[A-Z]+(?![a-z])|[A-Z][a-z]*|[a-z]+|\d+/g) ?? [])];
    let out = closed;
    if (/^[a-z0-9]/.test(rest)) {
      const first = words.shift()!;
      const known = (w: string) => w.length > 1 && this.count(w) !== undefined;
      if (!closed.endsWith('$')) out = closed + first; // the cut word goes on: "Barb\u{a}" + "lats"
      else if (known(first) && !this.isCommand(first)) words.unshift(first); // text after the math: "${k}$" + "connected"
      else {
        // cut inside math: its rest is lost ("mathrmlcmab"); go on at the next known word
        out = `${closed.slice(0, -1)}\\dots$`;
        while (words.length && !known(words[0]!)) words.shift();
      }
    }
    return [out, ...words.map((w) => this.caseOf(w))].join(' ');
  }

  /** A word that is also a TeX command of the bodies (`\times`, `\frac`): math, not text. */
  private isCommand(word: string): boolean {
    this.commands ??= new Set([...(this.corpus ?? '').matchAll(/\\([A-Za-z]+)/g)].map((m) => m[1]));
    return this.commands.has(word);
  }

  /** How much more often the bodies write a word in lower case than capitalised; undefined if never. */
  private count(word: string): number | undefined {
    if (!this.wordCase) {
      this.wordCase = new Map();
      for (const m of (this.corpus ?? '').matchAll(/(?<![\\A-Za-z])[A-Za-z][a-z]+\b/g)) {
        const w = m[0];
        const k = w.toLowerCase();
        this.wordCase.set(k, (this.wordCase.get(k) ?? 0) + (w === k ? 1 : -1));
      }
    }
    const k = word.toLowerCase();
    // possessives lose their apostrophe in names: "Fermats" is "Fermat's"
    return this.wordCase.get(k) ?? (k.endsWith('s') ? this.wordCase.get(k.slice(0, -1)) : undefined);
  }

  /** A name's word in the case the bodies mostly write it ("Theorem" -> "theorem", "Rado" stays). */
  private caseOf(word: string): string {
    if (word === 'A') return 'a';
    if (word.length === 1) return word;
    return (this.count(word) ?? -1) > 0 ? word.toLowerCase() : word;
  }
}

export function readStacks(dataDir: string, o: SliceOptions = {}): RawEntry[] {
  const { results, macros } = loadStacks(dataDir);
  const tags = new Map<string, string>();
  try {
    for (const line of fs.readFileSync(path.join(dataDir, 'latex', 'stacks-project', 'tags', 'tags'), 'utf8').split('\n')) {
      const [tag, label] = line.split(',');
      if (tag && label && !tag.startsWith('#')) tags.set(label.trim(), tag.trim());
    }
  } catch { /* no tags file: chapter-level URLs */ }
  const out: RawEntry[] = [];
  const lic = `${SOURCES.stacks.licence}, The Stacks project authors`;
  for (const r of cut(results, o.slice)) {
    const tag = tags.get(r.label);
    const url = tag ? `https://stacks.math.columbia.edu/tag/${tag}` : 'https://stacks.math.columbia.edu';
    const key = `st:${r.label}`;
    const kind: EntryKind = r.env === 'definition' ? 'definition' : 'statement';
    out.push({ key, kind, source: 'stacks', title: `${r.env[0].toUpperCase()}${r.env.slice(1)} ${tag ?? r.label}`, url, licence: lic, text: r.statement, macros, heldOut: r.heldOut });
    if (r.proof && kind === 'statement') out.push({ key: `${key}#0`, kind: 'proof', source: 'stacks', title: `Proof of ${r.env} ${tag ?? r.label}`, url, licence: lic, text: r.proof, macros, statementKey: key, refKeys: r.refs.map((l) => `st:${l}`), heldOut: r.heldOut });
  }
  return out;
}
