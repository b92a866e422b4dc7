// Numeric check that a rewritten expression still equals its seed: the numeric fingerprint the
// related-equations search matches on (complex evaluation, principal branches, derivatives
// differentiated symbolically, every variable in (0.15, 0.85) — the positive domain on which
// the rules' domain-restricted identities such as ln(ab) = ln a + ln b hold), compared by
// name (no renaming) within its tolerance. So every member collides with its seed at run time.
import { type Expr, freeVars, expressionFingerprint, sameClass } from 'mathsense-server/api/math';

/** Values beyond this are overflow-prone: such a seed is not a useful formula. */
const MAX_MAGNITUDE = 1e8;

/** A seed worth rewriting: has a variable, has a fingerprint (finite at every point) and is not constant. */
export function usableSeed(e: Expr): boolean {
  if (freeVars(e).size === 0) return false;
  const f = expressionFingerprint(e, { rename: false });
  if (!f) return false;
  const v = f.values;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < v.length; i += 2) {
    if (Math.abs(v[i]) > MAX_MAGNITUDE || Math.abs(v[i + 1]) > MAX_MAGNITUDE) return false;
    lo = Math.min(lo, v[i]);
    hi = Math.max(hi, v[i]);
  }
  return hi - lo > 1e-6 * Math.max(1, Math.abs(hi), Math.abs(lo));
}

/** Do `a` and `b` have the same fingerprint (variables matched by name)? */
export function numericallyEqual(a: Expr, b: Expr): boolean {
  const fa = expressionFingerprint(a, { rename: false });
  const fb = fa && expressionFingerprint(b, { rename: false });
  return !!fa && !!fb && sameClass(fa, fb);
}
