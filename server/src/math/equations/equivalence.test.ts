// Confirming "same equation" claims: the false claims users saw on a differential equations
// book are refused (subscripted symbols, Greek against Latin, a derivative read as zero, a
// display too small to mean anything), true equivalents are confirmed (renamed, rescaled,
// rearranged, sides swapped, inequalities mirrored, identities by their own class).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayRelations } from './equation.js';
import { confirmSameDisplay } from './equivalence.js';

function same(a: string, b: string): boolean {
  const da = displayRelations(a);
  const db = displayRelations(b);
  if (!da || !db) return false;
  const ab = confirmSameDisplay(da, db);
  assert.equal(ab, confirmSameDisplay(db, da), `symmetric on ${a} / ${b}`);
  return ab;
}

test('equivalence: the false "same equation" claims of a fingerprint collision are refused', () => {
  // the transport equation is no quadratic: u_x, u_t are not free to become x_a, c
  assert.equal(same('\\alpha u_x + u_t = 0', 'x_a^2 = (x_b + x_a)x_a + c'), false);
  // Greek letters stay Greek
  assert.equal(same('\\xi = x - \\alpha t', 'r = a - qb'), false);
  // dy/dx read with y independent of x is zero: not the author's equation
  assert.equal(same('x + y\\frac{dy}{dx} = 0', '\\frac{du}{ds} + 2u = 0'), false);
  assert.equal(same('(2x+y) + (x-1)\\frac{dy}{dx} = 0', 'p = -2 m_1'), false);
  // too small to say anything
  assert.equal(same('u_s = 0', 'a_n = 0'), false);
  assert.equal(same('n = r + k', 'x = n + t'), false);
  // two identities equal to 1 are not the same identity
  assert.equal(same('\\cosh^2 u - \\sinh^2 u = 1', '\\sin^2 t + \\cos^2 t = 1'), false);
  // a display with a relation the evaluator cannot read is not confirmed at all
  assert.equal(same('u_t = u_{xx}, \\qquad u(0,x) = g(x)', 'v_s = v_{yy}, \\qquad v(0,y) = h(y)'), false);
});

test('equivalence: true equivalents are confirmed', () => {
  assert.equal(same('(a+b)^2 = a^2 + 2ab + b^2', '(p+q)^2 = q^2 + 2pq + p^2'), true);
  assert.equal(same('x^2 - 5x + 6 = 0', '2t^2 - 10t = -12'), true, 'rescaled');
  assert.equal(same('x^2 - 5x + 6 = 0', '(y-2)(y-3) = 0'), true, 'factored');
  assert.equal(same('a + 2b^2 < 1', 'a + 2b^2 > 1'), false, 'reversed inequality');
  assert.equal(same('a + 2b^2 < c', 'c > a + 2b^2'), true, 'mirrored inequality');
  assert.equal(same('a^3 + 2b^2 < 1', '1 > x^3 + 2y^2'), true, 'mirrored and renamed');
  assert.equal(same('\\cosh^2 u - \\sinh^2 u = 1', '-\\sinh^2 v + \\cosh^2 v = 1'), true, 'an identity by its own class');
  assert.equal(same('e^{i\\theta} = \\cos\\theta + i\\sin\\theta', '\\cos\\phi + i \\sin\\phi = e^{i\\phi}'), true);
  assert.equal(same('x_0^2 + 2 x_1 = 1', 'a^2 + 2b = 1'), true, 'numbered symbols are ordinary variables');
  assert.equal(same('u_t = k u_{xx}', 'u_t = c u_{xx}'), false, 'a constant renamed in a display that says little');
  assert.equal(same('u_t = 2 u_{xx} + 3 u_x^2 + 5', 'v_s = 2 v_{yy} + 3 v_y^2 + 5'), true, 'subscripts renamed consistently');
  assert.equal(same('u_t = 2 u_{xx} + 3 u_x^2 + 5', 'v_s = 2 w_{yy} + 3 w_y^2 + 5'), false, 'but not a base into two');
  assert.equal(same('x_c = A \\cos (\\omega_0 t) + B \\sin (\\omega_0 t)', 'x_c = C_1 \\cos (\\omega_0 t) + C_2 \\sin (\\omega_0 t)'), true);
});

test('equivalence: identities and constants by their forms, definitions by what they define', () => {
  // numeric facts: any nonzero constant is a multiple of any other
  assert.equal(same('e^{i \\pi /2} = i', 'e^{i \\pi} = -1'), false);
  assert.equal(same('e^{i\\pi} = -1', 'e^{\\pi i} = -1'), true);
  // identities in arithmetic: the same forms, not only the same values
  assert.equal(same('(a + b) + c = a + (b + c)', 'p + u + v = \\frac{1}{2}(p+2u) + \\frac{1}{2}(p+2v)'), false);
  assert.equal(same('\\frac{x^2-c^2}{x-c} = \\frac{(x+c)(x-c)}{x-c} = (x+c)', '(a+b) \\cdot 1 = a+b = (a \\cdot 1)+(b \\cdot 1)'), false);
  assert.equal(same('(a+b)^2 = a^2 + 2ab + b^2', '(p+q)^2 = q^2 + 2pq + p^2'), true);
  // `f = u + iv` defines f: it is not `a = l - im` read backwards
  assert.equal(same('f = u + iv', 'a = l - i m'), false);
  // nor, renamed letter for letter, anything else of its shape: its letters are particular quantities
  assert.equal(same('f = u + iv', 'g = p + i q'), false);
  assert.equal(same('f = u + iv', 'f = u + iv'), true);
});

test('equivalence: letters that sit in the same places make no map (issue 36)', () => {
  // two steps of one proof
  assert.equal(same('p_k = s_k m_k', 'c_k = w_k d_k'), false);
  // Bézout and a line
  assert.equal(same('1 = ax + by', '1 = \\alpha u + \\beta v'), false);
  assert.equal(same('1 = ax + by', '1 = cx + dy'), false);
  assert.equal(same('1 = ax + by', 'ax + by = 1'), true);
  // the division algorithm in other letters
  assert.equal(same('a = qb + r', 'n = kd + s'), false);
  // a Fibonacci identity is not a relation between operators
  assert.equal(same('L_{y} R_{y} = R_{Sy}', 'F_{2 n} = F_n L_n'), false);
  // juxtaposed operators do not commute
  assert.equal(same('L_y R_y L_{Sy} x = x', 'L_{Sy} R_y L_{y} x = x'), false);
  // what stays fixed says enough: a polynomial equation in another unknown, a law in other letters
  assert.equal(same('z^2 + 1 = 0', 'x^2 + 1 = 0'), true);
  assert.equal(same('a(b + c) = ab + ac', 'x(y + z) = xy + xz'), true);
  assert.equal(same('(ab)^c = a^c b^c', '(rs)^x = r^x s^x'), true);
  assert.equal(same('ab = ba', 'xy = yx'), true);
});

test('equivalence: an operation of the text\'s own is not a product of numbers', () => {
  assert.equal(same('(a * b) * c = a * (b * c)', '(m n) \\cdot a = m \\cdot (n \\cdot a)'), false);
  assert.equal(same('(a \\ast b) \\ast c = a \\ast (b \\ast c)', '(p \\ast q) \\ast r = p \\ast (q \\ast r)'), false);
  assert.equal(same('(ab)c = a(bc)', '(mn) \\cdot p = m \\cdot (n \\cdot p)'), true);
});
