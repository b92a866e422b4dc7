// How a result from a library paper is cited: `\cite[Theorem~3.2]{key}`, where `key` is the
// entry of the project's bibliography that is the paper (the same arXiv id, else the same DOI,
// else the same title), and, when no entry is, a BibTeX entry made from the paper's own metadata
// for the author to add.
import type { BibEntry } from '../../project/bibliography.js';
import type { LibraryEntry, PaperMeta } from './papers.js';

/** New-style arXiv ids, without a version. */
const ARXIV_ID = /\b(\d{4}\.\d{4,5})(?:v\d+)?\b/;

/** A title as compared: letters and digits only, lower case, braces and TeX commands gone. */
export function titleKey(t: string): string {
  return t.replace(/\\[a-zA-Z]+\s*/g, ' ').replace(/[{}$]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/** The arXiv id an entry names (eprint, arxiv, url, note, journal fields). */
function entryArxiv(e: BibEntry): string | undefined {
  for (const f of ['eprint', 'arxiv', 'arxivid', 'url', 'note', 'journal', 'howpublished']) {
    const m = e.fields[f] && ARXIV_ID.exec(e.fields[f]);
    if (m) return m[1];
  }
  return undefined;
}

const normDoi = (d: string) => d.toLowerCase().replace(/^https?:\/\/(dx\.)?doi\.org\//, '').trim();

/**
 * The bibliography entry that is the paper: by arXiv id, else DOI, else title (equal after
 * normalising). Undefined when none or when the title alone names several.
 */
export function matchingBibEntry(meta: PaperMeta, entries: readonly BibEntry[]): { entry: BibEntry; by: 'arxiv' | 'doi' | 'title' } | undefined {
  if (meta.arxiv) { const e = entries.find((x) => entryArxiv(x) === meta.arxiv); if (e) return { entry: e, by: 'arxiv' }; }
  if (meta.doi) { const d = normDoi(meta.doi); const e = entries.find((x) => x.fields.doi && normDoi(x.fields.doi) === d); if (e) return { entry: e, by: 'doi' }; }
  if (meta.title) {
    const t = titleKey(meta.title);
    const same = t.length >= 10 ? entries.filter((x) => x.fields.title && titleKey(x.fields.title) === t) : [];
    if (same.length === 1) return { entry: same[0], by: 'title' };
  }
  return undefined;
}

/** The number as the paper prints it: an equation's in parentheses. */
const printed = (e: LibraryEntry) => (e.number && e.kind === 'equation' ? `(${e.number})` : e.number);

/** How a result is named in a list: "Theorem 3.2 (Title)", "Equation (4)". */
export function resultName(e: LibraryEntry): string {
  return `${e.name}${e.number ? ` ${printed(e)}` : ''}${e.title ? ` (${e.title})` : ''}`;
}

/** Where a result is, as a list says it: `file:line`, or a PDF's `file, page 12` (`file` as the caller names the file). */
export function entryPlace(e: LibraryEntry, file = e.file): string {
  return e.page ? `${file}, page ${e.page}` : `${file}:${e.line}`;
}

/** The optional argument naming the result: `Theorem~3.2`, `Equation~(4)`, or the name alone without a number. */
export function citedResult(e: LibraryEntry): string {
  return e.number ? `${e.name}~${printed(e)}` : e.name;
}

/** `\cite[Theorem~3.2]{key}`; an equation without a number is cited by its paper alone (`\cite{key}`). */
export function citation(e: LibraryEntry, key: string): string {
  return e.kind === 'equation' && !e.number ? `\\cite{${key}}` : `\\cite[${citedResult(e)}]{${key}}`;
}

/** A key for a new entry: first author's last name, the arXiv year, the title's first long word (`author2021bounded`). */
export function newKey(meta: PaperMeta, taken: ReadonlySet<string> = new Set()): string {
  const first = (meta.authors ?? '').split(/,| and /)[0]?.trim().split(/\s+/).pop()?.toLowerCase().replace(/[^a-z]/g, '') || 'paper';
  const year = meta.arxiv ? `20${meta.arxiv.slice(0, 2)}` : '';
  const word = titleKey(meta.title ?? '').split(' ').find((w) => w.length > 3 && !['with', 'from', 'that', 'this', 'some', 'their'].includes(w)) ?? '';
  let key = `${first}${year}${word}`;
  for (let i = 2; taken.has(key); i++) key = `${first}${year}${word}${i}`;
  return key;
}

/** A BibTeX entry from the paper's own metadata (arXiv e-print fields when it has an id). */
export function bibtexFor(meta: PaperMeta, key: string): string {
  const fields: Array<[string, string | undefined]> = [
    ['author', meta.authors?.split(/\s*,\s*/).join(' and ')],
    ['title', meta.title && `{${meta.title}}`],
    ['year', meta.arxiv ? `20${meta.arxiv.slice(0, 2)}` : undefined],
    ['eprint', meta.arxiv],
    ['archivePrefix', meta.arxiv ? 'arXiv' : undefined],
    ['doi', meta.doi],
  ];
  const body = fields.filter(([, v]) => v).map(([k, v]) => `  ${k} = {${v}},`).join('\n');
  return `@misc{${key},\n${body}\n}\n`;
}
