// `mathsense search --kind equation [--in DIR] [--index DIR] [--limit N] [--json] "<latex>"`:
// the related-equations search of the language server from the command line. DIR is scanned
// as `mathsense check` scans it (includes followed, document macros expanded); the bundled
// index's equations are searched alongside. JSON shape (kept stable for checks), best first:
//   workspace hits  {latex, score, file, line, label, source: "workspace", why, same}
//   index hits      {latex, score, title, url, licence, source: "index", why, same}
// `same` is true only where the two were confirmed to say the same (features/equations/equationClaims.ts);
// those come first, then the rest by score.
// `label` is null when the equation or row has none; `line` is 1-based.
// Exit codes as `mathsense search`: 0 results printed (possibly none), 1 the search cannot run
// (no index and no --in), 2 usage.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EmbeddingCache, embedThroughCache } from '../embeddings/embeddingCache.js';
import { userCacheDir } from '../util/cacheDir.js';
import { EncoderSession } from '../embeddings/encoderSession.js';
import { findModelsDir, FORMULA_ENCODER_DIR } from '../embeddings/modelFiles.js';
import { EquationAnalyses } from '../index/equationAnalyses.js';
import { findRelatedEquations, type RelatedContext } from '../features/equations/relatedEquations.js';
import type { RelatedEquation } from '../ext/protocol.js';
import { WorkspaceEquations } from '../index/workspaceEquations.js';
import { IndexEquations } from '../index/equationStore.js';
import { formulaEncoderInput } from '../index/equationFeatures.js';
import { defaultIndexDir } from '../index/paths.js';
import { LoadedIndex } from '../index/store.js';
import { findDocumentFiles } from '../project/files.js';
import { Workspace } from '../project/workspace.js';
import { displayPath, parseLimit } from './options.js';
import { defaultStoreDir, LoadedLibrary, type LibraryEquations } from '../index/library/libraryStore.js';

interface Io { out: (s: string) => void; err: (s: string) => void }

export const EQUATION_SEARCH_USAGE = `  search --kind equation [--in DIR] [--library DIR]... [--limit N] [--index DIR] [--models DIR] [--json] "<latex>"
                                        equations related to <latex> in DIR's documents, the library
                                        folders' papers (indexed with \`mathsense library index\`) and the index
`;

export interface EquationRow {
  latex: string;
  score: number;
  source: 'workspace' | 'index' | 'library';
  file?: string;
  line?: number;
  label?: string | null;
  title?: string;
  url?: string;
  licence?: string;
  /** Library hits: the paper. */
  paper?: string;
  why: RelatedEquation['why'];
  /** Confirmed to say the same as the query (such hits come first). */
  same: boolean;
}

export function toRow(r: RelatedEquation): EquationRow {
  if (r.source === 'library') return { latex: r.latex, score: r.score, file: r.file, line: r.line, label: r.label ?? null, title: r.title, paper: r.paper, source: 'library', why: r.why, same: !!r.same };
  return r.source === 'workspace'
    ? { latex: r.latex, score: r.score, file: r.file, line: r.line, label: r.label ?? null, source: 'workspace', why: r.why, same: !!r.same }
    : { latex: r.latex, score: r.score, title: r.title, url: r.url, licence: r.licence, source: 'index', why: r.why, same: !!r.same };
}

function whyText(r: EquationRow): string {
  const w = r.why;
  // "same" only where confirmed; an unconfirmed fingerprint collision is only evidence
  const f = r.same ? (w.fingerprint === 'identity' ? 'same identity' : 'same equation') : w.fingerprint === 'side' ? 'equivalent side' : w.fingerprint ? 'equivalent form (unconfirmed)' : '';
  return [f, w.encoder !== undefined ? `encoder ${w.encoder.toFixed(2)}` : '', `structure ${w.structure.toFixed(2)}`].filter(Boolean).join(', ');
}

const oneLine = (s: string, max = 160) => { const t = s.replace(/\s+/g, ' ').trim(); return t.length > max ? `${t.slice(0, max - 1)}…` : t; };

/** Loads a formula encoder for the CLI, when the model is there (vectors cached on disk as in the server). */
async function formulaEncoder(io: Io, models?: string): Promise<{ embed: (texts: string[]) => Promise<Float32Array[]>; version: string; close: () => Promise<void> } | undefined> {
  let enc: EncoderSession;
  try {
    enc = await EncoderSession.load(findModelsDir(models), { model: FORMULA_ENCODER_DIR, accelerator: 'cpu', threads: 2 });
  } catch (e) {
    io.err(`mathsense search: formula encoder unavailable (${(e as Error).message}): ranked by fingerprints and structure\n`);
    return undefined;
  }
  const cache = new EmbeddingCache(enc.info.version, enc.info.dim, userCacheDir());
  return {
    version: enc.info.version,
    embed: (canonicals) => {
      const texts = canonicals.map(formulaEncoderInput);
      return embedThroughCache(cache, texts, (part) => enc.embedTexts(part.map((i) => texts[i])));
    },
    close: () => enc.release(),
  };
}

/** True when `search` arguments ask for equations (`--kind equation` / `--kind=equation`). */
export function isEquationSearch(args: readonly string[]): boolean {
  return args.some((a, i) => a === '--kind=equation' || (a === '--kind' && args[i + 1] === 'equation'));
}

