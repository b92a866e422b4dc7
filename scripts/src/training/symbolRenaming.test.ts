import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mathVariables, renameSharedSymbols, seededRandom } from './symbolRenaming.js';

test('renames the variables a statement shares with its proof, consistently', () => {
  const st = 'Let $x, y \\in \\mathbb{R}$ with $x < y$. Then $f(x) < f(y)$ for all $t$.';
  const pr = 'Since $x < y$ and $f$ is increasing, $f(x) < f(y)$.';
  const out = renameSharedSymbols(st, pr, seededRandom(1));
  const vars = mathVariables(out);
  for (const v of ['x', 'y', 'f']) assert.ok(!vars.has(v), `${v} should be renamed in: ${out}`);
  assert.ok(vars.has('t'), 'a variable not in the proof stays');
  assert.ok(out.includes('\\mathbb{R}'), 'set names are not variables');
  assert.equal(out, renameSharedSymbols(st, pr, seededRandom(1)), 'deterministic for a seed');
});

test('text outside math and command names are untouched', () => {
  const out = renameSharedSymbols('a function $f$ is \\emph{fine} $\\frac{a}{b}$', '$f$ $a$', seededRandom(2));
  assert.ok(out.startsWith('a function $'));
  assert.ok(out.includes('\\frac{') && out.includes('\\emph{fine}'));
  assert.ok(!mathVariables(out).has('f') && !mathVariables(out).has('a'));
});
