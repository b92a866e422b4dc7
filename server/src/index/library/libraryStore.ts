// The library's embedded store, which needs no set-up: one folder per library (by default in
// the user's cache, keyed by the library folder's path) holding `library.json` (format, the
// encoder's version, one line per paper: its root, hash, metadata and entry count) and, per
// paper, `papers/<hash>.json` (entries and their token ids; its display equations with their
// analysed features, for the related-equations search, and its macros) and `papers/<hash>.f32`
// (the entries' vectors). Indexing is incremental by paper hash: a paper whose files are
// unchanged keeps its files, a new or changed one is read, embedded and analysed, a deleted one
// is dropped. Papers are LaTeX roots (papers.ts) and PDFs (pdfPapers.ts). Search is BM25 over the
// tokens and the cosine with the vectors, fused by z-scores, as the bundled index's search.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Bm25Index } from '../../embeddings/bm25.js';
import type { MathTokenizer } from '../../embeddings/tokenizer.js';
import { fuseZ } from '../../util/zScores.js';
import { userCacheDir } from '../../util/cacheDir.js';
import { paperRoots, paperHash, readPaper, type LibraryDisplay, type LibraryEntry, type LibraryKind, type PaperMeta } from './papers.js';
import { pdfRoots, readPdfPaper } from './pdfPapers.js';
import { analyserSignature, type EquationFeatures } from '../equationFeatures.js';
import { inProcessAnalysis } from '../equationAnalysis.js';
import type { MacroDef } from '../../math/macros.js';
import { FeatureCorpus } from '../featureCorpus.js';
import { TokenTable } from '../equationRanking.js';

export const LIBRARY_FORMAT = 3;
const MANIFEST = 'library.json';
/** Tokens per entry kept for BM25 (the encoder reads its own limit). */
const ENTRY_TOKENS = 512;

export interface PaperRecord { id: string; hash: string; meta: PaperMeta; entries: number; files: string[] }

export interface LibraryManifest {
  format: number;
  /** The library folder, absolute. */
  folder: string;
  /** The encoder the vectors are from, and their dimension (0: no vectors, BM25 only). */
  encoder: string;
  dim: number;
  /** The equation analyser the displays' features are from (analyserSignature). */
  analyser: string;
  papers: PaperRecord[];
  indexedAt: string;
}

/** Where a library folder's store lives by default: the user's cache, one folder per library path. */
export function defaultStoreDir(folder: string): string {
  const key = crypto.createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 16);
  return path.join(userCacheDir(), 'library', key);
}

/** The manifest of a store, or why it cannot be read. */
export function readManifest(storeDir: string): { manifest?: LibraryManifest; problem?: string } {
  const file = path.join(storeDir, MANIFEST);
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as LibraryManifest;
    if (m.format !== LIBRARY_FORMAT || !Array.isArray(m.papers)) return { problem: `${file}: library format ${m.format}, this version reads ${LIBRARY_FORMAT} (run \`mathsense library index\` again)` };
    return { manifest: m };
  } catch (e) {
    return { problem: fs.existsSync(file) ? `${file}: ${(e as Error).message}` : `no library index in ${storeDir} (run \`mathsense library index FOLDER\`)` };
  }
}

/** What embedding needs: the encoder's version and dimension, and a batch embedder. */
export interface LibraryEncoder { version: string; dim: number; embed: (texts: string[]) => Promise<Float32Array[]> }

/** Analyses display equations under a paper's macros (the server's equation worker, else this thread). */
export type DisplayAnalyser = (latex: readonly string[], defs: readonly MacroDef[]) => Promise<EquationFeatures[]>;

/** Analysis in this thread (what a caller without workers gets). */
export function analyseHere(): DisplayAnalyser {
  const run = inProcessAnalysis();
  return (latex, defs) => run(latex.map((l) => ({ latex: l, macroKey: '' })), { '': defs });
}

/** A display as stored: where it is and its analysed features. */
export type StoredDisplay = LibraryDisplay & { f: EquationFeatures };

export interface IndexReport { papers: number; added: number; changed: number; removed: number; kept: number; unreadable: string[]; entries: number; seconds: number }

