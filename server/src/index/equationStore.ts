// Display equations of the bundled index (ProofWiki theorem statements and proofs), written by
// `mathsense index build` next to the entries and searched with the workspace's equations:
//
//   equations.ndjson   one {e: entry id, latex} per line (read when shown)
//   equations.idx      Uint32[count + 1] byte offsets of the lines
//   equations.bin      Uint32[count] entry ids, Uint32[count + 1] token offsets, Uint32[count]
//                      distinct bigrams per equation, Uint32[K] bigram codes (sorted), Uint32[K + 1]
//                      posting offsets, Uint32[P] postings (equation ids per code, ascending),
//                      Uint16[T] canonical token ids (padded to 4 bytes), Float32[count] vector
//                      scales, Int8[count * dim] vectors
//   equations.keys.json  {tokens: token table, bigrams: K, difference: (key|null)[], sides: [[key, weight]][], identity: ids}
//
// Each equation keeps its page through the entry (title, URL, licence line). Vectors are the
// formula encoder's (dim 0 when the index was built without it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EmbeddingCache, embedThroughCache } from '../embeddings/embeddingCache.js';
import { EncoderSession } from '../embeddings/encoderSession.js';
import { FORMULA_ENCODER_DIR, loadEncoderFiles } from '../embeddings/modelFiles.js';
import { analyserSignature, FEATURES_VERSION, formulaEncoderInput, type EquationFeatures, type SideKey } from './equationFeatures.js';
import { shapeFeatures } from '../math/equations/structural.js';
import { TokenTable, type EquationCorpus } from './equationRanking.js';
import { IndexError, quantise, view, type IndexEntry } from './format.js';
import { proofWikiEquations } from './proofwikiEquations.js';
import { analyseMany } from './equationAnalysis.js';
import { createHash } from 'node:crypto';

export const EQUATION_FILES = { lines: 'equations.ndjson', offsets: 'equations.idx', data: 'equations.bin', keys: 'equations.keys.json' } as const;

/** Layout of the equation files; an index with another one is rebuilt, not misread. */
export const EQUATIONS_LAYOUT = 2;

export interface EquationsHeader {
  /** EQUATIONS_LAYOUT of the build (absent: layout 1, before bigram postings). */
  layout?: number;
  count: number;
  /** Formula-encoder vector size; 0 when built without the model. */
  dim: number;
  /** Formula-encoder version of the vectors ('' without). */
  modelVersion: string;
  featuresVersion: number;
  files: Record<keyof typeof EQUATION_FILES, { name: string; bytes: number }>;
  buildMs: number;
  stats: Record<string, number>;
}

interface KeysFile { tokens: string[]; bigrams: number; difference: Array<string | null>; sides: Array<Array<[string, number]>>; identity: number[] }

/** Same equation on more pages than this: only the first pages keep it (statements come first). */
const MAX_COPIES = 3;
/** Fewer canonical tokens than this: too small to be worth finding (`x = 0`). */
const MIN_TOKENS = 4;

export interface EquationSourceEntry { id: number; kind: IndexEntry['kind']; source: string; text: string }

/**
 * Extracts, analyses, deduplicates and embeds the equations of the ProofWiki entries, and
 * writes the files into `dir`. Returns the header section (undefined when there are none).
 */
