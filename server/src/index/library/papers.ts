// The author's library (issue 41): folders of LaTeX sources (unpacked arXiv archives, the
// author's own earlier papers), each paper a root file with `\documentclass` and what it
// includes, read as the server reads a project. What a paper gives the library: its theorem-like
// statements and definitions (the printed name, the number from the paper's `.aux` when there is
// one, else counted from the source), its proofs (with the statement each proves), its labelled
// display equations, every display equation for the related-equations search (with the paper's
// macros to read them by), and what it takes to cite it (title, authors, arXiv id, DOI).
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace, type Doc } from '../../project/workspace.js';
import { findDocumentFiles, uriToPath } from '../../project/files.js';
import { AuxStore, printedNumberOf } from '../../project/auxNumbers.js';
import { bodyText, proofTarget, statements } from '../../analysis/structure.js';
import { countedNumbers } from '../../analysis/dependencies/countedNumbers.js';
import { documentEquations } from '../../analysis/equationSites.js';
import { latexToPlain } from '../../analysis/render.js';
import { scopeMacros } from '../../math/blocks.js';
import { expandMacros, macroTable, type MacroDef, type MacroTable } from '../../math/macros.js';

export type LibraryKind = 'statement' | 'definition' | 'proof' | 'equation';

export interface LibraryEntry {
  kind: LibraryKind;
  /** The printed name: "Theorem", "Lemma", "Definition", "Proof", "Equation". */
  name: string;
  /** As the paper prints it: from its `.aux` (`numberFrom: 'aux'`), else counted from the source; a PDF's as printed. */
  number?: string;
  numberFrom?: 'aux' | 'counted' | 'printed';
  title?: string;
  label?: string;
  /** The LaTeX of the body (a statement, a proof, an equation). */
  text: string;
  /** The file, relative to the library folder, and the 1-based line of the environment (of a PDF: of its text layer). */
  file: string;
  line: number;
  /** A PDF's entry: the page it begins on. */
  page?: number;
  /** A proof: the index (in the paper's entries) of the statement it proves. */
  proves?: number;
}

/** A display equation (or labelled row) of a paper, as the related-equations search reads it. */
export interface LibraryDisplay {
  /** The math, comments blanked (equationSites). */
  latex: string;
  file: string;
  /** 1-based line of the display (of the row for a row). */
  line: number;
  label?: string;
  /** From the paper's `.aux` (labelled displays only). */
  number?: string;
}

/** A display as a library result is named and cited: an equation entry ("Equation (3.2)"). */
export function displayEntry(d: LibraryDisplay): LibraryEntry {
  return { kind: 'equation', name: 'Equation', ...(d.number ? { number: d.number, numberFrom: 'aux' as const } : {}), ...(d.label ? { label: d.label } : {}), text: d.latex, file: d.file, line: d.line };
}

export interface PaperMeta { title?: string; authors?: string; arxiv?: string; doi?: string }

export interface Paper {
  /** The root file, relative to the library folder. */
  id: string;
  /** A hash of every file the paper reads (root, includes, `.aux`, `.bbl`): re-read when it changes. */
  hash: string;
  files: string[];
  meta: PaperMeta;
  entries: LibraryEntry[];
  displays: LibraryDisplay[];
  /** The macros the root's preamble defines: what its displays are read with. */
  macros: MacroDef[];
}

/** How much of a file is read to tell whether it is a root. */
const HEAD_BYTES = 256 * 1024;
/** Statements longer than this are cut (a few paragraphs say what a result is). */
const MAX_ENTRY_CHARS = 4000;

/**
 * Whether a LaTeX file is a paper's root: `\begin{document}` outside a comment in its first
 * 256 KB. Not `\documentclass`, which a chapter may take from an `\input` preamble (the Stacks
 * project's chapters), and which a preamble has without being a document.
 */
function isRoot(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    return /^[^%\n]*\\begin\s*\{document\}/m.test(buf.toString('utf8', 0, n));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The papers of a folder: its `.tex` files that hold a document, sorted. */
export function paperRoots(dir: string): string[] {
  return findDocumentFiles(dir).filter((f) => /\.tex$/i.test(f) && isRoot(f)).sort();
}

/** The files a paper reads besides its LaTeX: the root's `.aux` and `.bbl`, when present. */
function buildOutputs(root: string): string[] {
  const base = root.replace(/\.tex$/i, '');
  return ['.aux', '.bbl'].map((e) => base + e).filter((f) => fs.existsSync(f));
}

/** A hash of the paper's files (paths relative to `dir` and contents): what re-indexing compares. */
export function paperHash(dir: string, files: readonly string[]): string {
  const h = crypto.createHash('sha256');
  for (const f of [...files].sort()) {
    h.update(path.relative(dir, f));
    h.update('\0');
    try { h.update(fs.readFileSync(f)); } catch { h.update('unreadable'); }
    h.update('\0');
  }
  return h.digest('hex').slice(0, 32);
}

/** The LaTeX files a root compiles (itself first), read from disk as the server reads a project. */
function paperFiles(root: string): { ws: Workspace; doc: Doc; files: string[] } | undefined {
  const ws = new Workspace();
  const doc = ws.loadFile(root);
  if (!doc) return undefined;
  const files = ws.includeOrder([doc]).map((d) => uriToPath(d.uri)).filter((p): p is string => !!p);
  return { ws, doc, files: [...files, ...buildOutputs(root)] };
}

/** The first brace group after `\cmd` (optional argument skipped) in `text`, the paper's own macros written out, as plain text. */
function commandText(text: string, cmd: string, macros?: MacroTable): string | undefined {
  const m = new RegExp(`\\\\${cmd}\\s*(?:\\[[^\\]]*\\])?\\s*\\{`).exec(text);
  if (!m) return undefined;
  let depth = 1, i = m.index + m[0].length;
  const start = i;
  for (; i < text.length && depth > 0; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '{') depth++;
    else if (text[i] === '}') depth--;
  }
  // a title made of the paper's macros (`\title{Part \npart\ --- \ncourse}`) reads as printed;
  // `\and` between authors reads as a comma (the plain-text writer drops unknown commands)
  const raw = text.slice(start, i - 1);
  const expanded = (macros && expandMacros(raw, macros)) ?? raw;
  const plain = latexToPlain(expanded.replace(/\s*\\and\b\s*/g, ', '), 300).replace(/\s+/g, ' ').trim();
  return plain || undefined;
}