/**
 * The text an entry is matched by (BM25): its title and body, so a name typed into the search
 * finds it. Its vector is of the body alone, as a statement's query vector is (the hover embeds
 * the statement's body, never its optional title).
 */
const entryText = (e: LibraryEntry) => `${e.title ? `${e.title}. ` : ''}${e.text}`;

const paperFile = (storeDir: string, hash: string, ext: 'json' | 'f32') => path.join(storeDir, 'papers', `${hash}.${ext}`);

/**
 * Indexes (or re-indexes) a library folder into `storeDir`: papers whose hash is unchanged are
 * kept as they are; `progress` is told after each paper.
 */
export async function indexLibrary(folder: string, storeDir: string, tok: MathTokenizer, encoder: LibraryEncoder | undefined, progress?: (done: number, total: number, paper: string) => void, analyse: DisplayAnalyser = analyseHere()): Promise<IndexReport> {
  const t0 = Date.now();
  const dir = path.resolve(folder);
  const before = readManifest(storeDir).manifest;
  const analyser = analyserSignature();
  // vectors from another encoder (or none), and features from another analyser, cannot be mixed
  // with new ones: every paper is read again
  const reusable = before && before.encoder === (encoder?.version ?? '') && before.dim === (encoder?.dim ?? 0) && before.analyser === analyser ? new Map(before.papers.map((p) => [p.id, p])) : new Map<string, PaperRecord>();
  const texRoots = paperRoots(dir);
  const roots = [...texRoots, ...pdfRoots(dir, texRoots)];
  const papers: PaperRecord[] = [];
  const report: IndexReport = { papers: 0, added: 0, changed: 0, removed: 0, kept: 0, unreadable: [], entries: 0, seconds: 0 };
  fs.mkdirSync(path.join(storeDir, 'papers'), { recursive: true });
  for (const [i, root] of roots.entries()) {
    const id = path.relative(dir, root);
    const old = reusable.get(id);
    // a paper indexed before is kept when the files it read then hash the same (a new include
    // changes the root, so its hash too); any other is read, once
    if (old && paperHash(dir, old.files.map((f) => path.join(dir, f))) === old.hash && fs.existsSync(paperFile(storeDir, old.hash, 'json'))) {
      papers.push(old);
      report.kept++;
    } else {
      const paper = /\.pdf$/i.test(root) ? await readPdfPaper(dir, root) : readPaper(dir, root) ?? { problem: 'unreadable' };
      if ('problem' in paper) { report.unreadable.push(`${id} (${paper.problem})`); progress?.(i + 1, roots.length, id); continue; }
      const texts = paper.entries.map(entryText);
      const vecs = encoder && texts.length ? await encoder.embed(paper.entries.map((e) => e.text)) : [];
      const tokens = texts.map((t) => tok.encode(t, { maxTokens: ENTRY_TOKENS }));
      const feats = paper.displays.length ? await analyse(paper.displays.map((d) => d.latex), paper.macros) : [];
      const displays: StoredDisplay[] = paper.displays.map((d, k) => ({ ...d, f: feats[k] }));
      fs.writeFileSync(paperFile(storeDir, paper.hash, 'json'), JSON.stringify({ entries: paper.entries, tokens, displays, macros: paper.macros }));
      const flat = new Float32Array(vecs.length * (encoder?.dim ?? 0));
      vecs.forEach((v, k) => flat.set(v, k * encoder!.dim));
      fs.writeFileSync(paperFile(storeDir, paper.hash, 'f32'), Buffer.from(flat.buffer));
      papers.push({ id, hash: paper.hash, meta: paper.meta, entries: paper.entries.length, files: paper.files });
      if (old) report.changed++; else report.added++;
    }
    progress?.(i + 1, roots.length, id);
    // a server indexing in the background answers requests between papers
    await new Promise((r) => setImmediate(r));
  }
  const ids = new Set(papers.map((p) => p.id));
  report.removed = [...reusable.keys()].filter((id) => !ids.has(id)).length;
  const manifest: LibraryManifest = { format: LIBRARY_FORMAT, folder: dir, encoder: encoder?.version ?? '', dim: encoder?.dim ?? 0, analyser, papers, indexedAt: new Date().toISOString() };
  const tmp = path.join(storeDir, `${MANIFEST}.tmp`);
  fs.writeFileSync(tmp, `${JSON.stringify(manifest, null, 1)}\n`);
  fs.renameSync(tmp, path.join(storeDir, MANIFEST));
  // files of papers no longer listed (changed or removed) go
  const live = new Set(papers.map((p) => p.hash));
  for (const f of fs.readdirSync(path.join(storeDir, 'papers'))) if (!live.has(f.replace(/\.(json|f32)$/, ''))) fs.rmSync(path.join(storeDir, 'papers', f), { force: true });
  report.papers = papers.length;
  report.entries = papers.reduce((a, p) => a + p.entries, 0);
  report.seconds = Math.round((Date.now() - t0) / 100) / 10;
  return report;
}

