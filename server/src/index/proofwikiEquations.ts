// Display equations of ProofWiki's rendered text (index build): formulas standing alone on a
// line (`$…$`, `$$…$$`), and the step-by-step `eqn` tables, which the rendering turns into runs
// of fragments `\(\ds l\)`, `\(=\)`, `\(\ds r\)` with an empty left column continuing the
// chain above and an optional first column holding `\leadsto`. A table row with its own left
// side starts a new chain; a chain `l = r_1 = r_2 …` is one equation (its sides are one class
// when the steps are right, which is what the fingerprint matches).

/** Relations that make a chain an equation or an inequality (set relations, arrows: not). */
const RELATION = /^(=|<|>|\\le|\\leq|\\ge|\\geq|\\ne|\\neq|\\lt|\\gt|\\leqslant|\\geqslant|\\approx|\\equiv)$/;
const FRAGMENT = /^\\\((.*)\\\)$/;
const IMPLICATION = /^(\\(leadsto|implies|iff|Longrightarrow|Rightarrow|therefore|because|land|lor|quad)|[\s\\,;:!]|\\ )*$/;
// ProofWiki numbers displayed formulas inside the math: `$(2): \quad: m^2 - 5 m + 6 = 0$`,
// `(1) \quad …`, `(\text M 1): …`, `(OR2): …`. A label is a short id in parentheses followed by
// `:` or a space command; `(a + b)^2 = …` has no such id and is kept.
const LABEL_ID = String.raw`(?:\d+[a-z]?|[a-zA-Z]|[A-Z]{1,4}\s*\d+[a-z]?|\\text\s*\{?[A-Za-z]{1,4}\}?(?:\s*\d+)?|\d+\s*\\text\s*\{?[a-z]\}?)'*`;
const SEP = String.raw`(?::|~|\\ |\\q?quad(?![A-Za-z]))`;
const LEADING_LABEL = new RegExp(String.raw`^(?:\s*\(\s*${LABEL_ID}\s*\)(?=\s*${SEP})|\s*${SEP})+\s*`);

/** An equation without its leading ProofWiki label and spacing: "(2): \quad: x = 1" -> "x = 1". */
export function stripEquationLabel(latex: string): string {
  return latex.replace(LEADING_LABEL, '').trim();
}

/** Steps per equation: longer chains are cut into pieces (each piece starts where the last ended). */
const MAX_STEPS = 6;
export const MAX_INDEX_EQUATION_CHARS = 600;

/** True when `latex` has a top-level relation (an equation or inequality, not an expression). */
export function hasRelation(latex: string): boolean {
  return /(^|[^\\<>])(=|<|>)|\\(le|leq|ge|geq|ne|neq|lt|gt|leqslant|geqslant|approx|equiv)(?![A-Za-z])/.test(latex);
}

function chainPieces(first: string, steps: Array<[string, string]>): string[] {
  const out: string[] = [];
  let lhs = first;
  for (let i = 0; i < steps.length; i += MAX_STEPS) {
    const part = steps.slice(i, i + MAX_STEPS);
    out.push([lhs, ...part.flatMap(([r, x]) => [r, x])].join(' '));
    lhs = part[part.length - 1][1];
  }
  return out;
}

/** The display equations of one section's text, in order. */
export function proofWikiEquations(text: string): string[] {
  const out: string[] = [];
  let chain: { lhs: string; steps: Array<[string, string]> } | undefined;
  let pending: string[] = []; // expression fragments since the last right side
  let rel: string | undefined; // a relation waiting for its right side
  const flush = () => {
    if (chain && chain.steps.length) out.push(...chainPieces(chain.lhs, chain.steps));
    chain = undefined;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const f = FRAGMENT.exec(line);
    if (!f) {
      // a formula alone on its line (trailing punctuation allowed) is a display
      const m = /^\$\$?([^$]+)\$\$?[.,;:]?$/.exec(line);
      const eq = m && stripEquationLabel(m[1]);
      if (eq && hasRelation(eq)) { flush(); out.push(eq); }
      continue; // other prose: comments of the table, the chain goes on
    }
    const frag = f[1].replace(/\\ds\b/g, ' ').replace(/\s+/g, ' ').trim();
    const isExpr = /\\ds\b/.test(f[1]);
    if (rel !== undefined) {
      // the right side of a step
      if (isExpr && frag && chain) chain.steps.push([rel, frag]);
      rel = undefined;
      continue;
    }
    if (!isExpr && (frag === '' || RELATION.test(frag))) {
      const lhs = [...pending].reverse().find((p) => p && !IMPLICATION.test(p));
      pending = [];
      if (!RELATION.test(frag)) { flush(); continue; } // an empty or set relation: no equation here
      if (lhs) { flush(); chain = { lhs, steps: [] }; }
      else if (!chain) continue; // a continuation with nothing above
      rel = frag;
      continue;
    }
    if (!isExpr) { flush(); pending = []; continue; } // a relation we do not keep
    pending.push(frag);
  }
  flush();
  // a chain's left side may start with the label or spacing too ("\quad \frac 1 2 = …")
  return out.map(stripEquationLabel).filter((e) => e.length <= MAX_INDEX_EQUATION_CHARS && !/^\s*$/.test(e));
}
