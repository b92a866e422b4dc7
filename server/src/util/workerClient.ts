// One worker thread answering requests by id ({id, …} → {id, results?, error?}), shared by the
// derivation checker and the equation analysis. When the worker cannot be found or started, or
// dies, `request` answers undefined from then on and the caller does the work in this thread.
import { Worker } from 'node:worker_threads';

export interface WorkerAnswer<R> { id: number; results?: R; error?: string }

export interface WorkerClientOptions {
  /** For log lines: 'derivation worker', 'equation worker'. */
  name: string;
  /** What the caller does instead, for log lines: 'checking in the main thread'. */
  instead: string;
  /** Path of the worker script, or undefined when it is not there. */
  script: () => string | undefined;
  log?: (msg: string) => void;
  /** Stops an idle worker after this long (its parser and caches hold memory); started again when needed. */
  idleMs?: number;
}

export class WorkerClient<Q extends object, R> {
  private worker: Worker | undefined;
  private failed = false;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Map<number, { resolve: (r: R) => void; reject: (e: Error) => void }>();

  constructor(private readonly o: WorkerClientOptions) {}

  /** The worker's results, or undefined when the work must be done in this thread. */
  async request(payload: Q): Promise<R | undefined> {
    const w = this.start();
    if (!w) return undefined;
    const id = this.nextId++;
    try {
      return await new Promise<R>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        w.postMessage({ id, ...payload });
      });
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }

  private log(msg: string): void { this.o.log?.(msg); }

  private stopWhenIdle(): void {
    if (this.o.idleMs === undefined) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => { if (this.pending.size === 0) void this.close(); }, this.o.idleMs);
    this.idleTimer.unref();
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    const script = this.o.script();
    if (!script) { this.failed = true; this.log(`${this.o.name} not found: ${this.o.instead}`); return undefined; }
    try {
      const w = new Worker(script);
      w.unref();
      w.on('message', (res: WorkerAnswer<R>) => {
        const p = this.pending.get(res.id);
        if (!p) return;
        this.pending.delete(res.id);
        if (res.results) p.resolve(res.results); else p.reject(new Error(res.error ?? 'worker error'));
        if (this.pending.size === 0) this.stopWhenIdle();
      });
      const die = (why: string): void => {
        this.log(`${this.o.name} stopped (${why}): ${this.o.instead}`);
        this.failed = true;
        this.worker = undefined;
        for (const p of this.pending.values()) p.reject(new Error(why));
        this.pending.clear();
      };
      w.on('error', (e) => die(e.message));
      w.on('exit', (code) => { if (this.worker === w) die(`exit ${code}`); });
      this.worker = w;
    } catch (e) {
      this.failed = true;
      this.log(`cannot start the ${this.o.name}: ${(e as Error).message}`);
    }
    return this.worker;
  }
}