interface PaperFiles { entries: LibraryEntry[]; tokens: number[][]; flat: Float32Array; displays: StoredDisplay[]; macros: MacroDef[] }

/** A paper's files as its store holds them: entries, their token ids, their vectors end to end (none without an encoder), its displays and macros. */
function readPaperFiles(storeDir: string, dim: number, p: PaperRecord): PaperFiles {
  const data = JSON.parse(fs.readFileSync(paperFile(storeDir, p.hash, 'json'), 'utf8')) as Partial<PaperFiles> & { entries: LibraryEntry[]; tokens: number[][] };
  const raw = dim ? fs.readFileSync(paperFile(storeDir, p.hash, 'f32')) : Buffer.alloc(0);
  return { entries: data.entries, tokens: data.tokens, flat: new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)), displays: (data.displays ?? []).filter((d) => d && d.f), macros: data.macros ?? [] };
}

/** A paper's entries and their vectors as its store holds them (empty vectors without an encoder). */
export function readPaperData(storeDir: string, dim: number, p: PaperRecord): { entries: LibraryEntry[]; vectors: Float32Array[] } {
  const { entries, flat } = readPaperFiles(storeDir, dim, p);
  return { entries, vectors: entries.map((_, k) => flat.subarray(k * dim, (k + 1) * dim)) };
}

export interface LibraryHit { paper: PaperRecord; entry: LibraryEntry; score: number; bm25: number; cosine?: number }

/** The displays of a library, searchable as an EquationCorpus (ids index `displays`), with each one's paper and macros. */
export interface LibraryEquations { corpus: FeatureCorpus; displays: ReadonlyArray<{ paper: PaperRecord; display: StoredDisplay; macros: readonly MacroDef[] }> }

/** A loaded library: every entry with its paper, tokens and vector, searchable. */
export class LoadedLibrary {
  private readonly bm = new Bm25Index();
  /** Where each paper's entries start in `items`. */
  private readonly firstOf = new Map<string, number>();
  /** `items`: every entry with its paper, papers in the manifest's order and each paper's entries in order. */
  private equationsBuilt?: LibraryEquations;

  private constructor(readonly manifest: LibraryManifest, readonly items: ReadonlyArray<{ paper: PaperRecord; entry: LibraryEntry }>, private readonly vectors: Float32Array, private readonly displays: LibraryEquations['displays']) {
    items.forEach((it, i) => { if (!this.firstOf.has(it.paper.id)) this.firstOf.set(it.paper.id, i); });
  }

  /** The statement a proof proves, in the same paper. */
  statementOf(paper: PaperRecord, entry: LibraryEntry): LibraryEntry | undefined {
    const first = this.firstOf.get(paper.id);
    if (entry.proves === undefined || first === undefined) return undefined;
    const it = this.items[first + entry.proves];
    return it && it.paper.id === paper.id ? it.entry : undefined;
  }

  /** The displays as a corpus for the related-equations search (built on first use; no formula-encoder vectors). */
  equations(): LibraryEquations {
    if (!this.equationsBuilt) {
      const table = new TokenTable();
      this.equationsBuilt = { corpus: new FeatureCorpus(this.displays.map((d) => d.display.f), [], table, (f) => table.codes(f.tokens, true), { postings: true }), displays: this.displays };
    }
    return this.equationsBuilt;
  }

