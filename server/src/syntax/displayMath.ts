// The display-math environments, and how their rows and columns are laid out: the one list the
// block analyser, the step extractor and the renderer read. Two readers keep lists of their own,
// because what they read is frozen in the trained encoders and the built index: the tokenizer
// (embeddings/latexScanner.ts MATH_ENVS) and the equation reader that computes the index's
// fingerprints (math/equations/equation.ts DISPLAY_OPEN, canonicalLatex.ts LAYOUT_ENVS).

/** Display-math environments; the value says whether `\\` starts a new numbered row. */
export const DISPLAY_MATH_ENVS: Record<string, boolean> = {
  equation: false, 'equation*': false, displaymath: false, multline: false, 'multline*': false,
  dmath: false, 'dmath*': false,
  align: true, 'align*': true, gather: true, 'gather*': true, eqnarray: true, 'eqnarray*': true,
  flalign: true, 'flalign*': true, alignat: true, 'alignat*': true, xalignat: true, xxalignat: true,
  dgroup: true, 'dgroup*': true,
  '\\[': false, '$$': false,
};

/** Each name, and its starred form. */
function withStars(names: readonly string[]): ReadonlySet<string> {
  return new Set(names.flatMap((n) => [n, `${n}*`]));
}

/**
 * Environments whose `&` columns come in (right-aligned, left-aligned) pairs, one equation each:
 * `\mu &= 1/p & \sigma^2 &= (1-p)/p^2`.
 */
export const PAIRED_COLUMN_ENVS = withStars(['align', 'alignat', 'flalign', 'xalignat', 'xxalignat']);

/** Environments whose rows are aligned at `&` (drawn as `aligned`): the paired ones and `eqnarray`. */
export const ALIGNED_ROW_ENVS = withStars(['align', 'flalign', 'alignat', 'eqnarray', 'xalignat', 'xxalignat']);

/** Environments whose rows stand one under another, not aligned (drawn as `gathered`). */
export const GATHERED_ROW_ENVS = withStars(['gather', 'multline', 'dgroup']);