export async function buildIndexEquations(o: {
  dir: string; entries: EquationSourceEntry[]; modelsDir?: string; noVectors?: boolean; cacheDir?: string | null; threads?: number;
  progress?: (phase: string, done: number, total: number) => void; log?: (m: string) => void;
}): Promise<EquationsHeader | undefined> {
  const t0 = performance.now();
  const progress = o.progress ?? (() => {});
  const log = o.log ?? (() => {});
  // ---- extract
  const found: Array<{ e: number; latex: string }> = [];
  for (const en of o.entries) {
    if (en.source !== 'proofwiki' || (en.kind !== 'statement' && en.kind !== 'proof')) continue;
    for (const latex of new Set(proofWikiEquations(en.text))) found.push({ e: en.id, latex });
  }
  if (found.length === 0) return undefined;
  // ---- analyse each distinct text once (worker threads; features of earlier builds from the cache)
  const distinct = [...new Set(found.map((x) => x.latex))];
  const cache = o.cacheDir === null || o.cacheDir === undefined ? undefined : new FeatureCache(o.cacheDir);
  const feats = new Map<string, EquationFeatures>();
  const todo: string[] = [];
  for (const latex of distinct) {
    const f = cache?.get(latex);
    if (f) feats.set(latex, f); else todo.push(latex);
  }
  log(`equations: analysing ${todo.length} formulas (${distinct.length - todo.length} from the cache)`);
  progress('analysing equations', 0, todo.length);
  const fresh = await analyseMany(todo, { threads: o.threads, progress: (d, t) => progress('analysing equations', d, t), log });
  todo.forEach((latex, i) => { feats.set(latex, fresh[i]); cache?.set(latex, fresh[i]); });
  cache?.flush();
  // ---- keep: not trivial, at most MAX_COPIES pages per canonical text
  const copies = new Map<string, number>();
  const kept = found.filter((x) => {
    const f = feats.get(x.latex)!;
    if (f.tokens.length < MIN_TOKENS) return false;
    const n = copies.get(f.canonical) ?? 0;
    copies.set(f.canonical, n + 1);
    return n < MAX_COPIES;
  });
  const count = kept.length;
  // ---- vectors (formula encoder, when present)
  let dim = 0;
  let modelVersion = '';
  let scales = new Float32Array(0);
  let matrix = new Int8Array(0);
  let hasModel = false;
  try { loadEncoderFiles(o.modelsDir, { model: FORMULA_ENCODER_DIR, verifyHash: false }); hasModel = true; } catch (e) { log(`equations: no formula encoder (${(e as Error).message}): fingerprints and structure only`); }
  if (hasModel && !o.noVectors) {
    const enc = await EncoderSession.load(o.modelsDir, { model: FORMULA_ENCODER_DIR, accelerator: 'cpu', threads: 2 });
    modelVersion = enc.info.version;
    dim = enc.info.dim;
    const cache = o.cacheDir === null ? undefined : new EmbeddingCache(modelVersion, dim, o.cacheDir);
    // sorted by length, so batches are of similar length: little padding to compute
    const texts = [...new Set(kept.map((x) => feats.get(x.latex)!.canonical))].sort((a, b) => a.length - b.length);
    const inputs = texts.map(formulaEncoderInput);
    const vs = await embedThroughCache(cache, inputs, (part) => enc.embedTexts(part.map((i) => inputs[i])), (s, todo) => {
      if (s === 0) log(`equations: embedding ${todo} formulas (${texts.length - todo} from the cache)`);
      if (s % 1280 === 0 && s < todo) progress('embedding equations', s, todo);
    });
    const vec = new Map(texts.map((t, i) => [t, vs[i]]));
    await enc.release();
    scales = new Float32Array(count);
    matrix = new Int8Array(count * dim);
    kept.forEach((x, i) => quantise(vec.get(feats.get(x.latex)!.canonical)!, i, matrix, scales, dim));
  }
  // ---- write
  const lines = kept.map((x) => Buffer.from(JSON.stringify({ e: x.e, latex: x.latex }) + '\n', 'utf8'));
  const offsets = new Uint32Array(count + 1);
  lines.forEach((b, i) => { offsets[i + 1] = offsets[i] + b.length; });
  const table = new TokenTable();
  const codes = kept.map((x) => table.codes(feats.get(x.latex)!.tokens, true));
  const tokIds = kept.map((x) => Uint16Array.from(feats.get(x.latex)!.tokens, (t) => table.id(t, true)!));
  const tOff = new Uint32Array(count + 1);
  tokIds.forEach((t, i) => { tOff[i + 1] = tOff[i] + t.length; });
  // bigram postings: a query touches only the equations that share a bigram with it
  const df = new Map<number, number>();
  for (const c of codes) for (const x of c) df.set(x, (df.get(x) ?? 0) + 1);
  const codeKeys = Uint32Array.from(df.keys()).sort();
  const postOff = new Uint32Array(codeKeys.length + 1);
  codeKeys.forEach((k, i) => { postOff[i + 1] = postOff[i] + df.get(k)!; });
  const slot = new Map<number, number>();
  codeKeys.forEach((k, i) => slot.set(k, postOff[i]));
  const postings = new Uint32Array(postOff[codeKeys.length]);
  codes.forEach((c, id) => { for (const x of c) { const at = slot.get(x)!; postings[at] = id; slot.set(x, at + 1); } });
  const perEq = Uint32Array.from(codes, (c) => c.length);
  const allTokens = new Uint16Array(tOff[count] + (tOff[count] % 2)); // 4-byte aligned after it
  tokIds.forEach((t, i) => allTokens.set(t, tOff[i]));
  const keys: KeysFile = { tokens: table.list, bigrams: codeKeys.length, difference: [], sides: [], identity: [] };
  kept.forEach((x, i) => {
    const f = feats.get(x.latex)!;
    keys.difference.push(f.difference ?? null);
    keys.sides.push(f.sides.map((s) => [s.key, s.weight]));
    if (f.identity) keys.identity.push(i);
  });
  const bufs: Record<keyof typeof EQUATION_FILES, Buffer> = {
    lines: Buffer.concat(lines),
    offsets: Buffer.from(offsets.buffer),
    data: Buffer.concat([Buffer.from(Uint32Array.from(kept, (x) => x.e).buffer), Buffer.from(tOff.buffer), Buffer.from(perEq.buffer), Buffer.from(codeKeys.buffer), Buffer.from(postOff.buffer), Buffer.from(postings.buffer), Buffer.from(allTokens.buffer), Buffer.from(scales.buffer), Buffer.from(matrix.buffer)]),
    keys: Buffer.from(JSON.stringify(keys)),
  };
  const files = {} as EquationsHeader['files'];
  for (const k of Object.keys(EQUATION_FILES) as Array<keyof typeof EQUATION_FILES>) {
    fs.writeFileSync(path.join(o.dir, EQUATION_FILES[k]), bufs[k]);
    files[k] = { name: EQUATION_FILES[k], bytes: bufs[k].length };
  }
  const withFp = kept.filter((x) => { const f = feats.get(x.latex)!; return !!f.difference || f.sides.length > 0; }).length;
  const buildMs = Math.round(performance.now() - t0);
  log(`equations: ${found.length} display equations found, ${distinct.length} distinct, ${count} kept (${withFp} with a fingerprint), ${dim ? `${dim}-dim vectors` : 'no vectors'}, ${(buildMs / 1000).toFixed(1)} s`);
  return { layout: EQUATIONS_LAYOUT, count, dim, modelVersion, featuresVersion: FEATURES_VERSION, files, buildMs, stats: { found: found.length, distinct: distinct.length, kept: count, withFingerprint: withFp } };
}

