// Cluster generation: deterministic for a seed, every member verified equal to its seed,
// distinct, within the step budget; random seeds within the grammar's bounds; real equations
// split into chains, parsed and turned round.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { exprKey, freeVars, macroTable } from 'mathsense-server/api/math';
import { seededRandom } from 'mathsense-server/api/util';
import { depth } from './build.js';
import { formulaKey, makeCluster, type Formula } from './clusters.js';
import { chainLatex, parseSides, relationChains, reversedEquation } from './latexFormula.js';
import { randomSeed } from './seeds.js';
import { numericallyEqual, usableSeed } from './verify.js';

const none = macroTable([]);

test('random seeds are deterministic and within the grammar bounds', () => {
  const a = Array.from({ length: 50 }, ((r) => () => exprKey(randomSeed(r)))(seededRandom(3)));
  const b = Array.from({ length: 50 }, ((r) => () => exprKey(randomSeed(r)))(seededRandom(3)));
  assert.deepEqual(a, b);
  const rnd = seededRandom(4);
  for (let i = 0; i < 200; i++) {
    const e = randomSeed(rnd);
    const n = freeVars(e).size;
    assert.ok(n >= 1 && n <= 3, `${n} variables`);
    assert.ok(depth(e) >= 2 && depth(e) <= 6, `depth ${depth(e)}`);
    assert.ok(usableSeed(e));
  }
});

test('cluster generation is deterministic for a seed', () => {
  const run = (s: number) => {
    const rnd = seededRandom(s);
    return Array.from({ length: 20 }, () => makeCluster({ sides: [randomSeed(rnd)] }, rnd)?.map((m) => formulaKey(m.formula)).join('\n') ?? '');
  };
  assert.deepEqual(run(9), run(9));
  assert.notDeepEqual(run(9), run(10));
});

test('every member equals its seed, members are distinct, 1–6 steps each', () => {
  const rnd = seededRandom(12);
  let clusters = 0;
  let members = 0;
  for (let i = 0; i < 150; i++) {
    const seed: Formula = { sides: [randomSeed(rnd)] };
    const c = makeCluster(seed, rnd);
    if (!c) continue;
    clusters++;
    members += c.length;
    assert.ok(c.length >= 4 && c.length <= 16, `${c.length} members`);
    assert.equal(c[0].formula, seed);
    assert.equal(new Set(c.map((m) => formulaKey(m.formula))).size, c.length);
    for (const m of c.slice(1)) {
      assert.ok(m.rules.length >= 1 && m.rules.length <= 6, `${m.rules.length} steps`);
      assert.ok(numericallyEqual(seed.sides[0], m.formula.sides[0]), formulaKey(m.formula));
    }
  }
  assert.ok(clusters >= 140, `${clusters} clusters of 150 seeds`);
  assert.ok(members / clusters >= 9, `${(members / clusters).toFixed(1)} members per cluster`);
});

test('equations: sides rewritten separately, turned round with the relation flipped', () => {
  const sides = parseSides(['\\frac{x^2 - 1}{x + 1}', 'x - 1'], none)!;
  assert.ok(sides);
  const rnd = seededRandom(5);
  const c = makeCluster({ sides, rel: '\\leq' }, rnd, { min: 16, max: 16 })!;
  assert.ok(c.length >= 8);
  let swapped = 0;
  for (const m of c) {
    const back = m.swapped ? [...m.formula.sides].reverse() : m.formula.sides;
    assert.equal(m.formula.rel, m.swapped ? '\\geq' : '\\leq');
    back.forEach((e, i) => assert.ok(numericallyEqual(sides[i], e)));
    if (m.swapped) swapped++;
  }
  assert.ok(swapped > 0, 'some members are turned round');
});

test('real equations: relation chains, parsed sides, reversed text', () => {
  const chains = relationChains('f(x) &= x^2 + 2x + 1 \\\\ &= (x+1)^2, \\quad \\text{since} \\label{eq:a}');
  assert.deepEqual(chains.map(chainLatex), ['f(x) = x^2 + 2x + 1 = (x+1)^2']);
  assert.deepEqual(relationChains('0 < a \\le b').map((c) => [c.sides, c.rel]), [[['0', 'a'], '<'], [['a', 'b'], '\\leq']]);
  assert.equal(reversedEquation('y = \\sin^2 t'), '\\sin^2 t = y');
  assert.equal(reversedEquation('a < b'), 'b > a');
  assert.equal(reversedEquation('a = b \\quad\\text{and}\\quad c = d'), undefined);
  // the checker's parser: function applications, sets and indexed sums are not expressions
  assert.ok(parseSides(['x^2 + 2x + 1', '(x+1)^2'], none));
  assert.equal(parseSides(['f(x)', 'x^2'], none), undefined);
  assert.equal(parseSides(['\\sum_i a_i', 'b'], none), undefined);
  assert.equal(parseSides(['2', '1 + 1'], none), undefined, 'no variable');
  // `e` is Euler's number on every side when one side has it as a power base
  const [l, r] = parseSides(['e^{x} e^{y}', 'e^{x+y}'], none)!;
  assert.ok(numericallyEqual(l, r));
});
