// Reading the shared data into index entries (before ids are assigned): ProofWiki theorems and
// proofs (through the embeddings data loader), MathD2 definitions grouped by ambiguous term,
// PlanetMath entries, optionally Stacks results. Each entry keeps its URL and licence line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadProofWiki } from '../embeddings/data/proofwiki.js';
import { termTitle, titleText } from '../embeddings/data/mathd2.js';
import { loadStacks } from '../embeddings/data/stacks.js';
import type { MacroTable } from '../embeddings/macroExpansion.js';
import type { EntryKind, IndexSource } from './format.js';

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

export interface SliceOptions { slice?: number }

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
  for (const t of cut(loadProofWiki(dataDir), o.slice)) {
    if (isProofWikiSitePage(t.base)) continue;
    const url = t.url.replace(/\/Proof_\d+$/, '');
    const key = `pw:${t.base}`;
    out.push({ key, kind: 'statement', source: 'proofwiki', title: t.base, url, licence: lic, text: t.statement, heldOut: t.heldOut, pageTitle: t.base });
    t.proofs.forEach((p, i) => out.push({
      key: `${key}#${i}`, kind: 'proof', source: 'proofwiki', title: t.proofs.length > 1 ? `${t.base} (Proof ${i + 1})` : t.base,
      url, licence: lic, text: p, statementKey: key, heldOut: t.heldOut,
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
  const out: RawEntry[] = [];
  for (const l of cut(lines, o.slice)) {
    const p = JSON.parse(l) as PlanetMathJson;
    const kind: EntryKind | undefined = p.type === 'Definition' ? 'definition'
      : /^(Theorem|Result|Corollary|Axiom|Conjecture)$/.test(p.type) ? 'statement' : p.type === 'Proof' ? 'proof' : undefined;
    if (!kind) continue;
    const body = p.body_latex.replace(/\\newtheorem\*?\{[^}]*\}(\[[^\]]*\])?\{[^}]*\}(\[[^\]]*\])?/g, '').trim();
    if (!body) continue;
    out.push({
      key: `pm:${p.canonical_name}`, kind, source: 'planetmath', title: p.title,
      url: `https://github.com/${p.source_repo}/blob/${p.commit}/${p.path}`,
      licence: `${SOURCES.planetmath.licence}, PlanetMath author${p.author.length === 1 ? '' : 's'}: ${p.author.join(', ')}`,
      text: kind === 'definition' ? `${p.title}: ${body}` : body, authors: p.author,
    });
  }
  return out;
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
