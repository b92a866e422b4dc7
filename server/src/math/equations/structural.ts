// Structural features of a formula: n-grams (n = 1…3) of the tokens of its canonical text,
// compared as multisets. Two formulas built the same way from the same symbols score high
// whatever their letters (the canonical text has renamed them already).

/** Token n-grams, n = 1…maxN (at most 3), of at most `maxTokens` tokens (bounded for huge formulas). */
export function shapeFeatures(tokens: readonly string[], maxN = 3, maxTokens = 256): string[] {
  const t = tokens.length > maxTokens ? tokens.slice(0, maxTokens) : tokens;
  const out: string[] = [];
  for (let k = 0; k < t.length; k++) out.push(t[k]);
  if (maxN >= 2) for (let k = 0; k + 1 < t.length; k++) out.push(t[k] + ' ' + t[k + 1]);
  if (maxN >= 3) for (let k = 0; k + 2 < t.length; k++) out.push(t[k] + ' ' + t[k + 1] + ' ' + t[k + 2]);
  return out;
}

/** Dice coefficient of the two feature multisets: 1 for equal shapes, 0 for nothing shared. */
export function structuralSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const f of a) counts.set(f, (counts.get(f) ?? 0) + 1);
  let shared = 0;
  for (const f of b) {
    const n = counts.get(f);
    if (n) { shared++; counts.set(f, n - 1); }
  }
  return (2 * shared) / (a.length + b.length);
}