  static load(storeDir: string): LoadedLibrary | { problem: string } {
    const { manifest, problem } = readManifest(storeDir);
    if (!manifest) return { problem: problem! };
    const items: Array<{ paper: PaperRecord; entry: LibraryEntry }> = [];
    const tokens: number[][] = [];
    const vecParts: Float32Array[] = [];
    const displays: Array<LibraryEquations['displays'][number]> = [];
    for (const paper of manifest.papers) {
      try {
        const data = readPaperFiles(storeDir, manifest.dim, paper);
        for (const display of data.displays) displays.push({ paper, display, macros: data.macros });
        const vec = data.flat;
        if (manifest.dim && vec.length !== data.entries.length * manifest.dim) return { problem: `${paperFile(storeDir, paper.hash, 'f32')}: ${vec.length / manifest.dim} vectors for ${data.entries.length} entries (run \`mathsense library index\` again)` };
        data.entries.forEach((entry, k) => { items.push({ paper, entry }); tokens.push(data.tokens[k] ?? []); });
        vecParts.push(vec);
      } catch (e) {
        return { problem: `${paperFile(storeDir, paper.hash, 'json')}: ${(e as Error).message} (run \`mathsense library index\` again)` };
      }
    }
    const vectors = new Float32Array(vecParts.reduce((a, v) => a + v.length, 0));
    let at = 0;
    for (const v of vecParts) { vectors.set(v, at); at += v.length; }
    const lib = new LoadedLibrary(manifest, items, vectors, displays);
    for (const t of tokens) lib.bm.add(t);
    return lib;
  }

  get size(): number { return this.items.length; }

  /** Every entry's BM25, cosine (with a vector of the library's encoder) and their z-fusion, in `items` order. */
  scores(q: { ids: readonly number[]; vec?: Float32Array; encoder?: string }): { bm: Float32Array; cos?: Float32Array; fused: Float32Array } {
    const n = this.items.length;
    const bm = this.bm.scores(q.ids);
    const dim = this.manifest.dim;
    const useVec = !!q.vec && dim > 0 && q.vec.length === dim && (!q.encoder || q.encoder === this.manifest.encoder);
    if (!useVec) return { bm, fused: bm };
    const cos = new Float32Array(n);
    for (let i = 0; i < n; i++) { let s = 0; const o = i * dim; for (let k = 0; k < dim; k++) s += this.vectors[o + k] * q.vec![k]; cos[i] = s; }
    return { bm, cos, fused: fuseZ(bm, cos) };
  }

  /** The best `limit` entries for a query (token ids, and its vector when the library has vectors of the same encoder), of the given kinds, none of `exclude` (item indices); `item`: each one's index in `items`. */
  search(q: { ids: readonly number[]; vec?: Float32Array; encoder?: string }, opts: { limit?: number; kinds?: readonly LibraryKind[]; exclude?: ReadonlySet<number> } = {}): Array<LibraryHit & { item: number }> {
    if (this.items.length === 0) return [];
    const { bm, cos, fused } = this.scores(q);
    const kinds = opts.kinds ? new Set(opts.kinds) : undefined;
    const order = [...fused.keys()].filter((i) => (!kinds || kinds.has(this.items[i].entry.kind)) && !opts.exclude?.has(i)).sort((a, b) => fused[b] - fused[a] || a - b);
    // a file two papers include (a book and its second edition's root, slides) is one place: listed once
    const seen = new Set<string>();
    const out: Array<LibraryHit & { item: number }> = [];
    for (const i of order) {
      const e = this.items[i].entry;
      const place = `${e.kind}\0${e.file}\0${e.line}`;
      if (seen.has(place)) continue;
      seen.add(place);
      out.push({ ...this.items[i], item: i, score: fused[i], bm25: bm[i], ...(cos ? { cosine: cos[i] } : {}) });
      if (out.length >= (opts.limit ?? 10)) break;
    }
    return out;
  }
}
