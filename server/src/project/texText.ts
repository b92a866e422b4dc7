// TeX of a number or a declared name as the PDF shows it in running text (`3A$^{\dagger}$` →
// `3A†`, `The\-o\-rem` → `Theorem`). Pure: the theorem registry and the printed names both read it.

/** Symbols a number or name may hold, as text. */
const SYMBOLS: Record<string, string> = {
  dagger: '†', ddagger: '‡', dag: '†', ddag: '‡', star: '⋆', ast: '∗', textasteriskcentered: '∗', prime: '′', S: '§', P: '¶',
  textdagger: '†', textdaggerdbl: '‡', textsection: '§', natural: '♮', sharp: '♯', flat: '♭', bullet: '•', circ: '∘',
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ', lambda: 'λ', mu: 'μ',
  pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ', phi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω', Gamma: 'Γ', Delta: 'Δ', Lambda: 'Λ',
  Pi: 'Π', Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω', ldots: '…', dots: '…', textendash: '–', textemdash: '—',
};

/** Commands that print nothing themselves (their argument, if any, is kept). */
const TRANSPARENT = new Set([
  'relax', 'ignorespaces', 'protect', 'nobreakspace', '@', 'textup', 'textit', 'textbf', 'textrm', 'textsf', 'texttt',
  'emph', 'mathrm', 'mathit', 'mathbf', 'text', 'ensuremath', 'normalfont', 'upshape', 'itshape', 'bfseries', 'rmfamily', 'nolinkurl',
]);

/**
 * TeX of a number or a name as the PDF shows it in text: symbols written out, fonts, math
 * shifts, braces and `^` dropped; undefined when a command no table knows remains (the text
 * would be a guess).
 */
export function texText(tex: string): string | undefined {
  let unknown = false;
  const out = tex
    .replace(/\\([A-Za-z@]+)\s*/g, (all, name: string) => {
      if (SYMBOLS[name] !== undefined) return SYMBOLS[name];
      if (TRANSPARENT.has(name)) return '';
      unknown = true;
      return all;
    })
    .replace(/\\([,;:! ])/g, ' ')
    // `The\-o\-rem`: a hyphenation hint prints nothing unless the line breaks there
    .replace(/\\-/g, '')
    .replace(/[{}$^]/g, '')
    .replace(/~/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return unknown ? undefined : out;
}
