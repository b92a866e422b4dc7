// A query typed as plain text, read the way the index reads statements: its formulas in math
// mode. Shared by the CLI's search and the editor's search command.

// a word of a plain-text query that is a formula: an operator, a script or a command in it;
// a lone operator continues an open formula, and so does the operand after it ("a^p - a")
const FORMULA_WORD = /[\\^_=<>+*/|]|^[A-Za-z]\(.*\)$/;
const OPERATOR = /^[-+=<>*/|]+$/;
const OPERAND = /^[A-Za-z0-9]+[.,;:]?$/;

/**
 * A query typed without dollars, with its formulas put in `$…$` ("a^2+b^2=c^2 Pythagoras" →
 * "$a^2+b^2=c^2$ Pythagoras"): the tokenizer reads math only inside math mode, where the
 * indexed statements have it, so an unmarked formula would match as stray letters and digits.
 * A query with any math delimiter is the user's LaTeX and is kept as written.
 */
export function markFormulas(query: string): string {
  if (/\$|\\\(|\\\[|\\begin\s*\{/.test(query)) return query;
  const parts = query.split(/(\s+)/);
  const out: string[] = [];
  let open = false, afterOperator = false;
  for (const part of parts) {
    if (part === '' || /^\s+$/.test(part)) { out.push(part); continue; }
    const math: boolean = FORMULA_WORD.test(part) || (open && (OPERATOR.test(part) || (afterOperator && OPERAND.test(part))));
    if (math && !open) out.push('$');
    if (!math && open) closeBefore(out);
    out.push(part);
    open = math;
    afterOperator = math && OPERATOR.test(part);
  }
  if (open) closeBefore(out);
  return out.join('');
}

/** Closes an open `$` before the whitespace that ended the formula. */
function closeBefore(out: string[]): void {
  const spaces: string[] = [];
  while (out.length && /^\s*$/.test(out[out.length - 1])) spaces.unshift(out.pop()!);
  out.push('$', ...spaces);
}
