// Step extraction: one test per notation case of the issue.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { extractSteps, type Step } from './steps.js';
import { analyseBlock } from '../syntax/blockAnalyser.js';

/** Steps of the first display-math environment of `src`, as `lhs REL rhs` strings. */
function steps(src: string, named = false): Step[] {
  const facts = analyseBlock(src);
  const env = facts.envs.find((e) => e.rows)!;
  const text = src.slice(env.bodyStart, env.bodyEnd);
  return extractSteps({ text, rows: env.rows!.map((r) => ({ start: r.start - env.bodyStart, end: Math.min(r.end, env.bodyEnd) - env.bodyStart })), env: named ? env.name : undefined });
}
/** With the environment's name: `align` columns come in pairs. */
const showNamed = (src: string): string[] => steps(src, true).map((s) => `${s.lhs.text} ${s.rel} ${s.rhs.text}${s.equation ? ' [equation]' : ''}`);
const show = (src: string): string[] => steps(src).map((s) => `${s.lhs.text} ${s.rel} ${s.rhs.text}${s.implied ? ' [implied]' : ''}${s.equation ? ' [equation]' : ''}${s.ignored ? ' [ignored]' : ''}`);

test('align rows with & and continuation rows chain onto the previous right side', () => {
  assert.deepEqual(show('\\begin{align}\n(a+b)^2 &= (a+b)(a+b) \\\\\n&= a^2 + 2ab + b^2\n\\end{align}'), [
    '(a+b)^2 = (a+b)(a+b)', '(a+b)(a+b) = a^2 + 2ab + b^2',
  ]);
});

test('relation chains within a row, and rows with their own left side start new chains', () => {
  assert.deepEqual(show('\\begin{gather}\na = b = c \\\\\nx < y \\le z\n\\end{gather}'), ['a = b', 'b = c', 'x < y', 'y <= z']);
});

test('labels, tags, notag, nonumber and trailing punctuation are dropped', () => {
  assert.deepEqual(show('\\begin{align}\nx &= y \\label{e1} \\tag{*} \\\\\n&= z \\notag \\nonumber.\n\\end{align}'), ['x = y', 'y = z']);
});

test('\\text and \\quad annotations and side conditions end the expression', () => {
  const s = steps('\\begin{align*}\nf &= g \\quad \\text{by (3)} \\\\\n&= h, \\qquad (x \\neq 1)\n\\end{align*}');
  assert.deepEqual(s.map((x) => `${x.lhs.text} ${x.rel} ${x.rhs.text}`), ['f = g', 'g = h']);
  assert.match(s[0].annotation, /by \(3\)/);
  assert.match(s[1].annotation, /x \\neq 1/);
});

test('\\left / \\right pairs keep relations inside them out of the chain', () => {
  assert.deepEqual(show('\\[ \\left( \\frac{a}{b} \\right)^2 = \\frac{a^2}{b^2} \\]'), ['\\left( \\frac{a}{b} \\right)^2 = \\frac{a^2}{b^2}']);
  assert.deepEqual(show('\\[ \\{ x : x > 0 \\} = A \\]'), ['\\{ x : x > 0 \\} = A']);
});

test('expressions broken over rows (multline, leading +) are joined', () => {
  assert.deepEqual(show('\\begin{multline}\na + b + c \\\\\n+ d = e\n\\end{multline}'), ['a + b + c + d = e']);
  assert.deepEqual(show('\\begin{align}\nx &= a + b \\\\\n&\\quad + c\n\\end{align}'), ['x = a + b + c']);
});

test('eqnarray &=& and nested aligned/split rows', () => {
  assert.deepEqual(show('\\begin{eqnarray}\nx &=& y \\\\\n&=& z\n\\end{eqnarray}'), ['x = y', 'y = z']);
  assert.deepEqual(show('\\begin{equation}\\begin{split}\nx &= y \\\\\n&= z\n\\end{split}\\end{equation}'), ['x = y', 'y = z']);
});

test('\\equiv with \\pmod carries the modulus; \\approx and \\sim are relations never checked', () => {
  const s = steps('\\[ 2^{10} \\equiv 1 \\pmod{11} \\]');
  assert.equal(s[0].rel, 'equiv');
  assert.equal(s[0].mod, '11');
  assert.equal(s[0].rhs.text, '1');
  assert.deepEqual(steps('\\[ a \\approx b \\sim c \\]').map((x) => x.rel), ['approx', 'approx']);
});

test('\\implies and \\iff start a new chain whose first relation is a consequence', () => {
  assert.deepEqual(show('\\[ x + 1 = 3 \\implies x = 2 \\]'), ['x + 1 = 3 [equation]', 'x = 2 [implied]']);
  assert.deepEqual(show('\\[ a = b = c \\iff d = e \\]'), ['a = b [equation]', 'b = c [equation]', 'd = e [implied]']);
});

