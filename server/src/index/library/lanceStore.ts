// The scaled library store: a library's entries (texts, metadata, encoder vectors) in a LanceDB
// table, for a group's library of tens of thousands of papers that one machine's memory does not
// hold and several machines read. LanceDB is embedded (no server to run), keeps its tables on a
// local or shared path (or object storage), and answers approximate nearest neighbours (IVF-PQ)
// and full-text search (BM25) itself. It is an optional install (`npm run setup:scale`, into
// optional/lancedb; or MATHSENSE_LANCEDB_DIR naming a folder that has it), never bundled: without
// it the default embedded store (libraryStore.ts) is used and a scaled store says why it cannot.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { packageRoot } from '../../util/packageRoot.js';
import { fuseZ } from '../../util/zScores.js';
import type { LibraryEntry, LibraryKind, PaperMeta } from './papers.js';
import { readManifest, readPaperData, type LibraryHit, type PaperRecord } from './libraryStore.js';

/** The parts of `@lancedb/lancedb` used here (typed loosely: the package is optional). */
interface LanceQuery { where(p: string): LanceQuery; limit(n: number): LanceQuery; nprobes?(n: number): LanceQuery; refineFactor?(n: number): LanceQuery; distanceType?(d: string): LanceQuery; select(c: string[]): LanceQuery; toArray(): Promise<Array<Record<string, unknown>>> }
export interface LanceTable {
  add(rows: Array<Record<string, unknown>>): Promise<unknown>;
  delete(predicate: string): Promise<unknown>;
  countRows(filter?: string): Promise<number>;
  createIndex(column: string, opts: { config: unknown; replace?: boolean }): Promise<void>;
  search(q: number[] | Float32Array | string, type?: string, columns?: string[]): LanceQuery;
  vectorSearch(v: number[] | Float32Array): LanceQuery;
  query(): LanceQuery;
  close?(): void;
}
interface LanceConnection { tableNames(): Promise<string[]>; openTable(name: string): Promise<LanceTable>; createTable(name: string, rows: Array<Record<string, unknown>>, opts?: { mode?: string }): Promise<LanceTable> }
export interface LanceModule { connect(uri: string): Promise<LanceConnection>; Index: { ivfPq(o: Record<string, unknown>): unknown; fts(o?: Record<string, unknown>): unknown } }

let loaded: { mod?: LanceModule; problem?: string } | undefined;

/** `@lancedb/lancedb` from MATHSENSE_LANCEDB_DIR, optional/lancedb, or wherever Node finds it; or why not. */
export function lanceModule(): { mod?: LanceModule; problem?: string } {
  if (loaded) return loaded;
  const places = [process.env.MATHSENSE_LANCEDB_DIR, path.join(packageRoot(), 'optional', 'lancedb')].filter((p): p is string => !!p);
  for (const dir of places) {
    if (!fs.existsSync(path.join(dir, 'node_modules', '@lancedb', 'lancedb'))) continue;
    try {
      return (loaded = { mod: createRequire(path.join(dir, 'package.json'))('@lancedb/lancedb') as LanceModule });
    } catch (e) {
      return (loaded = { problem: `@lancedb/lancedb in ${dir} does not load: ${(e as Error).message}` });
    }
  }
  return (loaded = { problem: 'the scaled store needs LanceDB: run `npm run setup:scale` (or set MATHSENSE_LANCEDB_DIR to a folder where @lancedb/lancedb 0.31.0 is installed)' });
}

const ENTRIES = 'entries';
const PAPERS = 'papers';
/** Entries below this are searched exactly; from it on the vectors get an IVF-PQ index. */
export const ANN_FROM = 100_000;

/** One row of the entries table: an entry, its paper, its vector. */
export interface LanceRow { paper: string; kind: string; name: string; number: string; numberFrom: string; title: string; label: string; text: string; file: string; line: number; proves: number; vector: number[] | Float32Array }