/**
 * Features of earlier builds, by text, in one append-only file per analyser signature
 * (`equations-<signature>.ndjson` in the embedding cache folder): a rebuild analyses only new texts.
 */
class FeatureCache {
  private readonly file: string;
  private readonly mem = new Map<string, EquationFeatures>();
  private pending: string[] = [];

  constructor(dir: string) {
    this.file = path.join(dir, `equations-${analyserSignature()}.ndjson`);
    try {
      fs.mkdirSync(dir, { recursive: true });
      if (!fs.existsSync(this.file)) return;
      for (const line of fs.readFileSync(this.file, 'utf8').split('\n')) {
        if (!line) continue;
        try { const r = JSON.parse(line) as { h: string; f: EquationFeatures }; this.mem.set(r.h, r.f); } catch { /* a torn last line */ }
      }
    } catch {
      this.mem.clear(); // unreadable: it is only a cache
    }
  }

  private key(latex: string): string { return createHash('sha1').update(latex).digest('base64'); }
  get(latex: string): EquationFeatures | undefined { return this.mem.get(this.key(latex)); }
  set(latex: string, f: EquationFeatures): void { this.pending.push(JSON.stringify({ h: this.key(latex), f })); }

  flush(): void {
    if (!this.pending.length) return;
    try { fs.appendFileSync(this.file, this.pending.join('\n') + '\n'); } catch { /* read-only: no cache */ }
    this.pending = [];
  }
}

export interface IndexEquationLine { e: number; latex: string }

/** The loaded equations of an index: an EquationCorpus whose ids are equation numbers. */
export class IndexEquations implements EquationCorpus {
  readonly entryIds: Uint32Array;
  private readonly tOff: Uint32Array;
  private readonly tokenIds: Uint16Array;
  private readonly perEq: Uint32Array;
  private readonly codeKeys: Uint32Array;
  private readonly postOff: Uint32Array;
  private readonly postings: Uint32Array;
  private readonly table: TokenTable;
  private readonly scales: Float32Array;
  private readonly matrix: Int8Array;
  private readonly offsets: Uint32Array;
  private readonly byDiff = new Map<string, number[]>();
  private readonly bySide = new Map<string, number[]>();
  private readonly keys: KeysFile;
  private readonly identity: Uint8Array;
  private readonly lineCache = new Map<number, IndexEquationLine>();
  private fd: number | undefined;

