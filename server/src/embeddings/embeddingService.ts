// Main-thread side of the embeddings: starts the worker lazily, batches requests (up to 64
// texts per inference call), and answers repeated texts from the on-disk cache. When the model
// is missing or corrupt, `start` rejects with a clear message and `status` says "unavailable";
// features that need embeddings check `available` and switch themselves off.
//
// Shutting down: onnxruntime must not be inside native code when its thread is torn down (the
// process aborts with `terminate called after throwing an instance of 'Napi::Error'`). `dispose`
// asks the worker to close (queued batches refused, the running one finished, the session
// released), waits for its answer, and only then terminates it; `disposeAll` does that for every
// live service (the language server's `shutdown`). Whatever way the process exits, a process
// 'exit' hook stops every live worker from starting native work and waits (bounded) for the
// running call to return (`halt`), so even `exit` without `shutdown` never lands mid-inference.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { EmbeddingCache } from './embeddingCache.js';
import type { EncoderInfo } from './encoderSession.js';
import type { Accelerator } from './providers.js';
import { BUSY, CONTROL_WORDS, STOP, type WorkerInit, type WorkerReply } from './workerMessages.js';
import { findModelsDir } from './modelFiles.js';
import { moduleDir } from '../util/packageRoot.js';
import { userCacheDir } from '../util/cacheDir.js';
import type { EmbeddingStatus } from '../ext/protocol.js';

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

function workerPath(): string {
  // bundle: moduleDir() is dist/, beside dist/embeddingWorker.cjs; ESM build: it is out/util/,
  // and the worker is out/embeddings/embeddingWorker.js
  const bundled = path.join(moduleDir(), 'embeddingWorker.cjs');
  return fs.existsSync(bundled) ? bundled : path.join(moduleDir(), '..', 'embeddings', 'embeddingWorker.js');
}

interface Pending { text: string; key?: string; resolve: (v: Float32Array) => void; reject: (e: Error) => void }


/** How long `dispose` waits for the worker to finish its batch and release the session. */
const CLOSE_WAIT_MS = 5000;
/** How long the process 'exit' hook blocks for a running native call to return. */
const EXIT_WAIT_MS = 5000;

