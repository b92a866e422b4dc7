// Which branch of which conditional a place sits in: TeX conditionals with \else/\or,
// macro conditionals with brace branches, definitions of conditionals, nesting and bounds.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { branchPath, branchRegions } from './conditionals.js';

/** The path of the place marked `@` in `text`, as `cond-offset:branch` steps. */
function pathAt(text: string): string {
  const at = text.indexOf('@');
  const { regions } = branchRegions(text);
  return branchPath(regions, at).map((s) => `${text.slice(s.cond, s.cond + 6)}:${s.branch}`).join(' ');
}

test('TeX conditionals: \\else and \\or start the next branch, \\fi ends it, nesting is kept', () => {
  assert.equal(pathAt(String.raw`\ifsol @ \else x \fi`), String.raw`\ifsol:0`);
  assert.equal(pathAt(String.raw`\ifsol x \else @ \fi`), String.raw`\ifsol:1`);
  assert.equal(pathAt(String.raw`\ifcase\n a \or b \or @ \fi`), String.raw`\ifcas:2`);
  assert.equal(pathAt(String.raw`\ifsol x \else \ifpdf @ \fi \fi`), String.raw`\ifsol:1 \ifpdf:0`);
  assert.equal(pathAt(String.raw`\ifsol x \fi @`), '');
  // a stray \fi closes nothing; an unclosed conditional runs to the end
  assert.equal(pathAt(String.raw`\fi \ifsol x \else @`), String.raw`\ifsol:1`);
});

test('defining a conditional opens none; \\iff is a symbol; comments are skipped', () => {
  assert.equal(pathAt(String.raw`\newif\ifsol \let\ifpdf\iftrue \def\ifmine{x} $a \iff b$ @`), '');
  assert.equal(pathAt(String.raw`% \ifsol
@`), '');
});

test('macro conditionals: the two brace branches after the condition', () => {
  assert.equal(pathAt(String.raw`\ifthenelse{\boolean{long}}{@}{x}`), String.raw`\ifthe:0`);
  assert.equal(pathAt(String.raw`\ifthenelse{\isodd{\thepage}}{x}{@}`), String.raw`\ifthe:1`);
  assert.equal(pathAt(String.raw`\iftoggle{web}{x}{\ifHTML @ \fi}`), String.raw`\iftog:1 \ifHTM:0`);
  assert.equal(pathAt(String.raw`\IfFileExists{a.tex}{x} {@}`), String.raw`\IfFil:1`);
  assert.equal(pathAt(String.raw`\ifdefstring{\mode}{web}{@}{x}`), String.raw`\ifdef:0`);
  // without both branches it is no conditional of this kind
  assert.equal(pathAt(String.raw`\ifthenelse{\boolean{long}}{x} @`), '');
});

test('past the bounds of nesting the regions are marked incomplete', () => {
  const deep = '\\ifa '.repeat(40) + '@' + ' \\fi'.repeat(40);
  assert.equal(branchRegions(deep).complete, false);
  assert.equal(branchRegions(String.raw`\ifa x \else y \fi`).complete, true);
});

test('the named switch a conditional tests, and which branch reads it on', () => {
  const steps = (text: string) => {
    const at = text.indexOf('@');
    return branchPath(branchRegions(text).regions, at).map((s) => `${s.flag ?? '-'}:${s.on ?? '-'}`).join(' ');
  };
  assert.equal(steps(String.raw`\iftoggle{web}{@}{x}`), 'toggle:web:true');
  assert.equal(steps(String.raw`\nottoggle{web}{@}{x}`), 'toggle:web:false');
  assert.equal(steps(String.raw`\ifthenelse{\boolean{long}}{x}{@}`), 'bool:long:false');
  assert.equal(steps(String.raw`\ifbool{long}{@}{x}`), 'bool:long:true');
  assert.equal(steps(String.raw`\iflong x \else @ \fi`), 'bool:long:false');
  // comparisons and tests ask anew each time: no switch
  assert.equal(steps(String.raw`\ifx\a\b @ \fi`), '-:-');
  assert.equal(steps(String.raw`\ifthenelse{\isodd{\thepage}}{@}{x}`), '-:-');
  assert.equal(steps(String.raw`\ifcase\n a \or @ \fi`), '-:-');
});