  private constructor(readonly dir: string, readonly header: EquationsHeader, bufs: Record<keyof typeof EQUATION_FILES, Buffer>) {
    const n = header.count, d = header.dim;
    this.offsets = view(bufs.offsets, Uint32Array, 0, n + 1);
    if (this.offsets[n] !== header.files.lines.bytes) throw new IndexError(`index ${dir} is corrupt: ${EQUATION_FILES.offsets} does not match ${EQUATION_FILES.lines}; rebuild it with \`mathsense index build\``);
    const data = bufs.data;
    this.entryIds = view(data, Uint32Array, 0, n);
    this.tOff = view(data, Uint32Array, n * 4, n + 1);
    this.keys = JSON.parse(bufs.keys.toString('utf8')) as KeysFile;
    const k = this.keys.bigrams ?? 0;
    let at = (2 * n + 1) * 4;
    this.perEq = view(data, Uint32Array, at, n); at += n * 4;
    this.codeKeys = view(data, Uint32Array, at, k); at += k * 4;
    this.postOff = view(data, Uint32Array, at, k + 1); at += (k + 1) * 4;
    const p = this.postOff[k] ?? 0;
    this.postings = view(data, Uint32Array, at, p); at += p * 4;
    const t = this.tOff[n] + (this.tOff[n] % 2);
    this.tokenIds = view(data, Uint16Array, at, t); at += t * 2;
    this.scales = d ? view(data, Float32Array, at, n) : new Float32Array(0);
    this.matrix = d ? view(data, Int8Array, at + n * 4, n * d) : new Int8Array(0);
    if (data.length !== at + (d ? n * 4 + n * d : 0)) throw new IndexError(`index ${dir} is corrupt: ${EQUATION_FILES.data} has the wrong size; rebuild it with \`mathsense index build\``);
    this.table = new TokenTable(this.keys.tokens);
    this.identity = new Uint8Array(n);
    for (const i of this.keys.identity) this.identity[i] = 1;
    for (let i = 0; i < n; i++) {
      const k = this.keys.difference[i];
      if (k) push(this.byDiff, k, i);
      for (const [s] of this.keys.sides[i] ?? []) push(this.bySide, s, i);
    }
  }

  private static check(dir: string, header: EquationsHeader, k: keyof typeof EQUATION_FILES, buf: Buffer): Buffer {
    if (buf.length !== header.files[k].bytes) throw new IndexError(`index ${dir} is corrupt: ${EQUATION_FILES[k]} has ${buf.length} bytes, the header says ${header.files[k].bytes}; rebuild it with \`mathsense index build\``);
    return buf;
  }

  private static readError(dir: string, k: keyof typeof EQUATION_FILES, e: Error): IndexError {
    return new IndexError(`index file ${path.join(dir, EQUATION_FILES[k])} cannot be read (${e.message}); rebuild it with \`mathsense index build\``);
  }

  static load(dir: string, header: EquationsHeader): IndexEquations {
    const bufs = {} as Record<keyof typeof EQUATION_FILES, Buffer>;
    for (const k of ['offsets', 'data', 'keys'] as const) {
      try { bufs[k] = IndexEquations.check(dir, header, k, fs.readFileSync(path.join(dir, EQUATION_FILES[k]))); } catch (e) { throw e instanceof IndexError ? e : IndexEquations.readError(dir, k, e as Error); }
    }
    bufs.lines = Buffer.alloc(0);
    IndexEquations.statLines(dir, header);
    return IndexEquations.make(dir, header, bufs);
  }

  /** Inconsistent contents (offsets beyond the data) are a corrupt index, like wrong sizes. */
  private static make(dir: string, header: EquationsHeader, bufs: Record<keyof typeof EQUATION_FILES, Buffer>): IndexEquations {
    if ((header.layout ?? 1) !== EQUATIONS_LAYOUT) throw new IndexError(`index ${dir} has equations of layout ${header.layout ?? 1}, this MathSense reads ${EQUATIONS_LAYOUT}: rebuild it with \`mathsense index build\``);
    try {
      return new IndexEquations(dir, header, bufs);
    } catch (e) {
      if (e instanceof IndexError) throw e;
      throw new IndexError(`index ${dir} is corrupt: its equations cannot be read (${(e as Error).message}); rebuild it with \`mathsense index build\``);
    }
  }