/** Services whose worker is running (for `disposeAll` and the process 'exit' hook). */
const live = new Set<EmbeddingService>();
let exitHook = false;

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
  /** Shared with the worker: BUSY while it runs native code, STOP once it must start none. */
  private readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));
  private closing: Promise<void> | undefined;
  private exited = false;

  constructor(private readonly opts: EmbeddingServiceOptions = {}) {}

  /** Disposes every service with a running worker (in parallel); resolves when all are closed. */
  static async disposeAll(timeoutMs = CLOSE_WAIT_MS): Promise<void> {
    await Promise.all([...live].map((s) => s.dispose(timeoutMs)));
  }

  /** Whether the worker is inside onnxruntime right now (loading, inference, release). */
  get busy(): boolean { return Atomics.load(this.control, BUSY) === 1; }

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
    if (this.closing) return Promise.reject(new Error('embedding service closed'));
    const log = this.opts.log ?? (() => {});
    this.ready = new Promise<EncoderInfo>((resolve, reject) => {
      const init: WorkerInit = {
        modelsDir: this.opts.modelsDir ?? findModelsDir(), model: this.opts.model, accelerator: this.opts.accelerator ?? 'auto',
        threads: this.opts.threads ?? 1, control: this.control.buffer as SharedArrayBuffer,
      };
      const w = new Worker(workerPath(), { workerData: init });
      this.worker = w;
      w.unref();
      live.add(this);
      if (!exitHook) {
        exitHook = true;
        process.on('exit', () => { for (const s of live) s.halt(EXIT_WAIT_MS); });
      }
      w.on('message', (m: WorkerReply) => {
        if (m.type === 'log') log(m.message);
        else if (m.type === 'ready') {
          this.info = m.info;
          const dir = this.opts.cacheDir === null ? undefined : this.opts.cacheDir ?? userCacheDir();
          this.cache = new EmbeddingCache(m.info.version, m.info.dim, dir);
          resolve(m.info);
        } else if (m.type === 'result') this.settle(m.id, m.vectors);
        else if (m.type === 'error' && m.id !== undefined) this.settle(m.id, undefined, m.message);
        else if (m.type === 'error') this.fail(`embeddings unavailable: ${m.message}`, reject);
      });
      w.on('error', (e) => this.fail(`embedding worker failed: ${e.message}`, reject));
      w.on('exit', (code) => {
        this.exited = true;
        live.delete(this);
        if (!this.failure && !this.closing && code !== 0) this.fail(`embedding worker exited with code ${code}`, reject);
      });
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
    // a worker that failed to load runs no native code; one that fails later is closed in order
    if (!this.closing) void this.dispose();
  }

  /** Embeds texts (L2-normalised vectors), batched with other concurrent requests. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    await this.start();
    if (this.closing) throw new Error('embedding service closed');
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
      const w = this.worker;
      if (!w || this.closing) {
        for (const p of this.queue.splice(0)) p.reject(new Error(this.failure ?? 'embedding service closed'));
        return;
      }
      while (this.queue.length) {
        const items = this.queue.splice(0, size);
        const id = this.nextId++;
        this.inflight.set(id, { items });
        w.postMessage({ type: 'embed', id, texts: items.map((p) => p.text) });
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

  /**
   * Closes the worker in order: texts not sent yet are rejected, the worker refuses its queued
   * batches, finishes the running one and releases the onnxruntime session, answers `closed`,
   * and only then is it terminated. Waits at most `timeoutMs` for that answer; past it, the
   * worker is stopped between native calls (`halt`) before it is terminated. Idempotent.
   */
  dispose(timeoutMs = CLOSE_WAIT_MS): Promise<void> {
    this.closing ??= this.close(timeoutMs);
    return this.closing;
  }

  private async close(timeoutMs: number): Promise<void> {
    const closed = new Error('embedding service closed');
    for (const p of this.queue.splice(0)) p.reject(closed);
    const w = this.worker;
    if (!w || this.exited) {
      this.worker = undefined;
      for (const { items } of this.inflight.values()) for (const p of items) p.reject(closed);
      this.inflight.clear();
      return;
    }
    const log = this.opts.log ?? (() => {});
    let timer: NodeJS.Timeout | undefined;
    const answered = await new Promise<boolean>((resolve) => {
      w.on('message', (m: WorkerReply) => {
        if (m.type !== 'closed') return;
        if (m.message) log(`embeddings: releasing the session failed: ${m.message}`);
        resolve(true);
      });
      w.once('exit', () => resolve(true)); // already gone: nothing left to wait for
      timer = setTimeout(() => resolve(false), timeoutMs);
      w.postMessage({ type: 'close' });
    });
    clearTimeout(timer);
    if (!answered) {
      log(`embeddings: the worker did not close within ${timeoutMs} ms; stopping it between native calls`);
      this.halt(timeoutMs);
    }
    await w.terminate();
    this.worker = undefined;
    live.delete(this);
    for (const { items } of this.inflight.values()) for (const p of items) p.reject(closed);
    this.inflight.clear();
  }

  /**
   * Synchronously stops the worker from starting native work and waits (at most `timeoutMs`)
   * until the native call it is in, if any, has returned. For paths that cannot wait
   * asynchronously: the process 'exit' hook, a close that timed out. Returns whether it is idle.
   */
  halt(timeoutMs = EXIT_WAIT_MS): boolean {
    Atomics.store(this.control, STOP, 1);
    const deadline = performance.now() + timeoutMs;
    while (Atomics.load(this.control, BUSY) === 1) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(this.control, BUSY, 1, left);
    }
    return true;
  }
}