test('a % mathsense-ignore-step comment on the line of a step suppresses it', () => {
  assert.deepEqual(show('\\begin{align}\nx &= y \\\\\n&= z % mathsense-ignore-step\n\\end{align}'), ['x = y', 'y = z [ignored]']);
});

test('offsets point at the right-hand side in the source', () => {
  const src = '\\begin{align}\nx &= y+1 \\\\\n&= z\n\\end{align}';
  const env = analyseBlock(src).envs[0];
  const s = steps(src);
  assert.equal(src.slice(env.bodyStart + s[0].rhs.start, env.bodyStart + s[0].rhs.end), 'y+1');
  assert.equal(src.slice(env.bodyStart + s[1].rhs.start, env.bodyStart + s[1].rhs.end), 'z');
});

test('equations being solved are not identities: before ⇒, and consecutive equation rows', () => {
  // a chain followed by an implication (\leadstoandfrom too) is a premise, every relation of it
  assert.deepEqual(show('\\begin{align*}\nx + y + x y &= 10 x + y \\\\\n\\leadstoandfrom x y - 9 x &= 0\n\\end{align*}'), ['x + y + x y = 10 x + y [equation]', 'x y - 9 x = 0 [implied]']);
  // rows with their own left sides, one relation each, sharing a variable
  assert.deepEqual(show('\\begin{align*}\n4 \\sin \\theta \\cos 2 \\theta &= 1 \\\\\n4 \\sin \\theta \\cos \\theta \\cos 2\\theta &= \\cos \\theta\n\\end{align*}'), [
    '4 \\sin \\theta \\cos 2 \\theta = 1 [equation]', '4 \\sin \\theta \\cos \\theta \\cos 2\\theta = \\cos \\theta [equation]',
  ]);
  // a variable-free equation derived from one with variables (a contradiction)
  assert.deepEqual(show('\\begin{align*}\nb + 1 &= b \\\\\n1 &= 0\n\\end{align*}'), ['b + 1 = b [equation]', '1 = 0 [equation]']);
  // numeric facts in rows stay checked, and chains of identities too
  assert.deepEqual(show('\\begin{align*}\n8517 &= 3 \\times 17 \\times 167 \\\\\n8577 &= 3^2 \\times 953\n\\end{align*}'), ['8517 = 3 \\times 17 \\times 167', '8577 = 3^2 \\times 953']);
  assert.deepEqual(show('\\begin{align*}\n(a+b)^2 &= a^2 + 2ab + b^2 \\\\\n&= b^2 + 2ab + a^2\n\\end{align*}'), ['(a+b)^2 = a^2 + 2ab + b^2', 'a^2 + 2ab + b^2 = b^2 + 2ab + a^2']);
});

test('a row starting with a minus sign at the left edge is its own expression', () => {
  assert.deepEqual(show('\\begin{align*}\nx &= 1 \\\\\n-4 y &= 1\n\\end{align*}'), ['x = 1', '-4 y = 1']);
  assert.deepEqual(show('\\begin{align*}\nx &= a + b \\\\\n& - c\n\\end{align*}'), ['x = a + b - c']);
});

test('thin spaces between digit groups survive cleaning', () => {
  assert.deepEqual(show('\\[ 10! = 3 \\, 628 \\, 800 \\]'), ['10! = 3 \\, 628 \\, 800']);
});

test('a relation aligned in a later column continues its own row; side-by-side equations still continue their columns', () => {
  // every relation aligned: each row is its own equation, not a continuation of the row above
  assert.deepEqual(showNamed('\\begin{align*}\nt_1 &= t_0 + 1 &= 1 \\\\\nt_2 &= t_1 + 2 &= 3\n\\end{align*}'), [
    't_1 = t_0 + 1', 't_0 + 1 = 1', 't_2 = t_1 + 2', 't_1 + 2 = 3',
  ]);
  // a linear system in alignat: one equation per row
  assert.deepEqual(showNamed('\\begin{alignat*}{2}\n2x &+ 3y &&= 7 \\\\\nx &- y &&= 1\n\\end{alignat*}'), ['2x + 3y = 7 [equation]', 'x - y = 1 [equation]']);
  // continuation rows of equations side by side
  assert.deepEqual(showNamed('\\begin{align*}\na &= b & c &= d \\\\\n&= e & &= f\n\\end{align*}'), ['a = b', 'b = e', 'c = d', 'd = f']);
});

test('\\approx is marked as printed, and a step after it as following a rounding', () => {
  const s = steps('\\[ 3 \\sqrt 2 \\approx 3 \\times 1.41 = 4.23 \\]');
  assert.deepEqual(s.map((x) => [x.rel, !!x.printed, !!x.afterApprox]), [['approx', true, false], ['=', false, true]]);
  assert.equal(steps('\\[ n! \\sim \\sqrt{2 \\pi n} \\]')[0].printed, false);
});