  static async loadAsync(dir: string, header: EquationsHeader): Promise<IndexEquations> {
    const bufs = {} as Record<keyof typeof EQUATION_FILES, Buffer>;
    for (const k of ['offsets', 'data', 'keys'] as const) {
      const b = await fs.promises.readFile(path.join(dir, EQUATION_FILES[k])).catch((e: Error) => { throw IndexEquations.readError(dir, k, e); });
      bufs[k] = IndexEquations.check(dir, header, k, b);
    }
    bufs.lines = Buffer.alloc(0);
    IndexEquations.statLines(dir, header);
    return IndexEquations.make(dir, header, bufs);
  }

  private static statLines(dir: string, header: EquationsHeader): void {
    let n: number;
    try { n = fs.statSync(path.join(dir, EQUATION_FILES.lines)).size; } catch (e) { throw IndexEquations.readError(dir, 'lines', e as Error); }
    if (n !== header.files.lines.bytes) throw new IndexError(`index ${dir} is corrupt: ${EQUATION_FILES.lines} has ${n} bytes, the header says ${header.files.lines.bytes}; rebuild it with \`mathsense index build\``);
  }

  get size(): number { return this.header.count; }

  /** One equation's line (its entry id, LaTeX and shape), read from disk on demand. */
  line(id: number): IndexEquationLine {
    let l = this.lineCache.get(id);
    if (!l) {
      this.fd ??= fs.openSync(path.join(this.dir, EQUATION_FILES.lines), 'r');
      const a = this.offsets[id], b = this.offsets[id + 1];
      const buf = Buffer.allocUnsafe(b - a);
      fs.readSync(this.fd, buf, 0, buf.length, a);
      try { l = JSON.parse(buf.toString('utf8')) as IndexEquationLine; } catch { throw new IndexError(`index ${this.dir} is corrupt: equation ${id} is not valid JSON; rebuild it with \`mathsense index build\``); }
      if (this.lineCache.size > 5000) this.lineCache.clear();
      this.lineCache.set(id, l);
    }
    return l;
  }

  withDifference(key: string): readonly number[] { return this.byDiff.get(key) ?? []; }
  withSide(key: string): readonly number[] { return this.bySide.get(key) ?? []; }

  features(id: number): { sides: SideKey[]; difference?: string; identity: boolean } {
    const d = this.keys.difference[id];
    return { sides: (this.keys.sides[id] ?? []).map(([key, weight]) => ({ key, weight })), ...(d ? { difference: d } : {}), identity: this.identity[id] === 1 };
  }

  /** Canonical tokens of an equation. */
  tokens(id: number): string[] {
    const out: string[] = [];
    for (let k = this.tOff[id]; k < this.tOff[id + 1]; k++) out.push(this.table.list[this.tokenIds[k]]);
    return out;
  }

  shape(id: number): string[] { return shapeFeatures(this.tokens(id)); }

  shapeOverlap(tokens: readonly string[]): Float32Array {
    // |A ∩ B| / sqrt(|A| |B|) through the postings of the query's bigrams
    const q = this.table.codes(tokens, false);
    const n = this.header.count;
    const out = new Float32Array(n);
    for (const c of q) {
      let lo = 0, hi = this.codeKeys.length;
      while (lo < hi) { const m = (lo + hi) >>> 1; if (this.codeKeys[m] < c) lo = m + 1; else hi = m; }
      if (lo >= this.codeKeys.length || this.codeKeys[lo] !== c) continue;
      for (let j = this.postOff[lo]; j < this.postOff[lo + 1]; j++) out[this.postings[j]]++;
    }
    if (q.length) for (let i = 0; i < n; i++) if (out[i]) out[i] /= Math.sqrt(q.length * this.perEq[i]);
    return out;
  }

  cosines(vec: Float32Array): Float32Array | undefined {
    const d = this.header.dim;
    if (!d || vec.length !== d) return undefined;
    const n = this.header.count;
    const out = new Float32Array(n);
    const m = this.matrix;
    const d4 = d - (d % 4);
    for (let i = 0; i < n; i++) {
      // four accumulators: independent adds (as in store.ts#cosineRange)
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      const o = i * d;
      let j = 0;
      for (; j < d4; j += 4) { s0 += vec[j] * m[o + j]; s1 += vec[j + 1] * m[o + j + 1]; s2 += vec[j + 2] * m[o + j + 2]; s3 += vec[j + 3] * m[o + j + 3]; }
      for (; j < d; j++) s0 += vec[j] * m[o + j];
      out[i] = (s0 + s1 + s2 + s3) * this.scales[i];
    }
    return out;
  }
}

function push(m: Map<string, number[]>, k: string, i: number): void {
  const l = m.get(k);
  if (l) l.push(i); else m.set(k, [i]);
}
