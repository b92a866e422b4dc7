// The derivation checker on notation found in real projects (../shared/data/latex-wild): each
// class that raised false alarms, as a small document, next to a real mistake written the same
// way that must still be flagged.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../testing/fixture.js';
import { DerivationChecker } from './checker.js';
import { checkWorkspaceDocumentSync } from './service.js';
import { derivationDiagnostics } from '../features/derivation.js';

/** The right sides of the flagged steps of a one-file document. */
function flagged(src: string): string[] {
  const fx = fixture(`%! main.tex\n\\documentclass{article}\n\\begin{document}\n${src}\n\\end{document}\n`);
  const doc = fx.doc('main.tex');
  const steps = checkWorkspaceDocumentSync(fx.ws, doc, new DerivationChecker());
  return derivationDiagnostics(doc, steps).map((d) => doc.text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)).trim());
}

test('equations side by side in an align row are separate equations; a wrong one among them is flagged', () => {
  assert.deepEqual(flagged(String.raw`
The mean and variance are
\begin{align*}
\mu &= \frac{1}{p} & \sigma^2 &= \frac{1-p}{p^2} & \sigma &= \sqrt{\frac{1-p}{p^2}}
\end{align*}
and
\begin{align*}
(a+b)^2 &= a^2 + 2ab + b^2 && \text{expanding} \\
(x-y)^2 &= x^2 - 2xy - y^2 && \text{expanding}
\end{align*}`), ['x^2 - 2xy - y^2']);
});

test('numbers printed by macros are rounded like numbers written out', () => {
  assert.deepEqual(flagged(String.raw`
\newcommand{\se}{0.010}
\newcommand{\z}{2.37}
\newcommand{\zbad}{2.9}
\begin{align*}
\sqrt{\frac{0.2 \times 0.8}{1500}} &= \se{} \\
\frac{1.698 + 0.33}{0.855} &= \z{} \\
\frac{1.698 + 0.33}{0.855} &= \zbad{}
\end{align*}`), ['\\zbad{}']);
});

test('a domain stated for a display holds until the text states another; each display gets its own', () => {
  assert.deepEqual(flagged(String.raw`
When $x > 0$,
\begin{equation*}
\frac{\lvert x\rvert - \lvert 0\rvert}{x - 0} = \frac{x - 0}{x - 0} = 1 .
\end{equation*}
When $x < 0$,
\begin{equation*}
\frac{\lvert x\rvert - \lvert 0\rvert}{x - 0} = \frac{-x - 0}{x - 0} = -1 .
\end{equation*}
When $x < 0$ again,
\begin{equation*}
\frac{\lvert x\rvert}{x} = \frac{-x}{x} = \frac{x}{x} .
\end{equation*}`), ['\\frac{x}{x}']);
});

test('quantities written as one symbol: D_n is a term, not a derivative; \\Delta x is one increment', () => {
  assert.deepEqual(flagged(String.raw`
\begin{multline*}
D_{n+1} = D_n + (j-1){10}^{-(n+1)} < x \leq D_n + j {10}^{-(n+1)} \\
= D_n + (j-1) {10}^{-(n+1)} + {10}^{-(n+1)} = D_{n+1} + {10}^{-(n+1)} .
\end{multline*}
and
\begin{equation*}
{(\Delta x)}^2 + 2\Delta x = \Delta x (\Delta x + 2) = \Delta x^2 + 3\Delta x
\end{equation*}`), ['\\Delta x^2 + 3\\Delta x']);
});

test('one relation in letters is a statement (an equation to solve), not a derivation step', () => {
  assert.deepEqual(flagged(String.raw`
Take the limit of both sides to obtain
\begin{equation*}
2x^2 = x^2 + 2 ,
\end{equation*}
or $x^2 = 2$. In numbers, \[ 3 \times 17 \times 169 = 8517 . \]`), ['8517']);
});

test('an inequality that holds far out on the axis is not refuted by small values', () => {
  assert.deepEqual(flagged(String.raw`
If $|z| = 46 + \epsilon$ where $\epsilon > 0$, then
\begin{equation*}
46 |z|^3 < |z|^4 = |z^4| .
\end{equation*}
But always
\begin{equation*}
x^2 + 1 \leq x^2 < x^2 + 2 .
\end{equation*}`), ['x^2']);
});

test('the setting is the display\'s own statement, proof, example or list item', () => {
  assert.deepEqual(flagged(String.raw`
\begin{itemize}
\item In a group $G$ with $x^2 = e$ for all $x$,
\[ ab = (ab)^{-1} = b^{-1} a^{-1} = ba . \]
\item For the distance of $(12, 5)$ from the origin,
\[ d = \sqrt{12^2 + 5^2} = 14 . \]
\end{itemize}
Let $H$ be a subgroup of $G$; its cosets partition $G$.
\begin{example} For real $t$, \[ \sin 2t = 2 \sin t \cos t = \sin t \cos t . \] \end{example}
Modulo $5$ we have \[ 2 \cdot 4 = 8 = 3 . \]`), ['14', '\\sin t \\cos t']);
});

test('complex letters: a polynomial identity is checked, a modulus or root is not', () => {
  assert.deepEqual(flagged(String.raw`
For complex $z$,
\[ (z + 1)^2 = (z+1)(z+1) = z^2 + 2z + 2 \]
and
\[ |z|^2 = |z| |z| = z^2 . \]`), ['z^2 + 2z + 2']);
});

test('a relation stated in the text excuses a step only if using it makes the step hold', () => {
  assert.deepEqual(flagged(String.raw`
Let $q = 1 - p$. Then
\[ p + q = p + 1 - p = 1 \]
and
\[ p \cdot q = p (1 - p) = p - p^2 = p + p^2 . \]`), ['p + p^2']);
});

test('a step citing a general result is checked; one citing a hypothesis or an equation number is not', () => {
  assert.deepEqual(flagged(String.raw`
\begin{align*}
\cos^2 x &= 1 - \sin^2 x && \text{Pythagorean identity} \\
&= 1 + \sin^2 x && \text{by the same identity}
\end{align*}
\begin{align*}
y &= 3 y - 2 y \\
&= 5 && \text{by (2)}
\end{align*}`), ['1 + \\sin^2 x']);
});
