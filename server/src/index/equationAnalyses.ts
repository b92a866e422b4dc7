// Equation analyses by content: (LaTeX text, macro signature) → EquationFeatures, each text
// analysed once. The server analyses in a worker thread (index/equationAnalysis.ts), in
// batches off the request path; the CLI analyses in-process. A query equation is analysed
// synchronously (one equation: about a millisecond).
import { createHash } from 'node:crypto';
import type { MacroDef, MacroTable } from '../math/macros.js';
import { equationFeatures, type EquationFeatures } from './equationFeatures.js';
import { inProcessAnalysis, MacroTables, type AnalysisItem, type AnalysisRunner } from './equationAnalysis.js';
import { TokenTable } from './equationRanking.js';

/**
 * Features as kept for the workspace: the canonical tokens as 16-bit ids of one table (a Stacks
 * workspace has ~20k equations of up to hundreds of tokens), decoded when asked for.
 */
class StoredFeatures implements EquationFeatures {
  readonly canonical: string;
  readonly sides: EquationFeatures['sides'];
  readonly difference?: string;
  readonly identity: boolean;
  private readonly ids: Uint16Array;

  constructor(f: EquationFeatures, private readonly table: TokenTable) {
    this.canonical = f.canonical;
    this.sides = f.sides;
    if (f.difference) this.difference = f.difference;
    this.identity = f.identity;
    this.ids = Uint16Array.from(f.tokens, (t) => table.id(t, true)!);
  }

  get tokens(): string[] { return Array.from(this.ids, (i) => this.table.list[i] ?? ''); }
}

/** Content key of an equation under a macro signature. */
export function analysisKey(latex: string, macroKey: string): string {
  return createHash('sha1').update(macroKey).update('\u0000').update(latex).digest('base64');
}

const BATCH = 100;
const LIMIT = 400_000;

export class EquationAnalyses {
  private readonly done = new Map<string, EquationFeatures>();
  private readonly queue = new Map<string, AnalysisItem>();
  private readonly macros = new Map<string, readonly MacroDef[]>();
  private readonly tables = new MacroTables();
  /** The token table of every stored equation (and of bigram codes made from them). */
  readonly tokens = new TokenTable();
  private running: Promise<void> | undefined;
  /** Advances whenever results arrive (snapshots built before are stale). */
  generation = 0;

  constructor(private readonly run: AnalysisRunner = inProcessAnalysis(), private readonly log: (m: string) => void = () => {}) {}

  get(key: string): EquationFeatures | undefined { return this.done.get(key); }

  /** The macro table of a signature (built once per signature). */
  table(macroKey: string, defs: readonly MacroDef[]): MacroTable {
    return this.tables.get(macroKey, defs);
  }

  /** Analyses one equation now, in this thread (a query). */
  now(latex: string, macroKey: string, defs: readonly MacroDef[]): EquationFeatures {
    const key = analysisKey(latex, macroKey);
    let f = this.done.get(key);
    if (!f) f = this.store(key, equationFeatures(latex, this.tables.get(macroKey, defs)));
    return f;
  }

  private readonly codeCache = new WeakMap<EquationFeatures, Uint32Array>();

  /** The bigram codes a snapshot's corpus scans (made once per features object). */
  codes(f: EquationFeatures): Uint32Array {
    let c = this.codeCache.get(f);
    if (!c) { c = this.tokens.codes(f.tokens, true); this.codeCache.set(f, c); }
    return c;
  }

  private store(key: string, f: EquationFeatures): EquationFeatures {
    if (this.done.size >= LIMIT) this.done.clear();
    const s = new StoredFeatures(f, this.tokens);
    this.done.set(key, s);
    return s;
  }

  /** Queues equations for background analysis (already known or queued ones are skipped). */
  want(items: Array<{ key: string; latex: string; macroKey: string }>, defs: ReadonlyMap<string, readonly MacroDef[]>): void {
    for (const it of items) {
      if (this.done.has(it.key) || this.queue.has(it.key)) continue;
      this.queue.set(it.key, { latex: it.latex, macroKey: it.macroKey });
      if (!this.macros.has(it.macroKey)) this.macros.set(it.macroKey, defs.get(it.macroKey) ?? []);
    }
    if (this.queue.size && !this.running) this.running = this.pump().finally(() => { this.running = undefined; });
  }

  get pending(): number { return this.queue.size; }

  /** Resolves when everything queued is analysed. */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Resolves when the queue is empty, or after `ms` (whichever first); true when empty. */
  async idle(ms: number): Promise<boolean> {
    if (!this.running) return this.queue.size === 0;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((r) => { timer = setTimeout(r, ms); });
    await Promise.race([this.running, timeout]);
    clearTimeout(timer);
    return this.queue.size === 0;
  }

  private async pump(): Promise<void> {
    while (this.queue.size) {
      const keys = [...this.queue.keys()].slice(0, BATCH);
      const items = keys.map((k) => this.queue.get(k)!);
      const macros: Record<string, readonly MacroDef[]> = {};
      for (const it of items) macros[it.macroKey] ??= this.macros.get(it.macroKey) ?? [];
      let results: EquationFeatures[] | undefined;
      try {
        results = await this.run(items, macros);
      } catch (e) {
        this.log(`equation analysis failed: ${(e as Error).message}`);
      }
      keys.forEach((k, i) => {
        this.queue.delete(k);
        // the codes are made as a batch arrives, not by the first snapshot (a lens list) that reads them
        if (results?.[i]) this.codes(this.store(k, results[i]));
      });
      this.generation++;
    }
  }
}
