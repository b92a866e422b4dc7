// How the CLI reads a plain-text query: formulas typed without dollars are put in math mode.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { markFormulas } from './options.js';

test('markFormulas: formulas typed without dollars go into $…$, words and LaTeX stay as written', () => {
  const cases: Array<[string, string]> = [
    ['a^2+b^2=c^2 Pythagoras', '$a^2+b^2=c^2$ Pythagoras'],
    ['roots of x^2-5x+6=0', 'roots of $x^2-5x+6=0$'],
    ['a prime p divides a^p - a for every a', 'a prime p divides $a^p - a$ for every a'],
    ['f(x) is continuous', '$f(x)$ is continuous'],
    ['sum of 1/n^2 is \\pi^2/6', 'sum of $1/n^2$ is $\\pi^2/6$'],
    ["Heine-Borel theorem", "Heine-Borel theorem"],
    ["Fermat's little theorem", "Fermat's little theorem"],
    ['$x^2$ is already LaTeX', '$x^2$ is already LaTeX'],
    ['\\(x^2 + 1\\) too', '\\(x^2 + 1\\) too'],
  ];
  for (const [q, want] of cases) assert.equal(markFormulas(q), want, q);
});
