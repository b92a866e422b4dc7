// Checks display-math blocks: extracts steps and decides each one, with a verdict cache keyed
// by the normalised step (its text, relation, annotation and the domain statements that
// apply), so a step that appears again — in another block, or after an edit elsewhere in its
// block — is not evaluated twice. Runs in the worker thread, in the CLI, and in tests.
import type { BlockInput, Closing } from './blocks.js';
import { macroTable, type MacroDef, type MacroTable } from './macros.js';
import { settingKey } from './setting.js';
import { extractSteps, type Relation, type Step } from './steps.js';
import { AS_CLOSING, AS_IDENTITY, checkStep, contextSignature, DIFFERENT_VARIABLES, hypotheses, type Verdict } from './verdict.js';

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

const STATEMENT: Verdict = { kind: 'skipped', reason: 'a single relation: a statement about its letters (an equation, a condition), not a derivation step' };

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
    const decide = (s: Step, equation: boolean, identity = false): Verdict => {
      domainSig ??= `${contextSignature(b.context)}\u0000${settingKey(b.setting)}`;
      const stepKey = [s.lhs.text, s.rel, s.rhs.text, s.mod ?? '', s.annotation, s.implied ? 1 : 0, equation ? 1 : 0, identity ? 1 : 0, s.justified ? 1 : 0, s.printed ? 1 : 0, s.afterApprox ? 1 : 0, s.bound ?? '', domainSig, notesKey, this.macroKey].join('\u0000');
      let verdict = this.cache.get(stepKey);
      if (verdict) this.cacheHits++;
      else {
        try {
          verdict = checkStep({ lhs: s.lhs.text, rhs: s.rhs.text, rel: s.rel, mod: s.mod, annotation: s.annotation, context: b.context, setting: b.setting, implied: s.implied, equation, identity, justified: s.justified, printed: s.printed, afterApprox: s.afterApprox, bound: s.bound, notes: notesKey ? notes : '' }, this.table);
        } catch (e) {
          verdict = { kind: 'unknown', reason: `internal error: ${(e as Error).message}` };
        }
        this.checked++;
        if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(stepKey, verdict);
      }
      return verdict;
    };
    // a display that states one relation between expressions in letters (`2x^2 = x^2 + 2`) is
    // a statement about them (an equation to solve, a condition, a definition), not a step of
    // a derivation: only numbers (`3 \times 17 = 51`) are checked there
    const statement = all.length === 1 && /[A-Za-z]/.test(`${all[0].lhs.text}${all[0].rhs.text}`.replace(/\\[A-Za-z]+/g, ''));
    for (const s of all) {
      steps.push({ lhsStart: s.lhs.start, lhsEnd: s.lhs.end, rhsStart: s.rhs.start, rhsEnd: s.rhs.end, rel: s.rel, lhs: s.lhs.text, rhs: s.rhs.text, ignored: s.ignored, verdict: statement ? STATEMENT : decide(s, s.equation) });
    }
    // an optimisation problem's rows (`\min … \text{subject to } Ax = b`) are constraints, not identities
    if (!OPTIMISATION.test(b.text)) identityRows(all, steps, decide);
    if (b.closing) {
      const closing = closingStep(all, steps, b.closing);
      if (closing) {
        const verdict = decide(closing, false);
        // only a value the display clearly contradicts is said; the rest stays unsaid
        if (verdict.kind === 'refuted') steps.push({ lhsStart: closing.rhs.start, lhsEnd: closing.rhs.end, rhsStart: closing.rhs.start, rhsEnd: closing.rhs.end, rel: closing.rel, lhs: closing.lhs.text, rhs: closing.rhs.text, ignored: closing.ignored, verdict: { ...verdict, reason: `${verdict.reason} ${AS_CLOSING}` } });
      }
    }
    return { key: b.key, steps };
  }
}

/**
 * The display's result set against the value the next sentence states for it: the last right
 * side of the display, when it is a number (no letters) and its own step holds or is not
 * decided. Its place is the stated value's.
 */
