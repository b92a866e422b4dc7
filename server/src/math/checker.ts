// Checks display-math blocks: extracts steps and decides each one, with a verdict cache keyed
// by the normalised step (its text, relation, annotation and the domain statements that
// apply), so a step that appears again — in another block, or after an edit elsewhere in its
// block — is not evaluated twice. Runs in the worker thread, in the CLI, and in tests.
import type { BlockInput } from './blocks.js';
import { macroTable, type MacroDef, type MacroTable } from './macros.js';
import { extractSteps, type Relation } from './steps.js';
import { checkStep, contextSignature, hypotheses, type Verdict } from './verdict.js';

export interface StepResult {
  /** Offsets relative to the block text. */
  lhsStart: number;
  lhsEnd: number;
  rhsStart: number;
  rhsEnd: number;
  rel: Relation;
  lhs: string;
  rhs: string;
  ignored: boolean;
  verdict: Verdict;
}

export interface BlockResult { key: string; steps: StepResult[] }

const CACHE_LIMIT = 50_000;

export class DerivationChecker {
  private cache = new Map<string, Verdict>();
  private macroKey = '';
  private table: MacroTable = macroTable([]);
  checked = 0;
  cacheHits = 0;

  setMacros(defs: readonly MacroDef[], key: string): void {
    if (key === this.macroKey) return;
    this.macroKey = key;
    this.table = macroTable(defs);
  }

  checkBlock(b: BlockInput): BlockResult {
    const steps: StepResult[] = [];
    let domainSig: string | undefined;
    const all = extractSteps(b);
    // the annotations of the block's rows, for what they say about the whole block (named constants)
    const notes = [...new Set(all.map((s) => s.annotation).filter((a) => a !== ''))].join(' ').slice(0, 4000);
    // (named constants, equations stated beside other rows: "where $r = t_1 + s$")
    const notesKey = (/golden/i.test(notes) ? 'G' : '') + hypotheses(notes).join('\u0001');
    for (const s of all) {
      domainSig ??= contextSignature(b.context) + (b.nonReal ? '\u0000N' : '');
      const stepKey = [s.lhs.text, s.rel, s.rhs.text, s.mod ?? '', s.annotation, s.implied ? 1 : 0, s.equation ? 1 : 0, s.justified ? 1 : 0, domainSig, notesKey, this.macroKey].join('\u0000');
      let verdict = this.cache.get(stepKey);
      if (verdict) this.cacheHits++;
      else {
        try {
          verdict = checkStep({ lhs: s.lhs.text, rhs: s.rhs.text, rel: s.rel, mod: s.mod, annotation: s.annotation, context: b.context, nonReal: b.nonReal, implied: s.implied, equation: s.equation, justified: s.justified, notes: notesKey ? notes : '' }, this.table);
        } catch (e) {
          verdict = { kind: 'unknown', reason: `internal error: ${(e as Error).message}` };
        }
        this.checked++;
        if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(stepKey, verdict);
      }
      steps.push({ lhsStart: s.lhs.start, lhsEnd: s.lhs.end, rhsStart: s.rhs.start, rhsEnd: s.rhs.end, rel: s.rel, lhs: s.lhs.text, rhs: s.rhs.text, ignored: s.ignored, verdict });
    }
    return { key: b.key, steps };
  }
}
