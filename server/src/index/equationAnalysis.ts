// Where equations are analysed (equationFeatures): in this thread, or in worker threads running
// equationWorker.ts (server/dist/equation-worker.cjs beside the bundle, equationWorker.js beside
// the compiled module). The language server uses one worker so a keystroke never waits on
// analysis; the index build spreads its ~60k ProofWiki equations over a few. A worker that
// cannot start or dies is replaced by analysis in this thread.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { macroTable, type MacroDef, type MacroTable } from '../math/macros.js';
import { equationFeatures, type EquationFeatures } from './equationFeatures.js';
import { WorkerClient } from '../util/workerClient.js';

export interface AnalysisItem { latex: string; macroKey: string }
export interface AnalysisRequest { id: number; items: AnalysisItem[]; macros: Record<string, readonly MacroDef[]> }
export interface AnalysisResponse { id: number; results?: EquationFeatures[]; error?: string }

export type AnalysisRunner = (items: AnalysisItem[], macros: Record<string, readonly MacroDef[]>) => Promise<EquationFeatures[]>;

/** Macro tables by signature, built once each. */
export class MacroTables {
  private readonly tables = new Map<string, MacroTable>();
  get(key: string, defs: readonly MacroDef[] | undefined): MacroTable {
    let t = this.tables.get(key);
    if (!t) {
      t = macroTable(defs ?? []);
      if (this.tables.size > 200) this.tables.clear();
      this.tables.set(key, t);
    }
    return t;
  }
}

/**
 * Analysis in this thread. Macro tables are made per batch: analyseEquation caches its results
 * per table, and a batch's texts are never asked for again (callers keep the features by
 * content), so the cache goes with the batch instead of holding ~20k parsed equations.
 */
export function inProcessAnalysis(): AnalysisRunner {
  return async (items, macros) => {
    const tables = new MacroTables();
    return items.map((it) => equationFeatures(it.latex, tables.get(it.macroKey, macros[it.macroKey])));
  };
}

declare const __dirname: string | undefined;

/** The worker script next to the running code, or undefined. */
function workerScript(): string | undefined {
  const candidates: string[] = [];
  if (typeof __dirname === 'string') candidates.push(path.join(__dirname, 'equation-worker.cjs'));
  try {
    const here = path.dirname(fileURLToPath(import.meta.url));
    candidates.push(path.join(here, 'equationWorker.js'), path.join(here, 'equation-worker.cjs'));
  } catch { /* bundled as CommonJS */ }
  return candidates.find((c) => fs.existsSync(c));
}

/**
 * Analysis in one worker thread (in this thread when the worker cannot run). An idle worker is
 * stopped after `idleMs` (its parser and caches take tens of MB) and started again when needed.
 */
export function workerAnalysis(log: (m: string) => void = () => {}, idleMs = 60_000): AnalysisRunner & { close(): Promise<void> } {
  const fallback = inProcessAnalysis();
  const client = new WorkerClient<Omit<AnalysisRequest, 'id'>, EquationFeatures[]>({ name: 'equation worker', instead: 'analysing equations in the main thread', script: workerScript, log, idleMs });
  const run = async (items: AnalysisItem[], macros: Record<string, readonly MacroDef[]>) => (await client.request({ items, macros })) ?? fallback(items, macros);
  return Object.assign(run, { close: () => client.close() });
}

/**
 * Analyses many texts (one macro table) in batches spread over up to `threads` workers,
 * reporting progress; results in input order.
 */
export async function analyseMany(texts: readonly string[], o: { threads?: number; defs?: readonly MacroDef[]; progress?: (done: number, total: number) => void; log?: (m: string) => void } = {}): Promise<EquationFeatures[]> {
  const n = Math.max(1, Math.min(o.threads ?? Math.min(4, os.availableParallelism()), 8));
  const runners = Array.from({ length: n }, () => workerAnalysis(o.log));
  const out: EquationFeatures[] = new Array(texts.length);
  const BATCH = 250;
  let next = 0, done = 0;
  const macros = { '': o.defs ?? [] };
  try {
    await Promise.all(runners.map(async (run) => {
      while (next < texts.length) {
        const a = next;
        next = Math.min(texts.length, next + BATCH);
        const res = await run(texts.slice(a, next).map((latex) => ({ latex, macroKey: '' })), macros);
        res.forEach((r, i) => { out[a + i] = r; });
        done += res.length;
        o.progress?.(done, texts.length);
      }
    }));
  } finally {
    await Promise.all(runners.map((r) => r.close()));
  }
  return out;
}
