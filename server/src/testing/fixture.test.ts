// The fixture format: files, the cursor (inline `<|>` or `|` under a line), `^^^` range
// markers (bare or after `%`) taken out of the text, and the mistakes it refuses; a fixture's
// files live in memory (or on disk when asked) and its workspace reads them there.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { fixture, parseFixture, FIXTURE_ROOT } from './fixture.js';
import { pathToUri } from '../project/files.js';

test('files, cursor and range markers; marker lines are not part of the text', () => {
  const p = parseFixture(String.raw`
%! main.tex
\input{sec}
       ^^^
%! sec.tex
See \ref{thm:a} and \ref{lem:b}.
         ^^^^^
%                        ^^^^^
%                            |
Last line
^^^^
`);
  assert.deepEqual(p.files, [
    { name: 'main.tex', text: '\\input{sec}' },
    { name: 'sec.tex', text: 'See \\ref{thm:a} and \\ref{lem:b}.\nLast line\n' },
  ]);
  assert.deepEqual(p.ranges.map((r) => [r.name, r.start, r.end, r.range]), [
    ['main.tex', 7, 10, { start: { line: 0, character: 7 }, end: { line: 0, character: 10 } }],
    ['sec.tex', 9, 14, { start: { line: 0, character: 9 }, end: { line: 0, character: 14 } }],
    ['sec.tex', 25, 30, { start: { line: 0, character: 25 }, end: { line: 0, character: 30 } }],
    ['sec.tex', 33, 37, { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } }],
  ]);
  const sec = p.files[1].text;
  assert.deepEqual(p.ranges.slice(1).map((r) => sec.slice(r.start, r.end)), ['thm:a', 'lem:b', 'Last']);
  assert.deepEqual(p.cursor, { name: 'sec.tex', offset: 29 });
  assert.equal(sec[29], 'b');
});

test('several ranges on one marker line; the inline cursor; ranges ordered by file then start', () => {
  const p = parseFixture(`
%! b.tex
x = y + z
    ^   ^
%! a.tex
ab<|>cd
`);
  assert.deepEqual(p.files.map((f) => f.text), ['x = y + z', 'abcd\n']);
  assert.deepEqual(p.ranges.map((r) => `${r.name}:${r.start}-${r.end}`), ['b.tex:4-5', 'b.tex:8-9']);
  assert.deepEqual(p.cursor, { name: 'a.tex', offset: 2 });
});

test('marker mistakes are refused', () => {
  assert.throws(() => parseFixture('%! a.tex\n^^\n'), /no line above/);
  assert.throws(() => parseFixture('%! a.tex\nab\n  ^^\n'), /beyond the line above/);
  assert.throws(() => parseFixture('%! a.tex\na<|>b\n ^\n'), /under a line holding <\|>/);
  assert.throws(() => parseFixture('%! a.tex\na<|>b\n%! b.tex\nxy\n|\n'), /a second cursor/);
  // a LaTeX line with a `^` among other characters is text
  assert.equal(parseFixture('%! a.tex\n$x^2$\n% ^ is a superscript\n').ranges.length, 0);
});

test('a fixture lives in memory under the fixture root: the workspace resolves includes and .bib files there', () => {
  const fx = fixture(`
%! main.tex
\\documentclass{article}
\\begin{document}
\\input{chapters/one}
\\cite{k}
\\bibliography{refs}
\\end{document}
%! chapters/one.tex
\\section{One}\\label{sec:one}
%! refs.bib
@book{k, title={K}}
`);
  assert.equal(fx.dir, FIXTURE_ROOT);
  assert.equal(fx.doc('main.tex').uri, pathToUri(`${FIXTURE_ROOT}/main.tex`));
  assert.equal(fx.uri('chapters/one.tex'), fx.doc('chapters/one.tex').uri);
  assert.equal(fs.existsSync(fx.path('main.tex')), false);
  assert.deepEqual(fx.memory!.paths(), ['chapters/one.tex', 'main.tex', 'refs.bib'].map((n) => fx.path(n)));
  assert.equal(fx.docs.has('refs.bib'), false);
  assert.equal(fx.ws.findLabel(fx.doc('main.tex'), 'sec:one').length, 1);
  assert.deepEqual(fx.ws.bibliographyIncludes(fx.doc('main.tex')).map((b) => b.path), [fx.path('refs.bib')]);
  assert.ok(fx.ws.bibs.get(fx.path('refs.bib'))?.file);
  // a file added later is found by the next graph
  fx.memory!.writeFile(fx.path('extra.tex'), '\\label{x}');
  const probe = fx.ws.open(fx.uri('probe.tex'), 'latex', 1, '\\input{extra}');
  assert.equal(fx.ws.children(probe)[0]?.uri, fx.uri('extra.tex'));
  // open: false loads through the file system (not open in the editor)
  const closed = fixture('%! a.tex\n\\label{a}\n', { open: false });
  assert.equal(closed.ws.isOpen(closed.doc('a.tex')), false);
});

test('{ disk: true } writes the files to a temporary folder, removed by cleanup', () => {
  const fx = fixture('%! a.tex\n\\input{b}\n%! b.tex\n\\label{b}\n', { disk: true });
  assert.equal(fs.readFileSync(fx.path('b.tex'), 'utf8'), '\\label{b}\n');
  assert.equal(fx.ws.children(fx.doc('a.tex'))[0], fx.doc('b.tex'));
  fx.cleanup();
  assert.equal(fs.existsSync(fx.dir), false);
});
