// Runs the checker in a worker thread so a keystroke never waits on it. The worker script is
// found next to the running code: derivation-worker.cjs beside the bundle, or worker.js beside
// the compiled module. If the worker cannot start or dies, checks fall back to this thread.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BlockInput } from './blocks.js';
import type { BlockResult } from './checker.js';
import type { MacroDef } from './macros.js';
import { inProcessRunner, type Runner } from './service.js';
import { WorkerClient } from '../util/workerClient.js';

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
  const client = new WorkerClient<Omit<WorkerRequest, 'id'>, BlockResult[]>({ name: 'derivation worker', instead: 'checking in the main thread', script: workerScript, log });
  return async (blocks, macros, macroKey) => (await client.request({ blocks, macros, macroKey })) ?? fallback(blocks, macros, macroKey);
}