function closingStep(all: Step[], steps: StepResult[], closing: Closing): Step | undefined {
  let last = -1;
  for (let i = 0; i < all.length; i++) if (last < 0 || all[i].rhs.end > all[last].rhs.end) last = i;
  if (last < 0 || steps[last].verdict.kind === 'refuted' || steps[last].ignored) return undefined;
  const s = all[last];
  if (lettersIn(s.rhs.text).size > 0 || s.implied || s.equation) return undefined;
  const rounded = all.some((x) => x.rel === 'approx');
  return {
    lhs: s.rhs, rhs: { start: closing.start, end: closing.end, text: closing.text }, rel: closing.approx ? 'approx' : '=', relAt: closing.start,
    annotation: '', implied: false, equation: false, ignored: closing.ignored, justified: false, printed: closing.approx, afterApprox: rounded,
  };
}


/**
 * A display of separate rows, each with its own left side (an `align*` of identities), reads
 * like equations being solved: rows sharing variables are skipped as such (steps.ts:
 * `Step.equation`), and a refuted row with sides in different variables (`\sin^2 x + \cos^2 x
 * = 2`) is withdrawn as a possible equation. When another row of the display holds as an
 * identity, the display is such a list, and those rows are decided as identities: a wrong one
 * is reported instead of passing without a word. A display where no row holds (`2x + 3 = 7
 * \\ 2x = 4`) stays an equation being solved; so do rows `… = 0` and relations other than `=`
 * (over every display of Stacks, HoTT and ProofWiki, those were the rows this rule flagged
 * without them, both equations or conditions).
 */
const ZERO = /^\s*0\s*$/;

/** The letters a step's text is written in, the names of its commands aside. */
function lettersIn(text: string): Set<string> {
  return new Set(text.replace(/\\[A-Za-z]+/g, ' ').match(/[A-Za-z]/g) ?? []);
}

/** A display stating an optimisation problem: its rows are an objective and constraints. */
const OPTIMISATION = /\\(?:min|max|argmin|argmax)(?![A-Za-z])|\\operatorname\*?\{arg\s*(?:min|max)\}|subject\s+to|\bs\.\s*t\./i;

function identityRows(all: Step[], steps: StepResult[], decide: (s: Step, equation: boolean, identity?: boolean) => Verdict): void {
  if (all.length < 2) return;
  // a chain shares its middle expressions; separate rows do not
  for (let k = 1; k < all.length; k++) if (all[k].lhs.start === all[k - 1].rhs.start) return;
  // the evidence is a row in letters that holds: `0 = 0` left by elimination says nothing of the others
  const letters = all.map((s) => lettersIn(`${s.lhs.text} ${s.rhs.text}`));
  // nor does `z = z`, a coordinate carried along beside the relations that change
  const same = (i: number) => all[i].lhs.text.replace(/\s+/g, '') === all[i].rhs.text.replace(/\s+/g, '');
  if (!steps.some((r, i) => (r.verdict.kind === 'proven' || r.verdict.kind === 'equal') && letters[i].size > 0 && !same(i))) return;
  const asEquation = all.map((s, i) => {
    const v = steps[i].verdict;
    // `… = 0` is how an equation to solve is written, and `x < 0` a condition: those stay as they were
    return ((v.kind === 'skipped' && s.equation) || (v.kind === 'unknown' && v.reason === DIFFERENT_VARIABLES))
      && !s.implied && s.rel === '=' && !ZERO.test(s.lhs.text) && !ZERO.test(s.rhs.text);
  });
  const again = all.map((s, i) => (asEquation[i] ? decide(s, false, true) : undefined));
  all.forEach((s, i) => {
    const v = again[i];
    if (!v) return;
    // two rows that fail in common letters are one equation rewritten (`(\frac{x-3}{4})^2 + (\frac{y-1}{2})^2 = 1`,
    // then `\frac{(x-3)^2}{16} + \frac{(y-1)^2}{4} = 1` under `\cos^2 t + \sin^2 t = 1`), not two wrong identities
    if (v.kind === 'refuted' && again.some((w, j) => j !== i && w?.kind === 'refuted' && [...letters[j]].some((l) => letters[i].has(l)))) return;
    steps[i].verdict = v.kind === 'refuted' ? { ...v, reason: `${v.reason} ${AS_IDENTITY}` } : v;
  });
}
