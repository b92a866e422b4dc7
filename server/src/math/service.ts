// Main-thread side of the derivation checker: keeps block results by block key (content),
// so after an edit only new or changed blocks are sent to the checker, and the results of
// unchanged blocks are available at once (no flicker of warnings while typing). Checking
// itself goes through a Runner: a worker thread in the server, in-process in the CLI.
import type { BlockInput } from './blocks.js';
import type { BlockResult, StepResult } from './checker.js';
import { DerivationChecker } from './checker.js';
import type { MacroDef } from './macros.js';

export type Runner = (blocks: BlockInput[], macros: readonly MacroDef[], macroKey: string) => Promise<BlockResult[]>;

/** A step with absolute offsets in its document. */
export type DocStep = StepResult;

const RESULT_LIMIT = 20_000;

export class DerivationService {
  private results = new Map<string, BlockResult>();

  constructor(private readonly run: Runner) {}

  /** Steps of the blocks already checked (absolute offsets), and the blocks still to check. */
  current(blocks: readonly BlockInput[]): { steps: DocStep[]; missing: BlockInput[] } {
    const steps: DocStep[] = [];
    const missing: BlockInput[] = [];
    for (const b of blocks) {
      const r = this.results.get(b.key);
      if (!r) { missing.push(b); continue; }
      // refresh LRU position
      this.results.delete(b.key);
      this.results.set(b.key, r);
      for (const s of r.steps) {
        steps.push({ ...s, lhsStart: s.lhsStart + b.start, lhsEnd: s.lhsEnd + b.start, rhsStart: s.rhsStart + b.start, rhsEnd: s.rhsEnd + b.start });
      }
    }
    return { steps, missing };
  }

  /** Checks the given blocks and stores their results. */
  async check(blocks: readonly BlockInput[], macros: readonly MacroDef[], macroKey: string): Promise<void> {
    if (blocks.length === 0) return;
    const results = await this.run([...blocks], macros, macroKey);
    for (const r of results) {
      this.results.set(r.key, r);
      if (this.results.size > RESULT_LIMIT) this.results.delete(this.results.keys().next().value!);
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
      await new Promise((r) => setImmediate(r));
    }
    return out;
  };
}

/** Checks every display-math block of a document in this thread, synchronously (CLI). */
export function checkDocumentSync(blocks: readonly BlockInput[], macros: readonly MacroDef[], macroKey: string, checker: DerivationChecker): DocStep[] {
  checker.setMacros(macros, macroKey);
  const out: DocStep[] = [];
  for (const b of blocks) {
    for (const s of checker.checkBlock(b).steps) {
      out.push({ ...s, lhsStart: s.lhsStart + b.start, lhsEnd: s.lhsEnd + b.start, rhsStart: s.rhsStart + b.start, rhsEnd: s.rhsEnd + b.start });
    }
  }
  return out;
}