/** Parses the arguments of `search --kind equation` and runs it. */
export async function equationSearch(args: readonly string[], io: Io): Promise<number> {
  const o: { text: string; in?: string; index?: string; models?: string; library: string[]; limit: number; json: boolean } = { text: '', limit: 20, json: false, library: [] };
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const value = () => (eq > 0 ? a.slice(eq + 1) : args[++i]);
    if (name === '--kind') { value(); continue; }
    if (name === '--json') { o.json = true; continue; }
    if (name === '--in' || name === '--index' || name === '--models' || name === '--limit' || name === '--library') {
      const v = value();
      if (v === undefined) { io.err(`mathsense search: ${name} needs a value\n${EQUATION_SEARCH_USAGE}`); return 2; }
      if (name === '--in') o.in = v; else if (name === '--library') o.library.push(v); else if (name === '--index') o.index = v; else if (name === '--models') o.models = v;
      else { const n = parseLimit(v, o.limit, io.err, 'search'); if (n === undefined) return 2; o.limit = n; }
      continue;
    }
    if (a.startsWith('--')) { io.err(`mathsense search: unknown option ${a}\n${EQUATION_SEARCH_USAGE}`); return 2; }
    rest.push(a);
  }
  o.text = rest.join(' ').trim();
  if (!o.text) { io.err(`mathsense search: no equation given\n${EQUATION_SEARCH_USAGE}`); return 2; }
  return equationSearchCommand(o, io);
}

/**
 * The related-equations context the CLI searches with: DIR's documents as `mathsense check`
 * reads them (analysed, with formula-encoder vectors when the model is there) and the index's
 * equations. Undefined (after a message) when there is nothing to search. `close` releases the encoder.
 */
export async function openRelatedContext(opts: { in?: string; index?: string; models?: string; library?: readonly string[] }, io: Io): Promise<{ ctx: RelatedContext; close: () => Promise<void> } | undefined> {
  // the index and its equations
  let index: RelatedContext['index'];
  try {
    const li = LoadedIndex.load(defaultIndexDir(opts.index));
    if (!li.header.equations) throw new Error(`the index at ${li.dir} has no equations: rebuild it with \`npm run index:build\``);
    index = { index: li, equations: IndexEquations.load(li.dir, li.header.equations) };
  } catch (e) {
    if (!opts.in) { io.err(`mathsense search: ${(e as Error).message}\n`); return undefined; }
    io.err(`mathsense search: ${(e as Error).message}: searching ${opts.in} only\n`);
  }
  // the workspace, as `mathsense check` reads it
  const ws = new Workspace();
  ws.onReadError = (uri, reason) => io.err(`mathsense search: cannot read ${uri}: ${reason}\n`);
  if (opts.in) {
    const abs = path.resolve(opts.in);
    const files = fs.statSync(abs).isDirectory() ? findDocumentFiles(abs) : [abs];
    for (const f of files) ws.loadFile(f);
  }
  const analyses = new EquationAnalyses();
  const byText = new Map<string, Float32Array>();
  const vectors = { generation: 0, get: (t: string) => byText.get(t) };
  const equations = new WorkspaceEquations(analyses, vectors);
  equations.snapshot(ws);
  await analyses.whenIdle();
  const enc = await formulaEncoder(io, opts.models);
  const ctx: RelatedContext = { ws, equations, index, encoderMessage: () => (enc ? undefined : 'formula encoder unavailable') };
  const libraries = libraryEquations(opts.library ?? [], io);
  if (libraries.length) ctx.library = () => libraries;
  if (enc) {
    // workspace vectors: all at once here (the server fills them in the background)
    const snap = equations.snapshot(ws);
    const texts = [...new Set(snap.features.flatMap((f) => (f ? [f.canonical] : [])))];
    const vs = await enc.embed(texts);
    texts.forEach((t, i) => byText.set(t, vs[i]));
    vectors.generation++;
    ctx.queryVector = async (t) => (await enc.embed([t]))[0];
    ctx.indexVectorsMatch = () => !!index && index.equations.header.modelVersion === enc.version;
  }
  return { ctx, close: async () => { await enc?.close(); } };
}

/** The displays of each library folder's store (a folder not indexed is said and skipped). */
function libraryEquations(folders: readonly string[], io: Io): Array<{ folder: string; equations: LibraryEquations }> {
  return folders.flatMap((f) => {
    const folder = path.resolve(f);
    const lib = LoadedLibrary.load(defaultStoreDir(folder));
    if (lib instanceof LoadedLibrary) return [{ folder, equations: lib.equations() }];
    io.err(`mathsense search: library ${folder}: ${lib.problem}\n`);
    return [];
  });
}

export async function equationSearchCommand(opts: { text: string; in?: string; index?: string; models?: string; library?: readonly string[]; limit: number; json: boolean }, io: Io): Promise<number> {
  if (opts.in && !fs.existsSync(opts.in)) { io.err(`mathsense search: no such folder: ${opts.in}\n`); return 2; }
  const opened = await openRelatedContext(opts, io);
  if (!opened) return 1;
  const { ctx } = opened;
  try {
    const r = await findRelatedEquations(ctx, { latex: opts.text }, { limit: opts.limit });
    const rows = r.results.map(toRow);
    if (opts.json) io.out(JSON.stringify(rows, null, 2) + '\n');
    else if (rows.length === 0) io.out('no related equations\n');
    else {
      for (const [i, x] of rows.entries()) {
        const where = x.source === 'workspace' ? `${displayPath(x.file!)}:${x.line}${x.label ? ` \\label{${x.label}}` : ''}`
          : x.source === 'library' ? `${displayPath(x.file!)}:${x.line} ${x.title} in ${x.paper}` : `${x.title} <${x.url}> (${x.licence?.split(',')[0]})`;
        io.out(`${String(i + 1).padStart(2)}. ${x.score.toFixed(3)}  ${where}  ${oneLine(x.latex)}  [${whyText(x)}]\n`);
      }
    }
    if (r.message && !opts.json) io.err(`note: ${r.message}\n`);
    return 0;
  } finally {
    await opened.close();
  }
}
