// A loaded index: typed-array views on the files, entries parsed on demand, and exact hybrid
// search. BM25 follows embeddings/bm25.ts exactly (k1 = 1.2, b = 0.75, ids < 8 are not terms,
// each distinct query term once; IDF and average length per kind); the encoder score is the
// cosine with the dequantised row; the two are fused by per-query z-scores (as in the model
// evaluation). At ~50k entries an exact scan is a few milliseconds.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENTRY_KINDS, FILES, IndexError, readHeader, view, type EntryKind, type IndexEntry, type IndexHeader } from './format.js';
import { topK } from '../util/topK.js';
import { fuseZ, meanSd } from '../util/zScores.js';
import { drain } from '../util/turns.js';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const FIRST_TERM_ID = 8;

export interface Query {
  /** Tokenizer ids of the query text. */
  ids: readonly number[];
  /** L2-normalised encoder vector of the query, when available (else BM25 only). */
  vec?: Float32Array;
  /** The query text itself (the term ranker reads its words). */
  text?: string;
}

export interface Hit { id: number; score: number; bm25: number; cosine?: number }

export interface SearchOptions {
  limit?: number;
  /** Entry ids never returned (the query's own entry). */
  exclude?: ReadonlySet<number>;
  /** Restrict to these source ids (header.sources[i].id). */
  sources?: ReadonlySet<string>;
  /** Restrict scoring to these ids (e.g. one term's definitions). */
  only?: readonly number[];
  /** Scores the kind from its BM25, cosine and their parameter-free fusion (dense, from id `a`), e.g. by a fitted ranker; undefined: the fusion. */
  combine?: (bm25: Float32Array, cosine: Float32Array | undefined, fused: Float32Array, a: number) => Float32Array | undefined;
}

/** Entry texts stay on disk (32 MB for ProofWiki): read by offset when an entry is shown. */
class EntryFile {
  private fd: number | undefined;

  constructor(private readonly file: string, readonly size: number) {}

