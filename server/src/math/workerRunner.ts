// Runs the checker in a worker thread so a keystroke never waits on it. The worker script is
// found next to the running code: derivation-worker.cjs beside the bundle, or worker.js beside
// the compiled module. If the worker cannot start or dies, checks fall back to this thread.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BlockInput } from './blocks.js';
import type { BlockResult } from './checker.js';
import type { MacroDef } from './macros.js';
import { inProcessRunner, type Runner } from './service.js';

export interface WorkerRequest { id: number; blocks: BlockInput[]; macros: readonly MacroDef[]; macroKey: string }
export interface WorkerResponse { id: number; results?: BlockResult[]; error?: string }

declare const __dirname: string | undefined;

/** Path of the worker script for the code that is running, or undefined. */
export function workerScript(): string | undefined {
  const candidates: string[] = [];
  if (process.env.MATHSENSE_DERIVATION_WORKER) candidates.push(process.env.MATHSENSE_DERIVATION_WORKER);
  if (typeof __dirname === 'string') candidates.push(path.join(__dirname, 'derivation-worker.cjs'));
  try {
    const here = path.dirname(fileURLToPath(import.meta.url));
    candidates.push(path.join(here, 'worker.js'), path.join(here, 'derivation-worker.cjs'));
  } catch { /* bundled as CommonJS: no import.meta.url */ }
  return candidates.find((c) => fs.existsSync(c));
}

export function workerRunner(log: (msg: string) => void = () => {}): Runner {
  const fallback = inProcessRunner();
  let worker: Worker | undefined;
  let failed = false;
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: BlockResult[]) => void; reject: (e: Error) => void }>();
  const start = (): Worker | undefined => {
    if (worker || failed) return worker;
    const script = workerScript();
    if (!script) { failed = true; log('derivation worker not found: checking in the main thread'); return undefined; }
    try {
      const w = new Worker(script);
      w.unref();
      w.on('message', (res: WorkerResponse) => {
        const p = pending.get(res.id);
        if (!p) return;
        pending.delete(res.id);
        if (res.results) p.resolve(res.results); else p.reject(new Error(res.error ?? 'worker error'));
      });
      const die = (why: string): void => {
        log(`derivation worker stopped (${why}): checking in the main thread`);
        failed = true;
        worker = undefined;
        for (const p of pending.values()) p.reject(new Error(why));
        pending.clear();
      };
      w.on('error', (e) => die(e.message));
      w.on('exit', (code) => { if (worker === w) die(`exit ${code}`); });
      worker = w;
    } catch (e) {
      failed = true;
      log(`cannot start derivation worker: ${(e as Error).message}`);
    }
    return worker;
  };
  return async (blocks, macros, macroKey) => {
    const w = start();
    if (!w) return fallback(blocks, macros, macroKey);
    const id = nextId++;
    try {
      return await new Promise<BlockResult[]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.postMessage({ id, blocks, macros, macroKey } satisfies WorkerRequest);
      });
    } catch {
      return fallback(blocks, macros, macroKey);
    }
  };
}
