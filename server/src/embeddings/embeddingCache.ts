// On-disk embedding cache: one append-only file per model version, records of
// [16-byte key][dim float32]. The key hashes the model version and the text, so a new model
// never reads old vectors. Loaded once into memory; bounded by `maxEntries` (then reset).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { MODEL_VERSION } from './modelFiles.js';

const KEY_BYTES = 16;

export class EmbeddingCache {
  private readonly mem = new Map<string, Float32Array>();
  private readonly file: string | undefined;
  private pending: Buffer[] = [];
  hits = 0;
  misses = 0;

  constructor(readonly modelVersion: string, readonly dim: number, dir?: string, private readonly maxEntries = 200_000) {
    // the name is made of the model's version: one that is no hash stays in memory only, so
    // nothing outside the cache folder is ever appended to or deleted
    if (!dir || !MODEL_VERSION.test(modelVersion) || !Number.isInteger(dim) || dim <= 0) return;
    this.file = path.join(dir, `embeddings-${modelVersion}-${dim}.bin`);
    try {
      fs.mkdirSync(dir, { recursive: true });
      if (fs.existsSync(this.file)) this.read(fs.readFileSync(this.file));
    } catch {
      this.mem.clear(); // unreadable cache: start empty, it is only a cache
    }
  }

  key(text: string): string {
    return createHash('sha256').update(`${this.modelVersion}\n${text}`).digest('hex').slice(0, KEY_BYTES * 2);
  }

  get(key: string): Float32Array | undefined {
    const v = this.mem.get(key);
    if (v) this.hits++; else this.misses++;
    return v;
  }

  set(key: string, v: Float32Array): void {
    if (v.length !== this.dim || this.mem.has(key)) return;
    if (this.mem.size >= this.maxEntries) { this.mem.clear(); this.pending = []; if (this.file) fs.rmSync(this.file, { force: true }); }
    this.mem.set(key, v);
    if (this.file) this.pending.push(Buffer.from(key, 'hex'), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  }

  /** Appends new records to disk (called after each batch, not per vector). */
  flush(): void {
    if (!this.file || this.pending.length === 0) return;
    try { fs.appendFileSync(this.file, Buffer.concat(this.pending)); } catch { /* read-only disk: memory only */ }
    this.pending = [];
  }

  get size(): number { return this.mem.size; }

  private read(buf: Buffer): void {
    const rec = KEY_BYTES + this.dim * 4;
    for (let o = 0; o + rec <= buf.length; o += rec) {
      const v = new Float32Array(this.dim);
      Buffer.from(v.buffer).set(buf.subarray(o + KEY_BYTES, o + rec));
      this.mem.set(buf.toString('hex', o, o + KEY_BYTES), v);
    }
  }
}

/**
 * Vectors for items through a cache: cached ones are read, the others embedded by `embed`
 * (given item indices, batches of 64) and written back, flushed every 20 batches and at the
 * end. `keys[i]` is the text item i is cached under; without a cache every item is embedded.
 * `progress(done, todo)` is called before each batch and once at the end. With `lengthOf`, the
 * items are embedded shortest first: a batch is padded to its longest item, so batches of
 * similar lengths compute little padding.
 */
export async function embedThroughCache(cache: EmbeddingCache | undefined, keys: readonly string[], embed: (items: number[]) => Promise<Float32Array[]>, progress?: (done: number, todo: number) => void, lengthOf?: (item: number) => number): Promise<Float32Array[]> {
  const out = new Array<Float32Array>(keys.length);
  const hashes = cache ? keys.map((k) => cache.key(k)) : [];
  const todo: number[] = [];
  keys.forEach((_, i) => { const v = cache?.get(hashes[i]); if (v) out[i] = v; else todo.push(i); });
  if (lengthOf) {
    const len = new Map(todo.map((i) => [i, lengthOf(i)]));
    todo.sort((a, b) => len.get(a)! - len.get(b)! || a - b);
  }
  for (let s = 0; s < todo.length; s += 64) {
    progress?.(s, todo.length);
    const part = todo.slice(s, s + 64);
    const vs = await embed(part);
    part.forEach((i, j) => { out[i] = vs[j]; cache?.set(hashes[i], vs[j]); });
    if (s % 1280 === 0) cache?.flush();
  }
  cache?.flush();
  progress?.(todo.length, todo.length);
  return out;
}
