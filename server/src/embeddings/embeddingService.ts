// Main-thread side of the embeddings: starts the worker lazily, batches requests (up to 64
// texts per inference call), and answers repeated texts from the on-disk cache. When the model
// is missing or corrupt, `start` rejects with a clear message and `status` says "unavailable";
// features that need embeddings check `available` and switch themselves off.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { EmbeddingCache } from './embeddingCache.js';
import type { EncoderInfo } from './encoderSession.js';
import type { Accelerator } from './providers.js';
import type { WorkerInit, WorkerReply } from './embeddingWorker.js';
import { findModelsDir, moduleDir } from './modelFiles.js';

export interface EmbeddingServiceOptions {
  accelerator?: Accelerator;
  /** Explicit models folder (setting `mathsense.models.path`); default: found next to the server. */
  modelsDir?: string;
  /** Model folder inside it (default mathsense-encoder; formula-encoder for equations). */
  model?: string;
  /** Where the embedding cache lives; `null` disables the disk cache. */
  cacheDir?: string | null;
  threads?: number;
  batchSize?: number;
  log?: (msg: string) => void;
}

export interface EmbeddingStatus {
  state: 'idle' | 'loading' | 'ready' | 'unavailable';
  provider?: string;
  fallbacks?: Array<{ provider: string; error: string }>;
  modelVersion?: string;
  loadMs?: number;
  message?: string;
  cache?: { entries: number; hits: number; misses: number };
}

export function defaultCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'mathsense');
}

function workerPath(): string {
  const dir = moduleDir();
  // ESM build: out/embeddings/embeddingWorker.js; bundle: dist/embeddingWorker.cjs
  for (const f of ['embeddingWorker.js', 'embeddingWorker.cjs']) if (fs.existsSync(path.join(dir, f))) return path.join(dir, f);
  return path.join(dir, 'embeddingWorker.js');
}

interface Pending { text: string; key?: string; resolve: (v: Float32Array) => void; reject: (e: Error) => void }

export class EmbeddingService {
  private worker: Worker | undefined;
  private ready: Promise<EncoderInfo> | undefined;
  private info: EncoderInfo | undefined;
  private failure: string | undefined;
  private cache: EmbeddingCache | undefined;
  private queue: Pending[] = [];
  private flushScheduled = false;
  private nextId = 1;
  private readonly inflight = new Map<number, { items: Pending[] }>();

  constructor(private readonly opts: EmbeddingServiceOptions = {}) {}

  get available(): boolean { return !!this.info; }

  status(): EmbeddingStatus {
    const cache = this.cache ? { entries: this.cache.size, hits: this.cache.hits, misses: this.cache.misses } : undefined;
    if (this.failure) return { state: 'unavailable', message: this.failure };
    if (this.info) return { state: 'ready', provider: this.info.provider, fallbacks: this.info.fallbacks, modelVersion: this.info.version, loadMs: Math.round(this.info.loadMs), cache };
    return { state: this.ready ? 'loading' : 'idle' };
  }

  /** Starts the worker once; resolves with the model info or rejects with why it cannot run. */
  start(): Promise<EncoderInfo> {
    if (this.ready) return this.ready;
    const log = this.opts.log ?? (() => {});
    this.ready = new Promise<EncoderInfo>((resolve, reject) => {
      const init: WorkerInit = { modelsDir: this.opts.modelsDir ?? findModelsDir(), model: this.opts.model, accelerator: this.opts.accelerator ?? 'auto', threads: this.opts.threads ?? 1 };
      const w = new Worker(workerPath(), { workerData: init });
      this.worker = w;
      w.unref();
      w.on('message', (m: WorkerReply) => {
        if (m.type === 'log') log(m.message);
        else if (m.type === 'ready') {
          this.info = m.info;
          const dir = this.opts.cacheDir === null ? undefined : this.opts.cacheDir ?? defaultCacheDir();
          this.cache = new EmbeddingCache(m.info.version, m.info.dim, dir);
          resolve(m.info);
        } else if (m.type === 'result') this.settle(m.id, m.vectors);
        else if (m.type === 'error' && m.id !== undefined) this.settle(m.id, undefined, m.message);
        else if (m.type === 'error') this.fail(`embeddings unavailable: ${m.message}`, reject);
      });
      w.on('error', (e) => this.fail(`embedding worker failed: ${e.message}`, reject));
      w.on('exit', (code) => { if (!this.failure && code !== 0) this.fail(`embedding worker exited with code ${code}`, reject); });
    });
    this.ready.catch(() => {}); // callers that only read status() must not see an unhandled rejection
    return this.ready;
  }

  private fail(message: string, reject: (e: Error) => void): void {
    if (!this.failure) (this.opts.log ?? (() => {}))(message);
    this.failure = message;
    reject(new Error(message));
    for (const p of this.queue) p.reject(new Error(message));
    this.queue = [];
    for (const { items } of this.inflight.values()) for (const p of items) p.reject(new Error(message));
    this.inflight.clear();
    void this.worker?.terminate();
  }

  /** Embeds texts (L2-normalised vectors), batched with other concurrent requests. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    await this.start();
    return Promise.all(texts.map((text) => new Promise<Float32Array>((resolve, reject) => {
      const key = this.cache?.key(text);
      const hit = key ? this.cache!.get(key) : undefined;
      if (hit) { resolve(hit); return; }
      this.queue.push({ text, key, resolve, reject });
      this.schedule();
    })));
  }

  private schedule(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const size = this.opts.batchSize ?? 64;
      while (this.queue.length) {
        const items = this.queue.splice(0, size);
        const id = this.nextId++;
        this.inflight.set(id, { items });
        this.worker!.postMessage({ type: 'embed', id, texts: items.map((p) => p.text) });
      }
    });
  }

  private settle(id: number, vectors: Float32Array[] | undefined, error?: string): void {
    const batch = this.inflight.get(id);
    if (!batch) return;
    this.inflight.delete(id);
    batch.items.forEach((p, i) => {
      if (!vectors) { p.reject(new Error(error ?? 'embedding failed')); return; }
      if (p.key) this.cache!.set(p.key, vectors[i]);
      p.resolve(vectors[i]);
    });
    this.cache?.flush();
  }

  async dispose(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}