export function rowOf(paper: string, e: LibraryEntry, vector: Float32Array): LanceRow {
  return { paper, kind: e.kind, name: e.name, number: e.number ?? '', numberFrom: e.numberFrom ?? '', title: e.title ?? '', label: e.label ?? '', text: `${e.title ? `${e.title}. ` : ''}${e.text}`, file: e.file, line: e.line, proves: e.proves ?? -1, vector: Array.from(vector) };
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Deletes the rows whose `column` is one of `values`, a few hundred per statement. */
async function deleteWhereIn(table: LanceTable, column: string, values: readonly string[]): Promise<void> {
  for (let i = 0; i < values.length; i += 500) await table.delete(`${column} IN (${values.slice(i, i + 500).map(quote).join(', ')})`);
}

/**
 * Writes papers into a scaled store at `uri` (a path, or an object-storage URL LanceDB reads):
 * the rows of `changed` papers replace theirs, `removed` ones go; then the text index is made
 * again and, from ANN_FROM entries, the vector index.
 */
export async function writeLanceStore(uri: string, papers: ReadonlyArray<{ record: PaperRecord; rows: LanceRow[] }>, removed: readonly string[], opts: { indexVectors?: boolean } = {}): Promise<{ entries: number; seconds: number }> {
  const { mod, problem } = lanceModule();
  if (!mod) throw new Error(problem);
  const t0 = Date.now();
  const db = await mod.connect(uri);
  const names = await db.tableNames();
  const gone = [...removed, ...papers.map((p) => p.record.id)];
  const rows = papers.flatMap((p) => p.rows);
  let entries: LanceTable | undefined = names.includes(ENTRIES) ? await db.openTable(ENTRIES) : undefined;
  if (entries) await deleteWhereIn(entries, 'paper', gone);
  if (rows.length) {
    if (entries) await entries.add(rows as unknown as Array<Record<string, unknown>>);
    else entries = await db.createTable(ENTRIES, rows as unknown as Array<Record<string, unknown>>, { mode: 'overwrite' });
  }
  const paperRows = papers.map((p) => ({ id: p.record.id, hash: p.record.hash, meta: JSON.stringify(p.record.meta), entries: p.record.entries, files: JSON.stringify(p.record.files) }));
  let paperTable: LanceTable | undefined = names.includes(PAPERS) ? await db.openTable(PAPERS) : undefined;
  if (paperTable) await deleteWhereIn(paperTable, 'id', gone);
  if (paperRows.length) { if (paperTable) await paperTable.add(paperRows); else paperTable = await db.createTable(PAPERS, paperRows, { mode: 'overwrite' }); }
  const n = entries ? await entries.countRows() : 0;
  if (entries && n > 0) {
    await entries.createIndex('text', { config: mod.Index.fts(), replace: true });
    if (opts.indexVectors ?? n >= ANN_FROM) await entries.createIndex('vector', { config: mod.Index.ivfPq({ distanceType: 'cosine', numPartitions: Math.max(1, Math.round(Math.sqrt(n))), numSubVectors: 24 }), replace: true });
  }
  return { entries: n, seconds: Math.round((Date.now() - t0) / 100) / 10 };
}

/** How a scaled store is searched: ANN (probes, refinement) for the vectors, BM25 for the text. */
export interface LanceSearchOptions { limit?: number; kinds?: readonly LibraryKind[]; nprobes?: number; refineFactor?: number }

/** A scaled store opened for reading (any number of processes may read one store at once). */
export class LanceLibrary {
  private constructor(private readonly entries: LanceTable, private readonly papers: Map<string, PaperRecord>) {}

  static async open(uri: string): Promise<LanceLibrary | { problem: string }> {
    const { mod, problem } = lanceModule();
    if (!mod) return { problem: problem! };
    try {
      const db = await mod.connect(uri);
      const names = await db.tableNames();
      if (!names.includes(ENTRIES) || !names.includes(PAPERS)) return { problem: `no library in the scaled store ${uri} (run \`mathsense library index DIR --backend lancedb --store ${uri}\`)` };
      const rows = await (await db.openTable(PAPERS)).query().toArray();
      const papers = new Map(rows.map((r) => [String(r.id), { id: String(r.id), hash: String(r.hash), meta: JSON.parse(String(r.meta)) as PaperMeta, entries: Number(r.entries), files: JSON.parse(String(r.files)) as string[] }]));
      return new LanceLibrary(await db.openTable(ENTRIES), papers);
    } catch (e) {
      return { problem: `${uri}: ${(e as Error).message}` };
    }
  }

  get paperCount(): number { return this.papers.size; }

  /**
   * The best entries for a query: the vector's nearest (ANN where indexed) and the text's BM25
   * matches, each list's scores z-scored over the union (a list an entry is missing from counts
   * its lowest) and fused, as the embedded store fuses its two.
   */
  async search(q: { text: string; vec?: Float32Array }, opts: LanceSearchOptions = {}): Promise<LibraryHit[]> {
    const limit = opts.limit ?? 10;
    const pool = limit * 3;
    const where = opts.kinds?.length ? `kind IN (${opts.kinds.map(quote).join(', ')})` : undefined;
    const cols = ['paper', 'kind', 'name', 'number', 'numberFrom', 'title', 'label', 'text', 'file', 'line', 'proves'];
    const withWhere = (x: LanceQuery) => (where ? x.where(where) : x);
    let vq: Array<Record<string, unknown>> = [];
    if (q.vec) {
      let v = withWhere(this.entries.vectorSearch(q.vec).select([...cols, '_distance'])).limit(pool);
      if (v.distanceType) v = v.distanceType('cosine');
      if (v.nprobes) v = v.nprobes(opts.nprobes ?? 20);
      if (v.refineFactor && opts.refineFactor) v = v.refineFactor(opts.refineFactor);
      vq = await v.toArray();
    }
    const words = q.text.replace(/[^\p{L}\p{N}\s]+/gu, ' ').trim();
    const tq = words ? await withWhere(this.entries.search(words, 'fts', ['text']).select([...cols, '_score'])).limit(pool).toArray().catch(() => []) : [];
    const key = (r: Record<string, unknown>) => `${r.paper}\0${r.file}\0${r.line}\0${r.kind}`;
    const union = new Map<string, Record<string, unknown>>();
    for (const r of [...vq, ...tq]) if (!union.has(key(r))) union.set(key(r), r);
    const rows = [...union.values()];
    const cosOf = new Map(vq.map((r) => [key(r), 1 - Number(r._distance)]));
    const bmOf = new Map(tq.map((r) => [key(r), Number(r._score)]));
    const low = (m: Map<string, number>) => (m.size ? Math.min(...m.values()) : 0);
    const bm = Float32Array.from(rows, (r) => bmOf.get(key(r)) ?? low(bmOf));
    const cos = Float32Array.from(rows, (r) => cosOf.get(key(r)) ?? low(cosOf));
    const fused = q.vec && vq.length ? (tq.length ? fuseZ(bm, cos) : cos) : bm;
    return rows.map((r, i) => ({ r, i })).sort((a, b) => fused[b.i] - fused[a.i]).slice(0, limit).map(({ r, i }) => {
      const paper = this.papers.get(String(r.paper)) ?? { id: String(r.paper), hash: '', meta: {}, entries: 0, files: [] };
      const text = String(r.text);
      const title = String(r.title || '');
      const entry: LibraryEntry = {
        kind: String(r.kind) as LibraryKind, name: String(r.name), text: title && text.startsWith(`${title}. `) ? text.slice(title.length + 2) : text, file: String(r.file), line: Number(r.line),
        ...(r.number ? { number: String(r.number) } : {}), ...(r.numberFrom ? { numberFrom: String(r.numberFrom) as 'aux' | 'counted' } : {}),
        ...(title ? { title } : {}), ...(r.label ? { label: String(r.label) } : {}), ...(Number(r.proves) >= 0 ? { proves: Number(r.proves) } : {}),
      };
      return { paper, entry, score: fused[i], bm25: bmOf.get(key(r)) ?? 0, ...(cosOf.has(key(r)) ? { cosine: cosOf.get(key(r))! } : {}) };
    });
  }
}

/**
 * Brings a scaled store up to date with an embedded store (which read the folder, incremental by
 * paper hash): papers whose hash the scaled store does not have are written, papers it has and
 * the embedded store no longer lists are removed.
 */
export async function syncLanceStore(embeddedStore: string, uri: string, opts: { indexVectors?: boolean } = {}): Promise<{ written: number; removed: number; entries: number; seconds: number }> {
  const { manifest, problem } = readManifest(embeddedStore);
  if (!manifest) throw new Error(problem);
  if (!manifest.dim) throw new Error('the scaled store needs the encoder\'s vectors (index without --no-vectors)');
  const { mod, problem: missing } = lanceModule();
  if (!mod) throw new Error(missing);
  const db = await mod.connect(uri);
  const have = new Map<string, string>();
  if ((await db.tableNames()).includes(PAPERS)) for (const r of await (await db.openTable(PAPERS)).query().toArray()) have.set(String(r.id), String(r.hash));
  const live = new Set(manifest.papers.map((p) => p.id));
  const write = manifest.papers.filter((p) => have.get(p.id) !== p.hash);
  const removed = [...have.keys()].filter((id) => !live.has(id));
  const papers = write.map((record) => {
    const d = readPaperData(embeddedStore, manifest.dim, record);
    return { record, rows: d.entries.map((e, k) => rowOf(record.id, e, d.vectors[k])) };
  });
  const r = await writeLanceStore(uri, papers, removed, opts);
  return { written: write.length, removed: removed.length, ...r };
}
