// The user-facing text of a verdict: a refutation's counterexample and values, numbers and
// letters as a reader writes them.
import type { Relation } from './steps.js';
import type { Verdict } from './verdictTypes.js';

export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e9) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return x.toExponential(2);
  return String(Number(x.toPrecision(3)));
}

const REL_TEXT: Partial<Record<Relation, string>> = { '<=': '≤', '<': '<', '>=': '≥', '>': '>', '!=': '≠', equiv: '≡', approx: '≈' };

/** `does not follow: at x = 0.7 left side 1.53, right side 0.24` */
export function verdictMessage(v: Verdict, rel: Relation): string {
  if (v.kind !== 'refuted') return v.reason;
  const at = v.point && v.point.length ? `at ${v.point.map(([k, x]) => `${displayVar(k)} = ${formatNumber(x)}`).join(', ')} ` : '';
  const need = REL_TEXT[rel] ? ` (needs left ${REL_TEXT[rel]} right)` : '';
  const read = [AS_IDENTITY, AS_CLOSING].find((note) => v.reason.endsWith(note));
  if (read === AS_CLOSING) return `the text says ${formatNumber(v.right!)}, but the display comes to ${formatNumber(v.left!)} ${AS_CLOSING}`;
  return `does not follow: ${at}left side ${formatNumber(v.left!)}, right side ${formatNumber(v.right!)}${need}${read ? ` ${read}` : ''}`;
}

/** Said of a display's result set against the value the sentence after it states (blocks.ts#Closing). */
export const AS_CLOSING = '(the value the sentence after the display states)';

/** Said of a row decided as an identity because the display's other rows are (checker.ts#identityRows). */
export const AS_IDENTITY = '(read as an identity: other rows of this display hold as identities)';

/** `x_{"n"}` → `x_n` for messages. */
export function displayVar(name: string): string {
  return name.replace(/_\{(.*)\}$/, (_m, s: string) => `_${s.replace(/"/g, '')}`);
}