  read(start: number, end: number): string {
    this.fd ??= fs.openSync(this.file, 'r');
    const buf = Buffer.allocUnsafe(end - start);
    const n = fs.readSync(this.fd, buf, 0, buf.length, start);
    return buf.toString('utf8', 0, n);
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/** The files loaded into memory; entries.ndjson is only checked, not read. */
type LoadedFiles = Record<Exclude<keyof typeof FILES, 'entries'>, Buffer>;

const LOADED = ['offsets', 'vectors', 'bm25'] as const;

export class LoadedIndex {
  private readonly entryFile: EntryFile;
  readonly offsets: Uint32Array;
  readonly scales: Float32Array;
  readonly matrix: Int8Array;
  readonly termOffsets: Uint32Array;
  readonly docs: Uint32Array;
  readonly tfs: Uint16Array;
  readonly lengths: Uint16Array;
  readonly loadMs: number;
  readonly bytes: number;
  private readonly cache = new Map<number, IndexEntry>();
  private readonly kindOf: Uint8Array;
  /** BM25's length normalisation per entry, k1·(1 − b + b·len/avg(kind)), computed once at load. */
  private readonly lengthNorm: Float32Array;
  /** The build's digest (titles, what each statement cites), when it has one that could be read. */
  private readonly digest?: IndexDigest;
  /** Why the build's digest could not be used (bulk passes then parse every entry). */
  readonly digestProblem?: string;

  private constructor(readonly dir: string, readonly header: IndexHeader, files: LoadedFiles, entryFile: EntryFile, t0: number, digest?: Buffer | string) {
    const h = header;
    this.entryFile = entryFile;
    if (typeof digest === 'string') this.digestProblem = digest;
    else if (digest) {
      const d = readDigest(h, digest);
      if (typeof d === 'string') this.digestProblem = `${path.join(dir, DIGEST_FILE)} ${d}; titles are read from the entries (rebuild the index with \`npm run index:build\`)`;
      else this.digest = d;
    }
    this.offsets = view(files.offsets, Uint32Array, 0, h.count + 1);
    this.scales = view(files.vectors, Float32Array, 0, h.count);
    this.matrix = view(files.vectors, Int8Array, h.count * 4, h.count * h.dim);
    const v = h.vocabSize;
    this.termOffsets = view(files.bm25, Uint32Array, 0, v + 1);
    const p = this.termOffsets[v];
    this.docs = view(files.bm25, Uint32Array, (v + 1) * 4, p);
    this.tfs = view(files.bm25, Uint16Array, (v + 1) * 4 + p * 4, p);
    this.lengths = view(files.bm25, Uint16Array, (v + 1) * 4 + p * 6, h.count);
    if (this.offsets[h.count] !== entryFile.size) throw new IndexError(`index ${dir} is corrupt: entry offsets do not match ${FILES.entries}; rebuild it with \`npm run index:build\``);
    this.kindOf = new Uint8Array(h.count);
    ENTRY_KINDS.forEach((k, i) => { const [a, b] = h.kinds[k]; this.kindOf.fill(i, a, b); });
    this.lengthNorm = new Float32Array(h.count);
    for (let d = 0; d < h.count; d++) this.lengthNorm[d] = BM25_K1 * (1 - BM25_B + BM25_B * this.lengths[d] / (h.avgLength[ENTRY_KINDS[this.kindOf[d]]] || 1));
    this.bytes = Object.values(files).reduce((n, b) => n + b.length, 0) + entryFile.size;
    this.loadMs = performance.now() - t0;
  }

  /** Loads synchronously (CLI, tests). */
  static load(dir: string): LoadedIndex {
    const t0 = performance.now();
    const header = readHeader(dir);
    const files = {} as LoadedFiles;
    for (const k of LOADED) files[k] = LoadedIndex.read(dir, header, k, fs.readFileSync);
    const size = LoadedIndex.statEntries(dir, header, (p) => fs.statSync(p).size);
    let digest: Buffer | string | undefined;
    if (header.digest) try { digest = fs.readFileSync(path.join(dir, header.digest.name)); } catch (e) { digest = `cannot be read (${(e as Error).message})`; }
    return new LoadedIndex(dir, header, files, new EntryFile(path.join(dir, FILES.entries), size), t0, digest);
  }

  private static statEntries(dir: string, header: IndexHeader, size: (p: string) => number): number {
    const p = path.join(dir, FILES.entries);
    let n: number;
    try { n = size(p); } catch (e) { throw new IndexError(`index file ${p} cannot be read (${(e as Error).message}); rebuild it with \`npm run index:build\``); }
    const want = header.files?.entries?.bytes;
    if (want !== n) throw new IndexError(`index ${dir} is corrupt: ${FILES.entries} has ${n} bytes, the header says ${want}; rebuild it with \`npm run index:build\``);
    return n;
  }

  /** Loads with asynchronous reads (the language server: never on the request path). */
  static async loadAsync(dir: string): Promise<LoadedIndex> {
    const t0 = performance.now();
    const header = readHeader(dir);
    const files = {} as LoadedFiles;
    for (const k of LOADED) {
      const p = path.join(dir, FILES[k]);
      const buf = await fs.promises.readFile(p).catch((e: Error) => { throw new IndexError(`index file ${p} cannot be read (${e.message}); rebuild it with \`npm run index:build\``); });
      files[k] = LoadedIndex.check(dir, header, k, buf);
    }
    const size = LoadedIndex.statEntries(dir, header, (p) => fs.statSync(p).size);
    const digest = header.digest ? await fs.promises.readFile(path.join(dir, header.digest.name)).catch((e: Error) => `cannot be read (${e.message})`) : undefined;
    return new LoadedIndex(dir, header, files, new EntryFile(path.join(dir, FILES.entries), size), t0, digest);
  }

  private static read(dir: string, header: IndexHeader, k: keyof typeof FILES, read: (p: string) => Buffer): Buffer {
    const p = path.join(dir, FILES[k]);
    let buf: Buffer;
    try { buf = read(p); } catch (e) { throw new IndexError(`index file ${p} cannot be read (${(e as Error).message}); rebuild it with \`npm run index:build\``); }
    return LoadedIndex.check(dir, header, k, buf);
  }

  private static check(dir: string, header: IndexHeader, k: keyof typeof FILES, buf: Buffer): Buffer {
    const want = header.files?.[k]?.bytes;
    if (want !== buf.length) throw new IndexError(`index ${dir} is corrupt: ${FILES[k]} has ${buf.length} bytes, the header says ${want}; rebuild it with \`npm run index:build\``);
    return buf;
  }

  get count(): number { return this.header.count; }

  kind(id: number): EntryKind { return ENTRY_KINDS[this.kindOf[id]]; }

  entry(id: number): IndexEntry {
    let e = this.cache.get(id);
    if (!e) {
      e = this.parse(id);
      if (this.cache.size > 5000) this.cache.clear();
      this.cache.set(id, e);
    }
    return e;
  }

  /**
   * An entry for a pass over many of them (background preparation): not cached. Through the
   * cache, every entry of a 45k pass lived long enough to reach V8's old space and left ~100 MB
   * of garbage there, which grew the server's resident memory by as much; not cached, each dies young.
   */
  peek(id: number): IndexEntry {
    return this.cache.get(id) ?? this.parse(id);
  }

  /** An entry's title, for passes over every entry: from the build's digest, without parsing the entry. */
  title(id: number): string {
    return this.digest?.titles[id] ?? this.peek(id).title;
  }

  /** What the statement `id` cites, from the build's digest (undefined without one: see citationsOf). */
  digestCitations(id: number): readonly number[] | undefined {
    const [a] = this.header.kinds.statement;
    return this.digest?.cites[id - a];
  }

  private parse(id: number): IndexEntry {
    const line = this.entryFile.read(this.offsets[id], this.offsets[id + 1]);
    try { return JSON.parse(line) as IndexEntry; } catch { throw new IndexError(`index ${this.dir} is corrupt: entry ${id} is not valid JSON; rebuild it with \`npm run index:build\``); }
  }

  /** Closes the entry file (reopened by the next entry read); the builder closes before it moves the folder. */
  close(): void { this.entryFile.close(); }

  sourceOf(e: IndexEntry) { return this.header.sources[e.source]; }

  /** Dequantised row (for tests and for callers that need a stored vector). */
  vector(id: number): Float32Array {
    const d = this.header.dim;
    const out = new Float32Array(d);
    const s = this.scales[id];
    for (let j = 0; j < d; j++) out[j] = this.matrix[id * d + j] * s;
    return out;
  }

  /**
   * The query's distinct terms with their BM25 weight (IDF over the kind, times k1 + 1) and the
   * kind's part [lo, hi) of their posting lists; one formula for the index's entries and for
   * texts outside it (externalScores).
   */
  private kindTerms(ids: readonly number[], kind: EntryKind): Array<{ term: number; w: number; lo: number; hi: number }> {
    const [ka, kb] = this.header.kinds[kind];
    const n = kb - ka;
    const out: Array<{ term: number; w: number; lo: number; hi: number }> = [];
    for (const term of new Set(ids)) {
      if (term < FIRST_TERM_ID || term >= this.header.vocabSize) continue;
      const s = this.termOffsets[term], e = this.termOffsets[term + 1];
      // posting lists are ascending: the kind's part is found by binary search
      const lo = lowerBound(this.docs, s, e, ka), hi = lowerBound(this.docs, lo, e, kb);
      const df = hi - lo;
      out.push({ term, w: Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (BM25_K1 + 1), lo, hi });
    }
    return out;
  }

  /** Calls `each(id, tf)` for every entry in [a, b) that holds `term` (its BM25 postings). */
  postings(term: number, a: number, b: number, each: (id: number, tf: number) => void): void {
    if (term < FIRST_TERM_ID || term >= this.header.vocabSize) return;
    const s = this.termOffsets[term], e = this.termOffsets[term + 1];
    const from = lowerBound(this.docs, s, e, a), to = lowerBound(this.docs, from, e, b);
    for (let i = from; i < to; i++) each(this.docs[i], this.tfs[i]);
  }

  /** BM25 scores of the ids in [a, b) (dense, indexed from a). */
  bm25Range(ids: readonly number[], kind: EntryKind, a: number, b: number): Float32Array {
    const out = new Float32Array(b - a);
    const docs = this.docs, tfs = this.tfs, norm = this.lengthNorm;
    for (const { w, lo, hi } of this.kindTerms(ids, kind)) {
      if (hi === lo) continue;
      const from = lowerBound(docs, lo, hi, a), to = lowerBound(docs, from, hi, b);
      for (let i = from; i < to; i++) {
        const d = docs[i], tf = tfs[i];
        out[d - a] += w * tf / (tf + norm[d]);
      }
    }
    return out;
  }

  cosineRange(vec: Float32Array, a: number, b: number): Float32Array {
    const out = new Float32Array(b - a);
    this.cosineInto(vec, out, a, a, b);
    return out;
  }

  /** `cosineRange`, pausing (`yield`) every COSINE_ROWS_PER_PAUSE rows. */
  private *cosineSteps(vec: Float32Array, a: number, b: number): Generator<void, Float32Array> {
    const out = new Float32Array(b - a);
    for (let from = a; from < b; from += COSINE_ROWS_PER_PAUSE) {
      this.cosineInto(vec, out, a, from, Math.min(b, from + COSINE_ROWS_PER_PAUSE));
      yield;
    }
    return out;
  }

  /** Cosines of rows [from, to) into `out` (indexed from `a`). */
  private cosineInto(vec: Float32Array, out: Float32Array, a: number, from: number, to: number): void {
    const d = this.header.dim;
    const m = this.matrix, sc = this.scales;
    const d4 = d - (d % 4);
    for (let i = from; i < to; i++) {
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      const o = i * d;
      let j = 0;
      for (; j < d4; j += 4) {
        s0 += vec[j] * m[o + j]; s1 += vec[j + 1] * m[o + j + 1];
        s2 += vec[j + 2] * m[o + j + 2]; s3 += vec[j + 3] * m[o + j + 3];
      }
      for (; j < d; j++) s0 += vec[j] * m[o + j];
      out[i - a] = (s0 + s1 + s2 + s3) * sc[i];
    }
  }

  /**
   * Scores texts outside the index (a workspace's statements) as `search` scores the kind's
   * entries for `q`: BM25 with the kind's document frequencies and average length, and the
   * fusion standardised by the kind's own score distribution for this query, so that a text
   * and an entry that match equally well score equally (a workspace of three lemmas has no
   * distribution of its own to standardise by).
   */
  externalScores(q: Query, kind: EntryKind, texts: ReadonlyArray<readonly number[]>, vecs?: ReadonlyArray<Float32Array | undefined>): Float32Array {
    const [a, b] = this.header.kinds[kind];
    const out = new Float32Array(texts.length);
    if (b <= a) return out;
    const avg = this.header.avgLength[kind] || 1;
    const weight = new Map(this.kindTerms(q.ids, kind).map((t) => [t.term, t.w]));
    const bmExt = texts.map((ids) => {
      const tf = new Map<number, number>();
      for (const t of ids) if (weight.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
      const norm = BM25_K1 * (1 - BM25_B + BM25_B * ids.length / avg);
      let sc = 0;
      for (const [t, f] of tf) sc += weight.get(t)! * f / (f + norm);
      return sc;
    });
    const useVec = !!q.vec && this.header.modelVersion !== '' && q.vec.length === this.header.dim;
    if (!useVec) { bmExt.forEach((v, i) => { out[i] = v; }); return out; }
    const [mb, sb] = meanSd(this.bm25Range(q.ids, kind, a, b));
    const [mc, sc] = meanSd(this.cosineRange(q.vec!, a, b));
    texts.forEach((_, i) => {
      const v = vecs?.[i];
      let cos = mc;
      if (v && v.length === q.vec!.length) { cos = 0; for (let j = 0; j < v.length; j++) cos += v[j] * q.vec![j]; }
      out[i] = (bmExt[i] - mb) / sb + (cos - mc) / sc;
    });
    return out;
  }

  /** Exact hybrid search over one kind. */
  search(q: Query, kind: EntryKind, opts: SearchOptions = {}): Hit[] {
    return drain(this.searchSteps(q, kind, opts));
  }

  /**
   * `search`, pausing (`yield`) between its passes over the kind's entries and within the
   * longest: a search made in the background gives way to requests a slice at a time.
   */
  *searchSteps(q: Query, kind: EntryKind, opts: SearchOptions = {}): Generator<void, Hit[]> {
    const [a, b] = this.header.kinds[kind];
    if (b <= a) return [];
    const useVec = !!q.vec && this.header.modelVersion !== '' && q.vec.length === this.header.dim;
    const bm = this.bm25Range(q.ids, kind, a, b);
    yield;
    const cos = useVec ? yield* this.cosineSteps(q.vec!, a, b) : undefined;
    const plain = cos ? fuseZ(bm, cos) : bm;
    yield;
    const fused = opts.combine?.(bm, cos, plain, a) ?? plain;
    yield;
    const allowed = opts.sources ? new Set(this.header.sources.map((s, i) => (opts.sources!.has(s.id) ? i : -1)).filter((i) => i >= 0)) : undefined;
    const cand = opts.only ? opts.only.filter((id) => id >= a && id < b).map((id) => id - a) : undefined;
    const limit = opts.limit ?? 10;
    const top = topK(fused, limit + (opts.exclude?.size ?? 0) + (allowed ? 200 : 0), cand);
    const hits: Hit[] = [];
    for (const i of top) {
      const id = a + i;
      if (opts.exclude?.has(id)) continue;
      if (allowed && !allowed.has(this.entry(id).source)) continue;
      hits.push({ id, score: round(fused[i]), bm25: round(bm[i]), cosine: cos ? round(cos[i]) : undefined });
      if (hits.length >= limit) break;
    }
    return hits;
  }
}

/** Rows of the embedding matrix between pauses of a search made in slices. */
const COSINE_ROWS_PER_PAUSE = 4096;

const round = (x: number) => Math.round(x * 1000) / 1000;

function lowerBound(arr: Uint32Array, lo: number, hi: number, x: number): number {
  while (lo < hi) { const m = (lo + hi) >>> 1; if (arr[m] < x) lo = m + 1; else hi = m; }
  return lo;
}


/**
 * What passes over every entry read of it, written at build time (the builder's writeDigest):
 * every entry's title and what each statement cites (its premises and its proofs' references).
 * Parsing 45k entries for them took the server a second, which a request that came first waited for.
 */
export interface IndexDigest {
  count: number;
  titles: string[];
  /** Per statement, from the first statement id. */
  cites: number[][];
}
export const DIGEST_FILE = 'digest.json';

function readDigest(h: IndexHeader, buf: Buffer): IndexDigest | string {
  if (buf.length !== h.digest?.bytes) return `has ${buf.length} bytes, the header says ${h.digest?.bytes}`;
  let d: IndexDigest;
  try { d = JSON.parse(buf.toString('utf8')) as IndexDigest; } catch { return 'is not valid JSON'; }
  const [a, b] = h.kinds.statement;
  if (d.count !== h.count || !Array.isArray(d.titles) || d.titles.length !== h.count || !Array.isArray(d.cites) || d.cites.length !== b - a) return 'does not match the index';
  return d;
}