/** New-style arXiv ids (2101.01234, with a version) in a path or a text. */
const ARXIV = /\b(\d{4}\.\d{4,5})(v\d+)?\b/;
const DOI = /\b(10\.\d{4,9}\/[^\s{}"'<>]+[^\s{}"'<>.,;])/;

/** A paper's arXiv id (from its path in the library, else "arXiv:…" in its text) and DOI (from its text): LaTeX or PDF. */
export function paperIds(rel: string, text: string): Pick<PaperMeta, 'arxiv' | 'doi'> {
  return { arxiv: ARXIV.exec(rel)?.[1] ?? /arXiv[:\s]*(\d{4}\.\d{4,5})/i.exec(text)?.[1], doi: DOI.exec(text)?.[1] };
}

/**
 * Title, authors, arXiv id (from the folder or file name, else the text) and DOI of a paper: from
 * its root, else from the files it includes (a shared header), read under the paper's macros.
 */
export function paperMeta(dir: string, root: string, text: string, more: { texts?: readonly string[]; macros?: readonly MacroDef[] } = {}): PaperMeta {
  const rel = path.relative(dir, root);
  const texts = [text, ...more.texts ?? []];
  const table = more.macros?.length ? macroTable(more.macros) : undefined;
  const first = (cmd: string) => { for (const t of texts) { const v = commandText(t, cmd, table); if (v) return v; } return undefined; };
  return { title: first('title'), authors: first('author'), ...paperIds(rel, text) };
}

/** Reads one paper of the library folder `dir`: its entries in the order the paper prints them. */
export function readPaper(dir: string, root: string): Paper | undefined {
  const got = paperFiles(root);
  if (!got) return undefined;
  const { ws, doc: rootDoc, files } = got;
  const aux = new AuxStore().numbers(ws, rootDoc);
  const counted = countedNumbers(ws, rootDoc);
  const entries: LibraryEntry[] = [];
  const displays: LibraryDisplay[] = [];
  const statementAt = new Map<string, number>();
  const rel = (d: Doc) => path.relative(dir, uriToPath(d.uri) ?? d.uri);
  const lineOf = (d: Doc, offset: number) => d.positionAt(offset).line + 1;
  const order = ws.includeOrder([rootDoc]);
  const macros = scopeMacros(ws, rootDoc);
  for (const d of order) {
    statements(ws, d).forEach((st, i) => {
      const label = st.labels[0]?.name;
      const fromAux = label ? printedNumberOf(aux, label) : undefined;
      const number = fromAux ?? counted.get(d.uri)?.get(i);
      statementAt.set(`${d.uri}\0${st.env.start}`, entries.length);
      entries.push({
        kind: /definition|d[ée]finition/i.test(st.kind.title) ? 'definition' : 'statement',
        name: st.kind.title,
        ...(number ? { number, numberFrom: fromAux ? 'aux' as const : 'counted' as const } : {}),
        ...(st.title ? { title: st.title } : {}),
        ...(label ? { label } : {}),
        text: bodyText(d, st.env).slice(0, MAX_ENTRY_CHARS),
        file: rel(d),
        line: lineOf(d, st.env.start),
      });
    });
  }
  for (const d of order) {
    d.envs().forEach((e, i) => {
      if (e.name !== 'proof') return;
      const target = proofTarget(ws, d, i).statement;
      const proves = target ? statementAt.get(`${target.doc.uri}\0${target.env.start}`) : undefined;
      entries.push({ kind: 'proof', name: 'Proof', text: bodyText(d, e).slice(0, MAX_ENTRY_CHARS), file: rel(d), line: lineOf(d, e.start), ...(proves !== undefined ? { proves } : {}) });
    });
    for (const eq of documentEquations(d)) {
      const fromAux = eq.label ? printedNumberOf(aux, eq.label) : undefined;
      displays.push({ latex: eq.latex, file: rel(d), line: eq.line + 1, ...(eq.label ? { label: eq.label } : {}), ...(fromAux ? { number: fromAux } : {}) });
      if (!eq.label) continue;
      entries.push({ kind: 'equation', name: 'Equation', ...(fromAux ? { number: fromAux, numberFrom: 'aux' as const } : {}), label: eq.label, text: eq.latex.slice(0, MAX_ENTRY_CHARS), file: rel(d), line: eq.line + 1 });
    }
  }
  return { id: path.relative(dir, root), hash: paperHash(dir, files), files: files.map((f) => path.relative(dir, f)), meta: paperMeta(dir, root, rootDoc.text, { texts: order.slice(1).map((d) => d.text), macros }), entries, displays, macros };
}
