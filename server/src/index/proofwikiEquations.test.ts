import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { equationFeatures } from './equationFeatures.js';
import { proofWikiEquations, stripEquationLabel } from './proofwikiEquations.js';

test('ProofWiki equation numbers are not part of the equation', () => {
  const cases: Array<[string, string]> = [
    ['(2): \\quad: m^2 - 5 m + 6 = 0', 'm^2 - 5 m + 6 = 0'],
    ['(1): \\quad \\paren {A + B}^* = A^* + B^*', '\\paren {A + B}^* = A^* + B^*'],
    ['(1) \\quad x = r + p^n y', 'x = r + p^n y'],
    ['(2)\\quad \\norm{x -y}_p \\le p^{-n}', '\\norm{x -y}_p \\le p^{-n}'],
    ['(2): \\card S = 0', '\\card S = 0'],
    ["(2'): \\quad A = C", 'A = C'],
    ['(1b): \\quad \\map w x > 0', '\\map w x > 0'],
    ['(\\text M 1): \\quad \\map d {x, x} = 0', '\\map d {x, x} = 0'],
    ['(4 \\text b): \\quad k = m^+', 'k = m^+'],
    ['(OR2): \\quad 0_R \\le x', '0_R \\le x'],
    ['(1) \\ PQ^2 = CP^2 + CQ^2', 'PQ^2 = CP^2 + CQ^2'],
    ['\\quad \\bot := \\sup \\O', '\\bot := \\sup \\O'],
    // genuine leading parentheses stay
    ['(a + b)^2 = a^2 + 2 a b + b^2', '(a + b)^2 = a^2 + 2 a b + b^2'],
    ['(1) = 1', '(1) = 1'],
    ['(n) (n + 1) = n^2 + n', '(n) (n + 1) = n^2 + n'],
    ['(G, \\circ): x = y', '(G, \\circ): x = y'],
  ];
  for (const [latex, want] of cases) assert.equal(stripEquationLabel(latex), want, latex);
});

test('a numbered display of a ProofWiki page is extracted without its number and matches by fingerprint', () => {
  // Linear Second Order ODE/y'' - 5 y' + 6 y = 0 (rendered text)
  const text = 'Its auxiliary equation is:\n\n$(2): \\quad: m^2 - 5 m + 6 = 0$\nFrom Solution to Quadratic Equation:\n$(2) \\quad$ the canonical form';
  const eqs = proofWikiEquations(text);
  assert.deepEqual(eqs, ['m^2 - 5 m + 6 = 0']);
  const q = equationFeatures('x^2-5x+6=0');
  assert.ok(q.difference);
  assert.equal(equationFeatures(eqs[0]).difference, q.difference);
});
