// analyseEquation: the whole path from a display equation to canonical text, sides,
// fingerprints and shape; never throws; fast on every display equation of the Stacks project.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyseEquation } from './equation.js';
import { sharedData } from '../../testing/paths.js';
import { macroTable } from '../macros.js';

const STACKS = path.join(sharedData, 'latex', 'stacks-project');
const SKIP = fs.existsSync(STACKS) ? false : 'Stacks project sources not found';

test('analyseEquation: an align environment with labels is one chain', () => {
  const info = analyseEquation('\\begin{align} (a+b)^2 &= a^2+2ab+b^2 \\label{eq:sq}\\\\ &= (a+b)(a+b). \\end{align}');
  assert.equal(info.canonical, '( x + y )^{2} = x^{2} + 2 x y + y^{2} = ( x + y ) ( x + y )');
  assert.equal(info.sides.length, 3);
  assert.deepEqual(info.relations, ['=', '=']);
  assert.equal(new Set(info.fingerprints.sides.map((f) => f?.key)).size, 1);
  assert.equal(info.fingerprints.difference, undefined, 'an identity');
  assert.ok(info.shape.includes('x^{') || info.shape.includes('x'));
});

test('analyseEquation: document macros, inequalities, structure the parser does not take', () => {
  const m = macroTable([{ name: 'sq', nargs: 1, body: '{#1}^2' }]);
  const a = analyseEquation('\\sq{p} + \\sq{q} = 1', m);
  const b = analyseEquation('x^2 + y^2 = 1');
  assert.equal(a.canonical, b.canonical);
  assert.equal(a.fingerprints.difference?.key, b.fingerprints.difference?.key);
  const ineq = analyseEquation('x^2 \\le 2x');
  assert.deepEqual(ineq.relations, ['<=']);
  assert.equal(ineq.fingerprints.difference, undefined);
  const sheaf = analyseEquation('\\mathcal{F}(U) \\to \\mathcal{G}(U)');
  assert.equal(sheaf.sides.length, 0);
  assert.ok(sheaf.canonical.includes('\\mathcal{F}'));
  assert.ok(sheaf.shape.length > 0);
  const sum = analyseEquation('\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}');
  assert.ok(sum.fingerprints.sides.every((f) => f), 'index variables are sampled at integers');
  assert.equal(analyseEquation('\\[ x = 2 \\]').fingerprints.difference?.key, analyseEquation('$$2x = 4$$').fingerprints.difference?.key);
});

test('analyseEquation: never throws, whatever the input', () => {
  const inputs = ['', '=', '==', '\\', '}{', '\\frac{', '\\left(', 'x^', '\\begin{align}', '&&\\\\&', '\\sqrt[', '1/0 = x', '\\ln 0 = y',
    'x = \\frac{1}{0}', '\\def\\a{\\a}\\a', '\\newcommand', '%%', '\u0000\u{1F600}', 'e^{e^{e^{e^{e^{e^{x}}}}}} = 1', '10^{400} = x',
    'x'.repeat(5000), '('.repeat(3000), 'a = b = c = d = e = f = g = h = i = j = k'];
  for (const s of inputs) {
    const info = analyseEquation(s);
    assert.equal(typeof info.canonical, 'string');
  }
  let big = '';
  while (big.length < 100_000) big += 'a_{1} + \\frac{b}{c^2} - \\sin(x) = ';
  const t0 = performance.now();
  const info = analyseEquation(big);
  assert.equal(info.sides.length, 0);
  assert.ok(performance.now() - t0 < 3000);
});

test('analyseEquation: time per display equation of the Stacks project', { skip: SKIP }, (t) => {
  const re = /\\begin\{(equation|align|gather|multline|eqnarray|displaymath)(\*?)\}([\s\S]*?)\\end\{\1\2\}|\\\[([\s\S]*?)\\\]|\$\$([\s\S]*?)\$\$/g;
  const eqs: string[] = [];
  for (const f of fs.readdirSync(STACKS).filter((x) => x.endsWith('.tex'))) {
    for (const m of fs.readFileSync(path.join(STACKS, f), 'utf8').matchAll(re)) eqs.push(m[0]);
  }
  const times: number[] = [];
  let parsed = 0;
  let fingerprinted = 0;
  for (const e of eqs) {
    const a = performance.now();
    const info = analyseEquation(e);
    times.push(performance.now() - a);
    if (info.sides.length) parsed++;
    if (info.fingerprints.sides.some((f) => f)) fingerprinted++;
  }
  times.sort((a, b) => a - b);
  const q = (p: number): string => times[Math.floor(p * (times.length - 1))].toFixed(3);
  const msg = `${eqs.length} display equations: median ${q(0.5)} ms, p90 ${q(0.9)} ms, p99 ${q(0.99)} ms, total ${times.reduce((a, b) => a + b, 0).toFixed(0)} ms; ${parsed} parsed, ${fingerprinted} with a fingerprint`;
  t.diagnostic(msg);
  console.log(msg);
  assert.ok(eqs.length > 10000);
  assert.ok(times[Math.floor(times.length / 2)] < 1, msg);
});
