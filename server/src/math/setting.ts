// What the setting of a display says about its letters: the text of its own statement, proof,
// example or list item (blocks.ts#scopeStart), and the prose just before it. Three things
// change how a step is read:
// * modular arithmetic (congruences, Z/n, finite fields, Legendre symbols): even a step in
//   numbers alone (`2 \cdot 4 = 3`) is not an equality of real numbers;
// * a structure the letters belong to (a ring, a group, matrices, operators, vectors): a step
//   in letters is not about real numbers;
// * complex numbers: a polynomial, rational, exponential or trigonometric identity holds over
//   the complex numbers exactly when it holds over the reals, so such steps are still checked;
//   one with a modulus, a root, a logarithm or a fractional power is not.

export interface Setting {
  /** Each flag holds the word of the text that set it (for the message). */
  modular?: string;
  structure?: string;
  complex?: string;
}

const MODULAR = /characteristic\s+(?:\d|p\b|\$)|\\pmod|\\bmod|\\mod\b|\bmod(?:ulo)?\b|congruen|residues?\b|legendre|jacobi symbol|kronecker symbol|finite fields?|galois field|\\mathbb\s*\{?F|\\mathbf\s*\{?F|\\mathbb\s*\{?Z\}?\s*(?:\/|_\s*\{?\s*[A-Za-z0-9])|\\Z\s*(?:\/|_)|\bGF\s*\(/i;

const STRUCTURE = /\bgroups?\b|subgroups?\b|\bcosets?\b|\brings?\b|\bideals?\b|\bmodules?\b|semigroup|monoid|quaternion|abelian|(?<!non-?)commutative|non-?commutative|homomorphi|isomorphi|automorphi|endomorphi|permutation|ordinal|cardinal(?:ity|s)?\b|boolean|\blattices?\b|sheaf|sheaves|\bschemes?\b|functor|categor(?:y|ies)\b|homotop|\bmatri(?:x|ces)\b|eigen(?:values?|vectors?|spaces?)|orthonormal|self-adjoint|vector spaces?|\bvectors?\b|linear (?:maps?|operators?|transformations?|functionals?)|\boperators?\b|inner products?|tensor|\bnorms?\b|idempotent|nilpotent|roots? of unity|primitive\s+(?:\S+\s+)?roots?/i;

const COMPLEX = /\bcomplex\b|\\mathbb\s*\{?C\b|\\C\b(?![A-Za-z])/i;

export function readSetting(text: string): Setting {
  const s: Setting = {};
  if (!text) return s;
  const m = MODULAR.exec(text);
  if (m) s.modular = m[0];
  const st = STRUCTURE.exec(text);
  if (st) s.structure = st[0];
  const c = COMPLEX.exec(text);
  if (c) s.complex = c[0];
  return s;
}

export function mergeSettings(a: Setting | undefined, b: Setting | undefined): Setting {
  return { ...(a ?? {}), ...(b ?? {}) };
}

/** `M`, `S`, `C` for the flags set: part of cache keys. */
export function settingKey(s: Setting | undefined): string {
  return s ? `${s.modular ? 'M' : ''}${s.structure ? 'S' : ''}${s.complex ? 'C' : ''}` : '';
}

/** LaTeX of a step that does not mean the same over the complex numbers as over the reals. */
export const NOT_ANALYTIC = /\\(?:sqrt|left\s*\||abs|cmod|size|vert|lvert|rvert|Vert|ln|log|lg|arg|Re|Im|overline|bar|conj|sgn|max|min|floor|ceil|lfloor|lceil)\b|\||\^\s*\{?\s*-?\s*\d*\s*(?:\/|\\frac|\.\d)/;
