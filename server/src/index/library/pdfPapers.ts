// Papers of a library folder that are PDFs (issue 41), read from their text layer with pdfjs-dist
// (a dependency of the server, loaded on first use; the .vsix carries its two scripts). What
// survives of a LaTeX paper in a PDF is its prose and the printed headings of its results:
// "Theorem 3.2 (Name).", "Definition.", "Proof." begin entries, the next heading or a section
// ends them, and the number is the one printed. Formulas come out as loose glyphs, so a PDF
// gives no display equations. A PDF beside the LaTeX source of the same name is the source's
// output and is not read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../util/packageRoot.js';
import { within } from '../../util/paths.js';
import { findFilesWhere } from '../../project/files.js';
import { paperHash, paperIds, type LibraryEntry, type Paper, type PaperMeta } from './papers.js';

/** The parts of pdfjs-dist used here (typed loosely: loaded at run time). */
interface PdfTextItem { str?: string; hasEOL?: boolean; transform?: number[] }
interface PdfPage { getTextContent(o: { disableNormalization: boolean }): Promise<{ items: PdfTextItem[] }>; cleanup(): void }
interface PdfDocument { numPages: number; getPage(n: number): Promise<PdfPage>; getMetadata(): Promise<{ info?: Record<string, unknown> }>; destroy(): Promise<void> }
interface PdfjsModule { getDocument(o: Record<string, unknown>): { promise: Promise<PdfDocument> }; GlobalWorkerOptions: { workerSrc: string } }

const PDFJS = 'pdfjs-dist/legacy/build/pdf.min.mjs';
/** In Node pdfjs runs its worker in this thread, importing this script (the .vsix carries the minified one only). */
const PDFJS_WORKER = 'pdfjs-dist/legacy/build/pdf.worker.min.mjs';
let loaded: Promise<{ mod?: PdfjsModule; problem?: string }> | undefined;
/** `import()` kept as it is by the bundler (pdfjs-dist is an ES module; the server bundle is CommonJS). */
const importModule = new Function('u', 'return import(u)') as (u: string) => Promise<unknown>;

/** pdfjs-dist from the server's dependencies (in the .vsix: server/node_modules), or why not. */
export function loadPdfjs(): Promise<{ mod?: PdfjsModule; problem?: string }> {
  loaded ??= (async () => {
    const from = [path.join(packageRoot(), 'server', 'package.json'), path.join(packageRoot(), 'package.json')];
    for (const f of from) {
      let file: string, worker: string;
      try { file = createRequire(f).resolve(PDFJS); worker = createRequire(f).resolve(PDFJS_WORKER); } catch { continue; }
      try {
        const mod = await importModule(pathToFileURL(file).href) as PdfjsModule;
        mod.GlobalWorkerOptions.workerSrc = pathToFileURL(worker).href;
        return { mod };
      } catch (e) {
        return { problem: `pdfjs-dist does not load (${(e as Error).message}): PDFs in the library are not read` };
      }
    }
    return { problem: 'pdfjs-dist is not installed (run `npm run setup`): PDFs in the library are not read' };
  })();
  return loaded;
}

/** A line of a PDF's text layer: its page, its left edge, and whether vertical space comes before it. */
export interface PdfLine { text: string; page: number; x: number; gap: boolean }

/** Ligatures that TeX's fonts without a Unicode map leave as control codes (T1 and OT1 slots). */
const LIGATURES: Record<string, string> = { '\u000b': 'ff', '\u000c': 'fi', '\u000d': 'fl', '\u000e': 'ffi', '\u000f': 'ffl', '\u001b': 'ff', '\u001c': 'fi', '\u001d': 'fl', '\u001e': 'ffi', '\u001f': 'ffl' };

function cleanText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u000b-\u000f\u001b-\u001f]/g, (c) => LIGATURES[c]).normalize('NFKC').replace(/[\u0000-\u0008\u0010-\u001a]/g, '');
}

/** PDFs larger than this are not read (a text layer that size is a scan's or a proceedings volume's). */
const MAX_PDF_BYTES = 200 * 1048576;
/** Pages read at most (a book-length PDF is read through; past this it is a scan or a proceedings volume). */
const MAX_PAGES = 2000;

