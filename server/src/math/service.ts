// Main-thread side of the derivation checker: keeps block results by block key (content),
// so after an edit only new or changed blocks are sent to the checker, and the results of
// unchanged blocks are available at once (no flicker of warnings while typing). Checking
// itself goes through a Runner: a worker thread in the server, in-process in the CLI.
import { macroSignature, mathBlocks, scopeMacros, type BlockInput } from './blocks.js';
import type { Doc, Workspace } from '../project/workspace.js';
import type { BlockResult, StepResult } from './checker.js';
import { DerivationChecker } from './checker.js';
import type { MacroDef } from './macros.js';
import { turn } from '../util/turns.js';

export type Runner = (blocks: BlockInput[], macros: readonly MacroDef[], macroKey: string) => Promise<BlockResult[]>;

/** A step with absolute offsets in its document. */
export type DocStep = StepResult;

const RESULT_LIMIT = 20_000;

export class DerivationService {
  private results = new Map<string, BlockResult>();

  constructor(private readonly run: Runner) {}

  /** Steps with absolute offsets per block item (`mathBlocks` reuses items while their block does not move). */
  private shifted = new WeakMap<BlockInput, { result: BlockResult; steps: DocStep[] }>();
  private lastTouch = new Map<string, number>();
  private generation = 0;

  /** Steps of the blocks already checked (absolute offsets), and the blocks still to check. */
  current(blocks: readonly BlockInput[]): { steps: DocStep[]; missing: BlockInput[] } {
    const steps: DocStep[] = [];
    const missing: BlockInput[] = [];
    const gen = ++this.generation;
    for (const b of blocks) {
      const r = this.results.get(b.key);
      if (!r) { missing.push(b); continue; }
      // refresh the LRU position, at most once per 64 calls per block (delete + set is not free)
      if (gen - (this.lastTouch.get(b.key) ?? -Infinity) >= 64) {
        this.lastTouch.set(b.key, gen);
        this.results.delete(b.key);
        this.results.set(b.key, r);
      }
      let s = this.shifted.get(b);
      if (!s || s.result !== r) {
        s = { result: r, steps: r.steps.map((x) => ({ ...x, lhsStart: x.lhsStart + b.start, lhsEnd: x.lhsEnd + b.start, rhsStart: x.rhsStart + b.start, rhsEnd: x.rhsEnd + b.start })) };
        this.shifted.set(b, s);
      }
      for (const x of s.steps) steps.push(x);
    }
    return { steps, missing };
  }

  /** Checks the given blocks and stores their results. */
  async check(blocks: readonly BlockInput[], macros: readonly MacroDef[], macroKey: string): Promise<void> {
    if (blocks.length === 0) return;
    const results = await this.run([...blocks], macros, macroKey);
    for (const r of results) {
      this.results.set(r.key, r);
      if (this.results.size > RESULT_LIMIT) { const k = this.results.keys().next().value!; this.results.delete(k); this.lastTouch.delete(k); }
    }
  }

  /** Checks whatever is missing, then returns all steps of the blocks. */
  async steps(blocks: readonly BlockInput[], macros: readonly MacroDef[], macroKey: string): Promise<DocStep[]> {
    await this.check(this.current(blocks).missing, macros, macroKey);
    return this.current(blocks).steps;
  }
}

/** Checks in this thread, yielding to the event loop between blocks. */
export function inProcessRunner(checker = new DerivationChecker()): Runner {
  return async (blocks, macros, macroKey) => {
    checker.setMacros(macros, macroKey);
    const out: BlockResult[] = [];
    for (const b of blocks) {
      out.push(checker.checkBlock(b));
      await turn();
    }
    return out;
  };
}

/** Checks a workspace document in this thread, with its project's macros (CLI, tests). */
export function checkWorkspaceDocumentSync(ws: Workspace, doc: Doc, checker: DerivationChecker, onProgress?: (done: number, total: number) => void): DocStep[] {
  const macros = scopeMacros(ws, doc);
  const sig = macroSignature(macros);
  return checkDocumentSync(mathBlocks(doc, sig), macros, sig, checker, onProgress);
}

/** Checks every display-math block of a document in this thread, synchronously (CLI). */
export function checkDocumentSync(blocks: readonly BlockInput[], macros: readonly MacroDef[], macroKey: string, checker: DerivationChecker, onProgress?: (done: number, total: number) => void): DocStep[] {
  checker.setMacros(macros, macroKey);
  const out: DocStep[] = [];
  for (const [i, b] of blocks.entries()) {
    if (onProgress && i % 200 === 0) onProgress(i, blocks.length);
    for (const s of checker.checkBlock(b).steps) {
      out.push({ ...s, lhsStart: s.lhsStart + b.start, lhsEnd: s.lhsEnd + b.start, rhsStart: s.rhsStart + b.start, rhsEnd: s.rhsEnd + b.start });
    }
  }
  return out;
}
