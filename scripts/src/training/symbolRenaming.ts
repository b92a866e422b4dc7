// Symbol renaming (as in the MATcH thesis): the single-letter math variables that a statement
// shares with its proof are renamed in the statement, so a match cannot hinge on identical
// letters. Used for training augmentation (exporter) and for the "renamed" evaluation level.
import { scanLatex } from 'mathsense-server/api/embeddings';

/** Letters inside these are names of sets, sheaves, operators (ℝ, 𝒪, sin), not variables. */
const FIXED_ARG = /\\(?:mathbb|mathrm|mathcal|mathfrak|mathscr|mathbf|boldsymbol|operatorname|mathsf|mathtt|text|textrm|textit|textbf|mbox|label|ref|begin|end|eqref|cite)\s*\{[^{}]*\}/g;

interface Occurrence { start: number; letter: string }

function letterOccurrences(text: string): Occurrence[] {
  const masked: Array<[number, number]> = [];
  FIXED_ARG.lastIndex = 0;
  for (let m = FIXED_ARG.exec(text); m; m = FIXED_ARG.exec(text)) masked.push([m.index, m.index + m[0].length]);
  const out: Occurrence[] = [];
  let k = 0;
  scanLatex(text, (t) => {
    if (t.kind !== 'math' || t.type !== 'letter' || !/^[A-Za-z]$/.test(t.text)) return;
    while (k < masked.length && masked[k][1] <= t.start) k++;
    if (k < masked.length && masked[k][0] <= t.start) return;
    out.push({ start: t.start, letter: t.text });
  });
  return out;
}

/** Math variables (single ASCII letters) used in `text`. */
export function mathVariables(text: string): Set<string> {
  return new Set(letterOccurrences(text).map((o) => o.letter));
}

/** Rewrites math variables of `text` by `mapping` (letters not in it stay). */
export function applyRenaming(text: string, mapping: ReadonlyMap<string, string>): string {
  let out = '';
  let last = 0;
  for (const o of letterOccurrences(text)) {
    const to = mapping.get(o.letter);
    if (to === undefined) continue;
    out += text.slice(last, o.start) + to;
    last = o.start + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Deterministic PRNG so exports and evaluations are reproducible. */
export { seededRandom } from 'mathsense-server/api/util';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();

/**
 * Renames, in `statement`, every variable it shares with `other`, to letters of the same case
 * used in neither text where possible (else any other letter of that case).
 */
export function renameSharedSymbols(statement: string, other: string, random: () => number): string {
  const a = mathVariables(statement);
  const b = mathVariables(other);
  const shared = [...a].filter((x) => b.has(x)).sort();
  if (shared.length === 0) return statement;
  const mapping = new Map<string, string>();
  const taken = new Set([...a, ...b]);
  for (const x of shared) {
    const alphabet = x === x.toLowerCase() ? LOWER : UPPER;
    let pool = [...alphabet].filter((y) => !taken.has(y));
    if (pool.length === 0) pool = [...alphabet].filter((y) => y !== x && ![...mapping.values()].includes(y));
    if (pool.length === 0) continue;
    const y = pool[Math.floor(random() * pool.length)];
    mapping.set(x, y);
    taken.add(y);
  }
  return applyRenaming(statement, mapping);
}