/** The text lines of a PDF, running heads, page numbers and footers left out; or why it cannot be read. */
export async function pdfLines(file: string): Promise<{ lines: PdfLine[]; pages: number; info: Record<string, unknown> } | { problem: string }> {
  const pdfjs = await loadPdfjs();
  if (!pdfjs.mod) return { problem: pdfjs.problem! };
  let doc: PdfDocument;
  try {
    if (fs.statSync(file).size > MAX_PDF_BYTES) return { problem: `larger than ${MAX_PDF_BYTES / 1048576} MB (a scan?)` };
    doc = await pdfjs.mod.getDocument({ data: new Uint8Array(fs.readFileSync(file)), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  } catch (e) {
    return { problem: `not a readable PDF (${(e as Error).message})` };
  }
  try {
    const info = ((await doc.getMetadata().catch(() => undefined))?.info ?? {}) as Record<string, unknown>;
    const pages: Array<Array<{ text: string; x: number; y: number }>> = [];
    for (let p = 1; p <= Math.min(doc.numPages, MAX_PAGES); p++) {
      const page = await doc.getPage(p);
      const { items } = await page.getTextContent({ disableNormalization: true });
      const lines: Array<{ text: string; x: number; y: number }> = [];
      let cur: { text: string; x: number; y: number } | undefined;
      for (const it of items) {
        const t = it.transform ?? [1, 0, 0, 1, 0, 0];
        if (!cur) cur = { text: '', x: t[4], y: t[5] };
        cur.text += it.str ?? '';
        if (it.hasEOL) { lines.push(cur); cur = undefined; }
      }
      if (cur) lines.push(cur);
      page.cleanup();
      pages.push(lines.map((l) => ({ ...l, text: cleanText(l.text).replace(/\s+/g, ' ').trim() })).filter((l) => l.text));
      // pdfjs parses in this thread: a server reading in the background answers requests between pages
      await new Promise((r) => setImmediate(r));
    }
    return { lines: withoutFurniture(pages), pages: doc.numPages, info };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/**
 * The lines of every page without the page's furniture: a first or last line that recurs (digits
 * aside) on several pages is a running head or foot, a line of digits alone a page number. Each
 * line says whether more vertical space than the page's usual line spacing comes before it.
 */
function withoutFurniture(pages: Array<Array<{ text: string; x: number; y: number }>>): PdfLine[] {
  const key = (t: string) => t.replace(/\d+/g, '#').toLowerCase();
  const edges = new Map<string, number>();
  for (const lines of pages) for (const l of new Set([lines[0], lines[lines.length - 1]])) if (l) edges.set(key(l.text), (edges.get(key(l.text)) ?? 0) + 1);
  const recurring = (t: string) => (edges.get(key(t)) ?? 0) >= Math.max(3, pages.length * 0.2);
  const out: PdfLine[] = [];
  pages.forEach((lines, i) => {
    const kept = lines.filter((l, k) => !/^[\divxlc]{1,5}$/i.test(l.text) && !((k === 0 || k === lines.length - 1) && recurring(l.text)));
    const steps = kept.slice(1).map((l, k) => kept[k].y - l.y).filter((d) => d > 0).sort((a, b) => a - b);
    const usual = steps.length ? steps[Math.floor(steps.length / 2)] : 0;
    kept.forEach((l, k) => out.push({ text: l.text, page: i + 1, x: l.x, gap: k > 0 && usual > 0 && kept[k - 1].y - l.y > usual * 1.35 }));
  });
  return out;
}

const STATEMENT_NAMES = 'Theorem|Lemma|Proposition|Corollary|Definition|Conjecture|Claim|Fact|Observation|Hypothesis|Axiom|Example|Remark|Exercise|Problem|Question';
/** "Theorem 3.2 (Name). Text", "Definition (Field). Text", "Lemma 4:" — the printed head of a result. */
const HEAD = new RegExp(`^(${STATEMENT_NAMES})(?:\\s+(\\d+(?:\\.\\d+)*[a-z]?))?\\s*(?:\\(([^()]{1,120})\\))?\\s*[.:](?:\\s+(.*))?$`);
/** "Proof.", "Proof of Theorem 3.2.", "Proof (sketch)." */
const PROOF = /^Proof(?:\s+of\s+(\p{L}+\s+\d+(?:\.\d+)*[a-z]?|[^.:]{1,100}))?(?:\s*\([^()]{1,60}\))?\s*[.:](?:\s+(.*))?$/u;
/** A numbered heading ("3.2 Compact spaces", "3. Sets") or a chapter's. */
const SECTION = /^(?:(?:Chapter|Section|Appendix)\s+\S+|\d+(?:\.\d+)*\.?\s+\p{Lu}[^.]{0,80})$/u;
/** An end-of-proof mark that a font gives as a character. */
const QED = /(?:□|∎|■|\bQ\.E\.D\.)\s*$/;
/** How far a display is set in from the text's left edge, at least (a paragraph's indent is less), in PDF units. */
const DISPLAY_INDENT = 40;
/** Entries are cut at this length (as a LaTeX paper's are). */
const MAX_CHARS = 4000;

/**
 * The statements, definitions and proofs a PDF's lines print: each begins at its heading and ends
 * at the next heading, a section, an end-of-proof mark, or (a statement) where vertical space
 * precedes a new paragraph, not a list item. A proof proves the statement before it, or the one it
 * names. `line` is the entry's line in the text layer (its place; `page` is what a viewer opens).
 */
export function pdfEntries(lines: readonly PdfLine[], file: string): LibraryEntry[] {
  const out: LibraryEntry[] = [];
  let open: { entry: LibraryEntry; proof: boolean; parts: string[]; x: number } | undefined;
  let lastStatement: number | undefined;
  const close = () => {
    if (!open) return;
    const text = open.parts.join(' ').replace(/(\p{Ll})- (\p{Ll})/gu, '$1$2').replace(/\s+/g, ' ').trim().slice(0, MAX_CHARS);
    if (text || open.proof) out.push({ ...open.entry, text });
    open = undefined;
  };
  lines.forEach((l, i) => {
    const head = HEAD.exec(l.text);
    const proof = !head && PROOF.exec(l.text);
    // a heading begins a paragraph: after vertical space, at a page's top, after a closed entry,
    // a sentence's end or a display (a line set in from the margin), never within a sentence
    const prev = lines[i - 1];
    const begins = l.gap || !prev || prev.page !== l.page || /[.!?:)□∎■]\s*$/.test(prev.text) || prev.x > l.x + DISPLAY_INDENT || SECTION.test(prev.text);
    // an unnumbered head is never a citation ("… that\nProposition. The derivative …" in notes that run prose into results)
    const unnumbered = !!head && !head[2] && !/^\p{Ll}/u.test(head[4] ?? '');
    if (head && (begins || unnumbered)) {
      close();
      const [, name, number, title, rest] = head;
      const entry: LibraryEntry = { kind: name === 'Definition' ? 'definition' : 'statement', name, ...(number ? { number, numberFrom: 'printed' as const } : {}), ...(title ? { title } : {}), text: '', file, line: i + 1, page: l.page };
      lastStatement = out.length;
      open = { entry, proof: false, parts: rest ? [rest] : [], x: l.x };
      return;
    }
    if (proof && begins) {
      close();
      const named = proof[1] && /(\w+)\s+(\d+(?:\.\d+)*[a-z]?)/.exec(proof[1]);
      const target = named ? out.findIndex((e) => e.kind !== 'proof' && e.name === named[1] && e.number === named[2]) : lastStatement;
      open = { entry: { kind: 'proof', name: 'Proof', text: '', file, line: i + 1, page: l.page, ...(target !== undefined && target >= 0 ? { proves: target } : {}) }, proof: true, parts: proof[2] ? [proof[2]] : [], x: l.x };
      if (!named) lastStatement = undefined;
      if (QED.test(l.text)) close();
      return;
    }
    if (!open) return;
    if (l.gap && SECTION.test(l.text)) { close(); lastStatement = undefined; return; }
    // a statement ends where a new paragraph begins after vertical space (a list item or a display continues it)
    if (!open.proof && l.gap && l.x < open.x + DISPLAY_INDENT && open.parts.join(' ').length > 40 && /^\p{Lu}/u.test(l.text) && !/^\(?[ivx\d]{1,4}[.)]/i.test(l.text)) { close(); return; }
    open.parts.push(l.text);
    if (open.proof && QED.test(l.text)) close();
  });
  close();
  return out;
}

/** Title and authors from the PDF's information, else its first line; arXiv id from the file name or the first page; DOI from the first page. */
export function pdfMeta(dir: string, file: string, lines: readonly PdfLine[], info: Record<string, unknown>): PaperMeta {
  const first = lines.filter((l) => l.page === 1).map((l) => l.text).join('\n');
  const str = (v: unknown) => (typeof v === 'string' && v.trim() && !/^(untitled|microsoft word|\S+\.(dvi|tex|pdf))/i.test(v.trim()) ? v.trim() : undefined);
  return {
    title: str(info.Title) ?? lines[0]?.text.slice(0, 200),
    authors: str(info.Author),
    ...paperIds(path.relative(dir, file), first),
  };
}

/**
 * The PDFs of a library folder that are papers: not the output of a LaTeX root beside them
 * (`main.pdf` by `main.tex`), and not the files of a LaTeX paper's own folder (its figures: an
 * arXiv source's `figs/plot.pdf`). The library folder itself is no paper's folder, so PDFs and
 * LaTeX papers side by side at its top are all papers.
 */
export function pdfRoots(dir: string, texRoots: readonly string[]): string[] {
  const top = path.resolve(dir);
  const built = new Set(texRoots.map((r) => r.replace(/\.tex$/i, '.pdf').toLowerCase()));
  const paperDirs = new Set(texRoots.map((r) => path.dirname(path.resolve(r))).filter((d) => d !== top));
  const inPaperDir = (f: string) => {
    for (let d = path.dirname(path.resolve(f)); d !== top && within(top, d); d = path.dirname(d)) if (paperDirs.has(d)) return true;
    return false;
  };
  return findFilesWhere(dir, (name) => /\.pdf$/i.test(name)).filter((f) => !built.has(f.toLowerCase()) && !inPaperDir(f)).sort();
}

/** Reads a PDF paper of the library folder `dir`, or says why it cannot. */
export async function readPdfPaper(dir: string, file: string): Promise<Paper | { problem: string }> {
  // a PDF that pdfjs fails on halfway is one unreadable paper, never a library that fails to index
  const got = await pdfLines(file).catch((e: Error) => ({ problem: `not a readable PDF (${e.message})` }));
  if ('problem' in got) return got;
  if (got.lines.length === 0) return { problem: 'no text layer (a scan?)' };
  const rel = path.relative(dir, file);
  return { id: rel, hash: paperHash(dir, [file]), files: [rel], meta: pdfMeta(dir, file, got.lines, got.info), entries: pdfEntries(got.lines, rel), displays: [], macros: [] };
}
