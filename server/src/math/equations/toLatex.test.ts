// The printer's output is read back by the derivation checker's own pipeline (normalizeLatex,
// parseLatex, toExpr) as an equal expression, in every style, on real E-Gen lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type LatexStyle, plainNumber, toLatex, variableLatex } from './toLatex.js';
import { parsePrefix } from './prefix.js';
import { egenDir, readEgenClusters } from './egenClusters.js';
import { sharedData } from '../../testing/paths.js';
import { type Expr, exprKey, num, op } from '../expr.js';
import { expressionFingerprint, sameClass } from './fingerprint.js';
import { seededRandom } from '../../util/random.js';
import { newContext, parseLatex, toExpr } from '../parse.js';
import { normalizeLatex } from '../normalize.js';
import { expandMacros, macroTable } from '../macros.js';
import { Evaluator } from '../evaluate.js';

const DIR = egenDir(sharedData);
const SKIP = fs.existsSync(DIR) ? false : 'E-Gen data not found';
const x: Expr = { k: 'var', name: 'x' };
const y: Expr = { k: 'var', name: 'y' };

export const STYLES: Array<Partial<LatexStyle>> = [
  {},
  { times: 'juxtapose', fnParens: 'minimal', leftRight: false, frac: 'slash' },
  { times: 'juxtapose', fnParens: 'minimal' },
  { frac: 'slash', exp: 'exp' },
  { times: 'times', exp: 'exp', leftRight: false },
];

/** The checker's reading of a LaTeX expression (as stepReading.ts prepares a side). */
export function readBack(tex: string): Expr {
  const t = normalizeLatex(expandMacros(tex, macroTable([]))!);
  const j = parseLatex(t);
  return toExpr(j, newContext([j], t.includes('/')));
}

test('toLatex: styles', () => {
  const e = op('add', op('mul', num(2), x, op('sin', y)), op('div', num(1), op('add', x, num(1))));
  assert.equal(toLatex(e), '2 \\cdot x \\cdot \\sin\\left(y\\right) + \\frac{1}{x + 1}');
  assert.equal(toLatex(e, { times: 'juxtapose', fnParens: 'minimal', leftRight: false, frac: 'slash' }), '2 x \\sin y + 1 / (x + 1)');
  assert.equal(toLatex(op('exp', x)), 'e^{x}');
  assert.equal(toLatex(op('exp', x), { exp: 'exp' }), '\\exp\\left(x\\right)');
  assert.equal(toLatex({ k: 'D', v: 'x', body: op('sin', x) }), '\\frac{d}{dx}\\left(\\sin\\left(x\\right)\\right)');
  assert.equal(toLatex(op('pow', op('sin', x), num(2))), '\\sin^{2}\\left(x\\right)');
  assert.equal(toLatex(op('add', x, op('neg', y), num(-3), op('mul', num(-2), y))), 'x - y - 3 - 2 \\cdot y');
  assert.equal(toLatex(op('mul', num(Math.PI), op('pow', num(Math.E), x), num(Math.E))), '\\pi \\cdot e^{x} \\cdot \\mathrm{e}');
  assert.equal(toLatex(op('pow', op('neg', x), num(3))), '\\left(-x\\right)^{3}');
});

test('toLatex: a bare argument is never followed by a juxtaposed factor', () => {
  const e = op('mul', op('sin', x), y);
  assert.equal(toLatex(e, { times: 'juxtapose', fnParens: 'minimal' }), '\\sin\\left(x\\right) y');
  assert.equal(toLatex(op('mul', y, op('sin', x)), { times: 'juxtapose', fnParens: 'minimal' }), 'y \\sin x');
});

test('toLatex: numbers and variable names', () => {
  assert.equal(plainNumber(-6.705522537231445e-8), '-0.00000006705522537231445');
  assert.equal(plainNumber(1.5e22), '15000000000000000000000');
  assert.equal(plainNumber(134217728), '134217728');
  assert.equal(variableLatex('theta'), '\\theta');
  assert.equal(variableLatex('x_1'), 'x_{1}');
  assert.equal(variableLatex('x_alpha'), 'x_{\\alpha}');
  assert.equal(variableLatex('a_{"n"}'), 'a_{n}');
});

test('toLatex: the checker reads every style back as an equal expression (real E-Gen lines)', { skip: SKIP }, () => {
  const ev = new Evaluator();
  let compared = 0;
  for (const file of ['op_2.txt', 'op_d_2.txt', 'poly_5.txt', 'poly_d_9.txt', 'op_4.txt']) {
    const clusters = readEgenClusters(path.join(DIR, file));
    for (let c = 0; c < clusters.length; c += Math.ceil(clusters.length / 40)) {
      for (const line of clusters[c].slice(0, 6)) {
        const e = parsePrefix(line);
        for (const style of STYLES) {
          const tex = toLatex(e, style);
          const back = readBack(tex);
          for (const v of [0.23, 0.41, 0.67]) {
            const env = new Map([['x', v]]);
            const a = ev.eval(e, env);
            const b = ev.eval(back, env);
            if (!Number.isFinite(a) && !Number.isFinite(b)) continue;
            compared++;
            assert.ok(Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a)), `${line} | ${tex}: ${a} vs ${b}`);
          }
        }
      }
    }
  }
  assert.ok(compared > 2000, `${compared}`);
});

/** A seeded random expression in x and y over the printer's operations. */
function randomExpr(r: () => number, depth: number): Expr {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  if (depth === 0 || r() < 0.25) {
    const u = r();
    if (u < 0.6) return u < 0.35 ? x : y;
    if (u < 0.85) return num(1 + Math.floor(r() * 9));
    return pick([num(0.5), num(Math.PI), num(-3), num(Math.E), num(2.25)]);
  }
  const sub = (): Expr => randomExpr(r, depth - 1);
  const u = r();
  if (u < 0.15) return op('add', sub(), sub(), ...(r() < 0.3 ? [sub()] : []));
  if (u < 0.25) return op('sub', sub(), sub());
  if (u < 0.4) return op('mul', sub(), sub(), ...(r() < 0.3 ? [sub()] : []));
  if (u < 0.5) return op('div', sub(), sub());
  if (u < 0.55) return op('neg', sub());
  if (u < 0.65) return op('pow', sub(), pick([num(2), num(3), num(-1), num(-2), op('div', num(1), num(2)), y]));
  if (u < 0.7) return op('exp', sub());
  if (u < 0.75) return { k: 'D', v: 'x', body: sub() };
  return op(pick(['sin', 'cos', 'tan', 'ln', 'sqrt', 'atan', 'asin', 'sinh', 'cosh', 'tanh', 'acot', 'sec', 'abs', 'asinh', 'log']), sub());
}

test('toLatex: random expressions read back with the same fingerprint, in every style', () => {
  const r = seededRandom(20240611);
  let compared = 0;
  for (let n = 0; n < 300; n++) {
    const e = randomExpr(r, 4);
    const a = expressionFingerprint(e, { rename: false });
    for (const style of STYLES) {
      const tex = toLatex(e, style);
      let back: Expr;
      try { back = readBack(tex); } catch (err) { assert.fail(`${exprKey(e)} | ${tex}: ${(err as Error).message}`); }
      const b = expressionFingerprint(back, { rename: false });
      assert.equal(!!a, !!b, `${tex}: defined on one side only`);
      if (a && b) { compared++; assert.ok(sameClass(a, b), `${exprKey(e)} | ${tex}`); }
    }
  }
  assert.ok(compared > 600, `${compared}`);
});
