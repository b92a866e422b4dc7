import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { expand, readDefinitions, type MacroDef } from './macroExpander.js';

function table(src: string): Map<string, MacroDef> {
  return readDefinitions(src).macros;
}

test('definitions of each shape are read, and taken out of the text', () => {
  const { macros, text } = readDefinitions(String.raw`\newcommand{\R}{\mathbb{R}} a \renewcommand*\pair[2]{(#1,#2)} b \newcommand{\seq}[2][n]{#2_{#1}} \def\half#1{#1/2} \DeclareMathOperator{\Hom}{Hom}`);
  assert.deepEqual([...macros.values()].map((d) => [d.name, d.nargs, d.optDefault ?? null, d.body]), [
    ['R', 0, null, String.raw`\mathbb{R}`],
    ['pair', 2, null, '(#1,#2)'],
    ['seq', 2, 'n', '#2_{#1}'],
    ['half', 1, null, '#1/2'],
    ['Hom', 0, null, String.raw`\operatorname{Hom}`],
  ]);
  assert.equal(text.replace(/\s+/g, ' ').trim(), 'a b');
});

test('arguments: braced, a single token, a command; an optional first argument or its default', () => {
  const t = table(String.raw`\newcommand{\pair}[2]{(#1,#2)}\newcommand{\seq}[2][n]{#2_{#1}}`);
  assert.equal(expand(String.raw`\pair{a+b}c \pair\alpha{x}`, t).text, String.raw`(a+b,c) (\alpha,x)`);
  assert.equal(expand(String.raw`\seq{x} \seq[k]{y}`, t).text, 'x_{n} y_{k}');
});

test('bodies are rescanned, and may take their arguments from the text after them', () => {
  const t = table(String.raw`\newcommand{\R}{\mathbb{R}}\newcommand{\Rn}{\R^n}\newcommand{\p}{\pair}\newcommand{\pair}[2]{(#1,#2)}`);
  assert.equal(expand(String.raw`\Rn, \p{x}{y}`, t).text, String.raw`\mathbb{R}^n, (x,y)`);
});

test('math groups an expansion, so an exponent after it applies to all of it', () => {
  const t = table(String.raw`\newcommand{\sq}[1]{#1^2}`);
  assert.equal(expand(String.raw`\sq{x}^3`, t, { group: true }).text, '{x^2}^3');
  assert.equal(expand(String.raw`\sq{x}^3`, t).text, 'x^2^3');
});

test('a letter after a body that ends in a command name does not glue onto it', () => {
  const t = table(String.raw`\newcommand{\al}{\alpha}`);
  assert.equal(expand(String.raw`\al x`, t).text, String.raw`\alpha x`);
  assert.equal(expand(String.raw`\al{}x`, t).text, String.raw`\alpha{}x`);
});

test('a definition that calls itself stops at the bounds, and says so', () => {
  const t = table(String.raw`\newcommand{\a}{x\a}\def\b{\b\b}`);
  const a = expand(String.raw`\a`, t);
  assert.equal(a.complete, false);
  assert.ok(a.text.length <= 20_001 + 2);
  const b = expand(String.raw`\b`, t, { maxExpansions: 1000, maxLength: 100 });
  assert.equal(b.complete, false);
  assert.ok(b.text.length < 200);
});

test('missing arguments leave the macro as written', () => {
  const t = table(String.raw`\newcommand{\pair}[2]{(#1,#2)}`);
  assert.deepEqual(expand(String.raw`{\pair{a}}`, t), { text: String.raw`{\pair{a}}`, complete: true });
});

test('a key being built drops the spaces and empty group after a name, as TeX reads it', () => {
  const t = new Map([['prefix', { name: 'prefix', nargs: 0, body: 'fol:syn' }]]);
  assert.equal(expand(String.raw`\prefix{} :x`, t, { eatSpaces: true }).text, 'fol:syn:x');
  assert.equal(expand(String.raw`\prefix :x`, t).text, 'fol:syn :x');
});
