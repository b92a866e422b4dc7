// Binary search over a sorted sequence given by a predicate.

/** The first index in [0, n) for which `before(i)` is false (n when none): `before` must hold on a prefix. */
export function lowerBound(n: number, before: (i: number) => boolean): number {
  let lo = 0, hi = n;
  while (lo < hi) { const m = (lo + hi) >> 1; if (before(m)) lo = m + 1; else hi = m; }
  return lo;
}
