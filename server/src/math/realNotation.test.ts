// The derivation checker on notation found in real projects (../shared/data/latex-wild): each
// class that raised false alarms, as a small document, next to a real mistake written the same
// way that must still be flagged.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../testing/fixture.js';
import { DerivationChecker } from './checker.js';
import { checkWorkspaceDocumentSync } from './service.js';
import { derivationDiagnostics } from '../features/equations/derivation.js';

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

test('a solution written inside its exercise (`sol`, `soln`, `pf` too) has the exercise as its setting', () => {
  assert.deepEqual(flagged(String.raw`
\begin{problem}
Let $G$ be a group with presentation $\langle a, c \mid ac = ca^8 \rangle$. Find its order.
\begin{hint} Just manipulation. \end{hint}
\begin{sol}
We note that
\begin{align*}
  a \cdot ca^6 &= c^2 a^4 \cdot c \\
  a^{14} &= c(a^4c) = c^2 a^{32}.
\end{align*}
\end{sol}
\end{problem}
\begin{problem}
Compute the area of a square of side $7$.
\begin{soln} The area is \[ A = 7^2 = 47 . \] \end{soln}
\end{problem}`), ['47']);
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

// Unseen books (issue 35): rows with their own left sides are separate equations; notation
// read as a reader does (percentages, differentials, increments, printed roundings, `\approx`
// at the precision printed); objects that are not real numbers in their setting.

test('rows with their own left sides are separate equations, even with every relation aligned', () => {
  assert.deepEqual(flagged(String.raw`
\begin{align*}
t_1 &= t_0 + 1 &= 1 \\
t_2 &= t_1 + 2 &= 3 \\
t_3 &= t_2 + 3 &= 6
\end{align*}
The partial sums:
\begin{align*}
S_1 &= 1 & &= 1 \\
S_2 &= 1 + 2 & &= 3 \\
S_3 &= 1 + 2 + 3 & &= 7
\end{align*}
Eliminating,
\begin{alignat*}{2}
2x &+ 3y &&= 7 \\
x &- y &&= 1 \\
& 5y &&= 5
\end{alignat*}
A chain continues the previous right side:
\begin{align*}
(x - 1)^2 &= x^2 - 2x + 1 \\
&= x^2 + 2x + 1
\end{align*}
and one row is still a chain:
\begin{gather*}
S_1 = 1 \\
S_2 = 1 + 2 = 4
\end{gather*}`), ['7', 'x^2 + 2x + 1', '4']);
});

test('percentages, differentials and increments are read the same way on both sides', () => {
  assert.deepEqual(flagged(String.raw`
\[ \frac{83}{200} = 0.415 = 41.5\% \]
\[ \frac{83}{200} \cdot 100 = 41.5\% \]
\[ (dx)^2 + (dt)^2 = dx^2 + dt^2 \]
\[ \delta N_1 + \delta N_1 = 2 \delta N_1 \]
\[ \Delta{E}^2 + \Delta E^2 = 2 (\Delta E)^2 \]
But
\[ \frac{83}{200} \cdot 100 = 42.5\% \]
\[ (dx)^2 + (dy)^2 = dx^2 + dy^2 = dx^2 + 2 dy^2 \]
\[ \Delta \theta + \Delta \theta = 3 \Delta \theta \]`), ['42.5\\%', 'dx^2 + 2 dy^2', '3 \\Delta \\theta']);
});

test('a computed value printed rounded is a rounding; an exact integer is printed exactly', () => {
  assert.deepEqual(flagged(String.raw`
\[ 1000 \pi = 3142 \]
\[ \frac{5000}{7} = 714 \]
\[ \frac{5000}{7} = 715 \]
\[ 2^{10} = 1020 \]`), ['715', '1020']);
});

test('\\approx is checked at the precision printed, the author\'s intermediate roundings allowed', () => {
  assert.deepEqual(flagged(String.raw`
\[ 3 \sqrt{2} \approx 3 \times 1.41 \approx 4.24 \]
\[ \frac{1}{3} + \frac{1}{3} \approx 0.33 + 0.33 \approx 0.67 \]
\[ \frac{3 \times 10^8}{2.2} \approx 1.36 \times 10^{8} \]
\[ \sqrt{0.56} \approx \frac{3}{4} \]
The mean is
\[ \frac{0.6 + 0.75 + 0.9}{3} \approx 0.76 . \]`), ['0.76']);
});

test('ideals, Legendre symbols, presentations, anticommuting variables and F_2 are not real numbers', () => {
  assert.deepEqual(flagged(String.raw`
In the ring $\mathbb{Z}$ the radical of the ideal $(18)$ is
\[ \sqrt{(18)} = (6) . \]

Let $p$ be an odd prime. Then
\[ \left(\frac{3}{7}\right) = -\left(\frac{7}{3}\right) = -\left(\frac{1}{3}\right) = -1 . \]

Consider the presentation $\langle a, b \mid a^2, b^2, (ab)^2 \rangle$. There
\[ a b a^{-1} = a b a = b^{-1} . \]

For anticommuting $\theta$ and $\eta$,
\[ (\theta + \eta)^2 = \theta^2 + \theta \eta + \eta \theta + \eta^2 = \theta \eta + \eta \theta . \]

In $\F_2[x]$,
\[ (x + 1)^2 = x^2 + 2x + 1 = x^2 + 1 . \]

With $r = |\mathbf r|$ the distance from the origin,
\[ \frac{\partial}{\partial x} \frac{1}{r} = -\frac{1}{r^2} \frac{\partial r}{\partial x} = -\frac{x}{r^3} . \]

In plain numbers, though,
\[ \left(\frac{3}{7}\right)^2 = \frac{9}{48} \]
and a derivative of letters that show its variable is checked:
\[ \frac{\partial}{\partial x} (x^2 y) = 3 x y = 3 y x . \]`), ['\\frac{9}{48}', '3 x y']);
});

test('an optimisation problem states an objective and constraints, not identities; an identity list beside it is still checked', () => {
  assert.deepEqual(flagged(String.raw`
The problem is
\begin{align*}
\min_{x} \ & c'x \\
\text{subject to } \ & Ax = b \\
& x \geq 0
\end{align*}
and
\begin{align*}
(a+b)^2 &= a^2 + 2ab + b^2 \\
(x-y)^2 &= x^2 - 2xy - y^2
\end{align*}`), ['x^2 - 2xy - y^2']);
});

test('a relation stated in the sentence after a display, or earlier in its example, is a hypothesis of its steps', () => {
  const step = String.raw`\[
  pt^2 - t + q = (pt - q)(t - 1) = 0,
\]`;
  assert.deepEqual(flagged(`Try $p_z = t^z$. Then\n${step}\nnoting that $p = 1 - q$. Hence the roots.`), []);
  assert.deepEqual(flagged(String.raw`\begin{example}
Let $q = 1 - p$ be the probability of a loss.

Then, in a new paragraph,
${step}
\end{example}`), []);
  // without it, the step does not hold for all p, q
  assert.deepEqual(flagged(`Try $p_z = t^z$. Then\n${step}\nas claimed. Hence the roots.`), ['(pt - q)(t - 1)']);
});

test('in probability, p and q are a probability and its complement; elsewhere they are two letters', () => {
  const chain = String.raw`\begin{align*}
  \E[X] &= \sum_{r=0}^\infty r p q^r \\
  &= \frac{pq}{(1 - q)^2} \\
  &= \frac{q}{p} .
\end{align*}`;
  assert.deepEqual(flagged(String.raw`\begin{example}[Geometric distribution]
Suppose $\P(X = r) = q^r p$ for $r = 0, 1, 2, \dots$. Then
${chain}
\end{example}`), []);
  const variance = String.raw`\[ V = \frac{2pq^2}{(1 - q)^3} + \frac{q}{p} - \frac{q^2}{p^2} = \frac{q}{p^2} . \]`;
  assert.deepEqual(flagged(`For the two letters,\n${variance}`), ['\\frac{q}{p^2}']);
  assert.deepEqual(flagged(`Suppose $\\P(X = r) = q^r p$. Then\n${variance}`), []);
  // a slip that fails with q = 1 - p too is still flagged
  assert.deepEqual(flagged(String.raw`With probability $p$ of a success, \[ (p+q)^2 = p^2 + 2pq + q^2 = p^2 + pq + q^2 . \]`), ['p^2 + pq + q^2']);
});

test('a system eliminated down to 0 = 0 is equations, not identities', () => {
  assert.deepEqual(flagged(String.raw`There are infinitely many solutions:
\begin{align*}
  x_1 + x_2 &= 1\\
  2x_1 + 2x_2 &= 2
  \intertext{which gives}
  x_1 + x_2 &= 1\\
  0 &= 0
\end{align*}`), []);
});

test('a letter that cancels, or a side constant in its letters, leaves a step an identity; segment names and a constant derivative do not', () => {
  assert.deepEqual(flagged(String.raw`
\[ \abs{x_n - x_k} = \abs{x_n - x + x - x_k} \le \abs{x_n - x} + \abs{x - x_k} \]
\[ \abs{x_n - x_k} = \abs{x_n - x + x + x_k} = \abs{x_n + x_k} \]
When $x > 0$,
\[ \frac{\abs{x}-\abs{0}}{x-0} = \frac{x-0}{x-0} = 3 . \]
In the triangle,
\[ \frac{AC}{BC} = \frac{OB}{OA} \]
and with the summation convention
\[ \nabla \cdot \mathbf{r} = \frac{\partial x_i}{\partial x_i} = 3 . \]`), ['\\abs{x_n - x + x + x_k}', '3']);
});

test('a percent sign set in text is the sign; an \\approx that rounds a bound the way it bounds keeps it a bound', () => {
  assert.deepEqual(flagged(String.raw`
\[ (0.1)(0.9) + (0.6)(0.73) + (0.3)(0.85) = 0.783 = 78.3\text{\%} . \]
\[ \frac{0.9+0.73+0.85}{3} \approx 0.837 = 83.7\text{\%} . \]
The error is at most
\begin{align*}
\abs{R_6(2)} &\le \frac{720}{5040} \cdot 1^7 \\
&\approx 0.15 .
\end{align*}
but not at least
\begin{align*}
\abs{R_6(2)} &\ge \frac{720}{5040} \cdot 1^7 \\
&\approx 0.15 .
\end{align*}`), ['0.837', '0.15']);
});

test('rows that fail together in common letters are one equation rewritten; a row beside them that holds is no evidence, nor is z = z', () => {
  assert.deepEqual(flagged(String.raw`
\begin{align*}
\cos^2 t + \sin^2 t &= 1 \\
\left(\frac{x-3}{4}\right)^2 + \left(\frac{y-1}{2}\right)^2 &= 1 \\
\frac{(x-3)^2}{16} + \frac{(y-1)^2}{4} &= 1
\end{align*}
\begin{alignat*}{3}
r^2 &= x^2+y^2, & \tan \theta &= y/x, & z &= z \\
x &= r\cos \theta, & y &= r\sin\theta, & z &= z
\end{alignat*}
But in a list of identities
\begin{align*}
(a+b)^2 &= a^2 + 2ab + b^2 \\
\sin^2 x + \cos^2 x &= 2
\end{align*}`), ['2']);
});

test('matrices and operators by notation or by a French setting, and derivatives of order n, are not products of numbers', () => {
  assert.deepEqual(flagged(String.raw`
For numbers
\[ (x + y)^2 = (x + y)(x + y) = x^2 + y^2 + xy \]
\begin{rmq}
$I^{2} = - \id$. En particulier, $I$ est inversible et
\[ I^{-1} = -I = ^{t}I \]
\end{rmq}
Supposons que $X, Y$ satisfont
\begin{align*}
X &= XAX \\
&= XAYAX \\
&= (XA)^{*} (YA)^{*} Y
\end{align*}
Par récurrence,
\begin{align*}
\frac{d^{n+1}g}{dx^{n+1}} &= \frac{d}{dx} \left( \frac{d^{n}g}{dx^{n}} \right)
\end{align*}
Comme $K$ est un corps de caractéristique $p$,
\[ (x+y)^{p} = (x+y)(x+y)^{p-1} = x^{p} + y^{p} \]`), ['x^2 + y^2 + xy']);
});

test('a series is summed where it settles fast; one summed to another series\' value is flagged, a slow one is left alone', () => {
  assert.deepEqual(flagged(String.raw`
\[ \sum_{n=1}^{\infty} \frac{1}{2^n} = \frac{1/2}{1 - 1/2} = 1 \]
\[ \frac{1}{1-x} = \sum_{n=0}^{\infty} x^n = 1 + \sum_{n=1}^{\infty} x^n \]
\[ e^{x} = \sum_{n=0}^{\infty} \frac{x^n}{n!} = 1 + x + \sum_{n=2}^{\infty} \frac{x^n}{n!} \]
\[ \sum_{n=1}^{\infty} \frac{1}{n^2} = \sum_{n=1}^{\infty} \frac{2}{2n^2} = 2 \]
But
\[ \sum_{n=0}^{\infty} \frac{3}{4^n} = 3 \sum_{n=0}^{\infty} \frac{1}{4^n} = 3 \]
\[ \sin x = \sum_{n=0}^{\infty} (-1)^n \frac{x^{2n+1}}{2n+1!} = x - \frac{x^3}{6} + \cdots \]`), ['3', '\\sum_{n=0}^{\\infty} (-1)^n \\frac{x^{2n+1}}{2n+1!}']);
});

test('a value stated in the text that leaves the step undefined is not one it uses', () => {
  assert.deepEqual(flagged(String.raw`
Let $x = 0$ be excluded; for $x \ne 0$,
\[ \frac{d}{dx} \abs{x} = \frac{x}{\sqrt{x^2}} = \frac{x}{\sqrt{x^3}} \]`), ['\\frac{x}{\\sqrt{x^3}}']);
});

test('the value the sentence after a display states for its result is checked against it; a value of one of its letters is not', () => {
  assert.deepEqual(flagged(String.raw`
The sum of the first three squares is
\[ \sum_{k=1}^{3} k^2 = 1 + 4 + 9 \]
so the sum is $15$.
And
\[ \frac{1}{2} + \frac{1}{4} = \frac{2}{4} + \frac{1}{4} \]
so the total is $\frac{3}{4}$.
Solving,
\[ x^2 + 1 = 5 \]
so $x$ is $2$.
The mean is
\[ \frac{0.6 + 0.75 + 0.9}{3} = \frac{2.25}{3} \]
which is about $0.75$.`), ['15']);
});

test('a term added and subtracted is written to cancel: a sign slip there is flagged; an equation in another letter is not', () => {
  assert.deepEqual(flagged(String.raw`
By the triangle inequality,
\begin{equation*}
\lvert x - z\rvert = \lvert x - y + y - z\rvert \leq \lvert x - y\rvert + \lvert y - z\rvert .
\end{equation*}
Similarly,
\begin{equation*}
\lvert a_n - b\rvert = \lvert a_n - c - c - b\rvert \leq \lvert a_n - c\rvert + \lvert c - b\rvert .
\end{equation*}
Solving,
\begin{equation*}
x^2 + 1 = 2y + 3 .
\end{equation*}`), ['\\lvert a_n - c - c - b\\rvert']);
});

test('a relation stated before the display holds at each of its roots: the step may use any of them; a slip that fails at all of them is flagged', () => {
  assert.deepEqual(flagged(String.raw`
Suppose $A^2=A$ and $A$ is invertible. Then
\[A=A^{-1}AA=A^{-1}A^2=A^{-1}A=E.\]
Suppose $x^2=x$ and $x \neq 0$. Then
\[x = x^{-1}x^2 = 2x^{-1}x.\]`), ['2x^{-1}x']);
});
