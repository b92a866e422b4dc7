// The loaded display equations of the bundled index (files: equationsFormat.ts), searched with
// the workspace's equations. Each equation keeps its page through the entry (title, URL, licence
// line); the build is offline (scripts/src/indexBuild/equations.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SideKey } from './equationFeatures.js';
import { shapeFeatures } from '../math/equations/structural.js';
import { TokenTable, type EquationCorpus } from './equationRanking.js';
import { IndexError, view } from './format.js';
import { EQUATION_FILES, EQUATIONS_LAYOUT, type EquationsHeader, type KeysFile } from './equationsFormat.js';

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
    if (this.offsets[n] !== header.files.lines.bytes) throw new IndexError(`index ${dir} is corrupt: ${EQUATION_FILES.offsets} does not match ${EQUATION_FILES.lines}; rebuild it with \`npm run index:build\``);
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
    if (data.length !== at + (d ? n * 4 + n * d : 0)) throw new IndexError(`index ${dir} is corrupt: ${EQUATION_FILES.data} has the wrong size; rebuild it with \`npm run index:build\``);
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
    if (buf.length !== header.files[k].bytes) throw new IndexError(`index ${dir} is corrupt: ${EQUATION_FILES[k]} has ${buf.length} bytes, the header says ${header.files[k].bytes}; rebuild it with \`npm run index:build\``);
    return buf;
  }

  private static readError(dir: string, k: keyof typeof EQUATION_FILES, e: Error): IndexError {
    return new IndexError(`index file ${path.join(dir, EQUATION_FILES[k])} cannot be read (${e.message}); rebuild it with \`npm run index:build\``);
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
    if ((header.layout ?? 1) !== EQUATIONS_LAYOUT) throw new IndexError(`index ${dir} has equations of layout ${header.layout ?? 1}, this MathSense reads ${EQUATIONS_LAYOUT}: rebuild it with \`npm run index:build\``);
    try {
      return new IndexEquations(dir, header, bufs);
    } catch (e) {
      if (e instanceof IndexError) throw e;
      throw new IndexError(`index ${dir} is corrupt: its equations cannot be read (${(e as Error).message}); rebuild it with \`npm run index:build\``);
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
    if (n !== header.files.lines.bytes) throw new IndexError(`index ${dir} is corrupt: ${EQUATION_FILES.lines} has ${n} bytes, the header says ${header.files.lines.bytes}; rebuild it with \`npm run index:build\``);
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
      try { l = JSON.parse(buf.toString('utf8')) as IndexEquationLine; } catch { throw new IndexError(`index ${this.dir} is corrupt: equation ${id} is not valid JSON; rebuild it with \`npm run index:build\``); }
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
