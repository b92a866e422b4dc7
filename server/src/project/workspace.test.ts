import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { fixture } from '../testing/fixture.js';
import { Workspace } from './workspace.js';
import { MemoryFileSystem } from './memoryFileSystem.js';
import { labelTarget, proofTarget, statements } from '../analysis/structure.js';
import { computeDiagnostics } from '../features/diagnostics/documentDiagnostics.js';
import { check, expect, rangeText } from '../testing/snapshot.js';

const base = (uri: string): string => path.basename(decodeURIComponent(uri));

test('roots: \\documentclass file including chapters; magic root comment wins', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\input{chapters/one}
\include{chapters/two}
\end{document}
%! chapters/one.tex
\section{One}\label{sec:one}
See \ref{sec:two}.
%! chapters/two.tex
\section{Two}\label{sec:two}
%! notes/orphan.tex
%!TEX root = ../main.tex
\ref{sec:one}
`);
  const one = fx.doc('chapters/one.tex');
  assert.deepEqual(fx.ws.roots(one).map((d) => base(d.uri)), ['main.tex']);
  assert.deepEqual([...fx.ws.scope(one)].map((d) => base(d.uri)).sort(), ['main.tex', 'one.tex', 'two.tex']);
  assert.equal(fx.ws.findLabel(one, 'sec:two').length, 1);
  const orphan = fx.doc('notes/orphan.tex');
  assert.deepEqual(fx.ws.roots(orphan).map((d) => base(d.uri)), ['main.tex']);
  assert.equal(fx.ws.findLabel(orphan, 'sec:one').length, 1);
  assert.deepEqual(computeDiagnostics(fx.ws, orphan), []);
});

test('separate projects do not see each other\'s labels', () => {
  const fx = fixture(String.raw`
%! a.tex
\documentclass{article}
\label{only-a}
%! b.tex
\documentclass{article}
\ref{only-a}
`);
  const diags = computeDiagnostics(fx.ws, fx.doc('b.tex'));
  assert.deepEqual(diags.map((d) => d.code), ['undefined-ref']);
});

test('subfiles: a subfile is its own root and part of the main project', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\usepackage{subfiles}
\begin{document}
\label{main-label}
\subfile{sub}
\end{document}
%! sub.tex
\documentclass[main.tex]{subfiles}
\begin{document}
\ref{main-label}
\end{document}
`);
  const sub = fx.doc('sub.tex');
  assert.deepEqual(fx.ws.roots(sub).map((d) => base(d.uri)).sort(), ['main.tex', 'sub.tex']);
  assert.equal(fx.ws.findLabel(sub, 'main-label').length, 1);
});

test('xr external documents: prefixed labels resolve into the other project', () => {
  const fx = fixture(String.raw`
%! algebra.tex
\documentclass{amsart}
\begin{document}
\begin{lemma}\label{lemma-nak}Nakayama.\end{lemma}
\end{document}
%! schemes.tex
\documentclass{amsart}
\usepackage{xr-hyper}
\externaldocument[algebra-]{algebra}
\begin{document}
By \ref{algebra-lemma-nak} and \ref{algebra-lemma-missing}.
\end{document}
`);
  const schemes = fx.doc('schemes.tex');
  const locs = fx.ws.findLabel(schemes, 'algebra-lemma-nak');
  assert.equal(locs.length, 1);
  assert.equal(locs[0].prefix, 'algebra-');
  assert.equal(base(locs[0].doc.uri), 'algebra.tex');
  assert.deepEqual(computeDiagnostics(fx.ws, schemes).map((d) => d.message), [
    'Undefined reference: no \\label{algebra-lemma-missing} in this project',
  ]);
});

test('theorem registry: defaults, \\newtheorem with shared/parent counters, styles, thmtools, wrappers', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\input{defs}
\begin{document}
\begin{satz}[Main]\label{s}\end{satz}
\begin{defi}\label{d}\end{defi}
\begin{obs}\label{o}\end{obs}
\begin{lem}\label{l}\end{lem}
\begin{lemma}\label{dl}\end{lemma}
\end{document}
%! defs.tex
\theoremstyle{plain}
\newtheorem{satz}{Satz}[section]
\theoremstyle{definition}
\newtheorem{defi}[satz]{Definition}
\declaretheorem[name=Observation,style=remark]{obs}
\newcommand{\defthm}[3]{\newtheorem{#1}[#1]{#2}}
\theoremstyle{plain}
\defthm{lem}{Hilfssatz}{Hilfssätze}
`);
  const main = fx.doc('main.tex');
  const reg = fx.ws.theorems(main);
  assert.deepEqual(
    ['satz', 'defi', 'obs', 'lem', 'lemma', 'proof'].map((e) => {
      const k = reg.get(e);
      return k ? `${e}:${k.title}:${k.style}:${k.counter}:${k.parent ?? ''}` : `${e}:-`;
    }),
    ['satz:Satz:plain:satz:section', 'defi:Definition:definition:satz:section', 'obs:Observation:remark:obs:', 'lem:Hilfssatz:plain:lem:', 'lemma:Lemma:plain:lemma:', 'proof:-'],
  );
  assert.deepEqual(statements(fx.ws, main).map((s) => `${s.kind.title}${s.title ? ` (${s.title})` : ''} ${s.labels.map((l) => l.name)}`), [
    'Satz (Main) s', 'Definition d', 'Observation o', 'Hilfssatz l', 'Lemma dl',
  ]);
  const l = main.labelMap().get('d')![0];
  assert.equal(labelTarget(fx.ws, main, l).displayName, 'Definition');
});

test('proofs attach to the statement they prove', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{theorem}\label{t1}A\end{theorem}
\begin{lemma}\label{l1}B\end{lemma}
\begin{proof}Proof of B.\end{proof}
\begin{remark}R\end{remark}
\begin{proof}[Proof of Theorem~\ref{t1}]Deferred.\end{proof}
\begin{definition}D\end{definition}
\begin{proof}Orphan.\end{proof}
\end{document}
`);
  const doc = fx.doc('main.tex');
  const envs = doc.envs();
  const links = envs.map((e, i) => (e.name === 'proof' ? proofTarget(fx.ws, doc, i) : undefined)).filter((x) => x);
  assert.deepEqual(links.map((p) => `${p!.via}:${p!.statement ? doc.text.slice(p!.statement.env.bodyStart, p!.statement.env.bodyEnd).replace(/\\label\{[^}]*\}/, '') : '-'}`), [
    'adjacent:B', 'reference:A', 'none:-',
  ]);
});

test('label targets: equation rows, items, sections, figures', () => {
  const fx = fixture(String.raw`
%! main.tex
\section{Intro}
\label{sec}
\begin{align}
a &= b \label{row1}\\
c &= d \label{row2}
\end{align}
\begin{enumerate}
\item first \label{it}
\end{enumerate}
\begin{figure}\caption{C}\label{fig}\end{figure}
`);
  const doc = fx.doc('main.tex');
  const out = doc.labels().map((l) => {
    const t = labelTarget(fx.ws, doc, l);
    return `${l.name}:${t.kind}:${t.displayName}${t.row !== undefined ? ':row' + t.row : ''}${t.title ? ':' + t.title : ''}`;
  });
  assert.deepEqual(out, ['sec:section:Section:Intro', 'row1:equation:Equation:row0', 'row2:equation:Equation:row1', 'it:item:Item', 'fig:figure:Figure']);
});

test('include graph: an include that closes a cycle and a file with labels read twice are warnings', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\input{ch/a}
\input{ch/twice}
\input{ch/twice}
\input{ch/shared}
\end{document}
%! ch/a.tex
\section{A}\label{sec:a}
\input{ch/b}
%! ch/b.tex
\section{B}\label{sec:b}
See \ref{sec:a}.
\input{ch/a}
\input{ch/shared}
%! ch/twice.tex
\begin{equation}\label{eq:tw} y=2 \end{equation}
%! ch/shared.tex
Shared text.
%! loop/x.tex
\input{y}
%! loop/y.tex
\input{x}
%! self.tex
\documentclass{article}
\input{self}
`);
  const render = (name: string) => computeDiagnostics(fx.ws, fx.doc(name)).map((d) => `${name}:${rangeText(d.range)} ${d.code}: ${d.message}`);
  check(['main.tex', 'ch/a.tex', 'ch/b.tex', 'ch/twice.tex', 'loop/x.tex', 'loop/y.tex', 'self.tex'].flatMap(render).join('\n'), expect`
    main.tex:5:8-5:16 duplicate-include: twice.tex is already included (main.tex:4): LaTeX reads it twice and reports every label in it as multiply defined
    ch/b.tex:3:8-3:12 include-cycle: include cycle: a.tex → b.tex → a.tex
    loop/y.tex:1:8-1:9 include-cycle: include cycle: x.tex → y.tex → x.tex
    self.tex:2:8-2:12 include-cycle: include cycle: self.tex → self.tex
  `);
  // shared.tex (no labels) is read twice too, harmlessly: not reported; the labels of the
  // file read twice are not reported as duplicates (one definition on disk)
  assert.deepEqual(computeDiagnostics(fx.ws, fx.doc('ch/twice.tex')), []);
});

test('roots: a parent\'s %!TEX root is followed, even when the root has not been read', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\begin{document}
\input{chapters/ch1/intro}
\input{chapters/ch2/body}
\end{document}
%! chapters/ch1/intro.tex
\chapter{Intro}\label{ch:intro}
%! chapters/ch2/body.tex
%!TEX root = ../../main.tex
\chapter{Body}
\input{sub/part}
%! chapters/ch2/sub/part.tex
See \ref{ch:intro}.
`);
  // what the CLI has when asked for part.tex: the file and its folder's parent, not main.tex
  const ws = new Workspace({ fs: fx.fs });
  const part = ws.loadFile(path.join(fx.dir, 'chapters/ch2/sub/part.tex'))!;
  ws.loadFile(path.join(fx.dir, 'chapters/ch2/body.tex'));
  assert.deepEqual(ws.roots(part).map((d) => base(d.uri)), ['main.tex']);
  assert.deepEqual([...ws.scope(part)].map((d) => base(d.uri)).sort(), ['body.tex', 'intro.tex', 'main.tex', 'part.tex']);
  assert.deepEqual(computeDiagnostics(ws, part), []);
});

// A document with very many labels is asked for its names instead of having them copied into the
// workspace's index (BULK_LABELS); what resolves, what is undefined and what is duplicated must
// not depend on which way it is held.
test('a document with very many labels resolves, duplicates and updates as a small one does', () => {
  const run = (count: number) => {
    const ws = new Workspace();
    const many = Array.from({ length: count }, (_, i) => `\\label{n:${i}}`).join('\n');
    const big = ws.open('file:///p/big.tex', 'latex', 1, `${many}\n\\label{shared}\n\\label{gone}\n`);
    const main = ws.open('file:///p/main.tex', 'latex', 1, '\\documentclass{article}\n\\begin{document}\n\\input{big}\n\\label{shared}\nSee \\ref{n:7}, \\ref{gone} and \\ref{nowhere}.\n\\end{document}\n');
    // another project, not compiled with these: its label is no duplicate, and no definition for main
    ws.open('file:///q/other.tex', 'latex', 1, '\\documentclass{article}\n\\begin{document}\n\\label{nowhere}\\label{n:7}\n\\end{document}\n');
    const codes = (d: typeof main) => computeDiagnostics(ws, d).map((x) => `${x.code} ${d.text.slice(d.offsetAt(x.range.start), d.offsetAt(x.range.end))}`).sort();
    const before = { main: codes(main), counts: [ws.countLabel(main, 'n:7'), ws.countLabel(main, 'shared'), ws.countLabel(main, 'nowhere')] };
    // an edit that removes a label of the big document
    const at = big.text.indexOf('\\label{gone}');
    ws.change(big.uri, [{ range: { start: big.positionAt(at), end: big.positionAt(at + '\\label{gone}'.length) }, text: '' }], 2);
    return { before, after: codes(main), holders: [...ws.labelHolders('n:7')].map((d) => d.uri).sort() };
  };
  const small = run(10);
  const bulk = run(25_000);
  assert.deepEqual(bulk, small);
  assert.deepEqual(small.before.counts, [1, 2, 0]);
  assert.ok(small.before.main.includes("duplicate-label shared"), JSON.stringify(small.before.main));
  assert.ok(small.before.main.includes('undefined-ref nowhere') && !small.before.main.some((c) => c.includes('n:7')));
  assert.ok(small.after.includes('undefined-ref gone'));
  assert.deepEqual(small.holders, ['file:///p/big.tex', 'file:///q/other.tex']);
});

// Include lookups on disk are reused for a moment (a project being read rebuilds the include
// graph for each request); a file event makes the next lookup ask the disk again.
test('a file that appears on disk is found by the next include lookup after a file event', () => {
  const fs = new MemoryFileSystem({ '/p/main.tex': '\\documentclass{article}\n\\begin{document}\n\\input{fig.pdf_t}\n\\end{document}\n' });
  const ws = new Workspace({ fs });
  const main = ws.loadFile('/p/main.tex')!;
  assert.deepEqual(ws.missingIncludes(main).map((i) => i.path), ['fig.pdf_t']);
  fs.writeFile('/p/fig.pdf_t', '\\put(0,0){x}\n');
  ws.filesChanged();
  assert.deepEqual(ws.missingIncludes(main).map((i) => i.path), []);
});

test('chapters included through a macro defined in a file that is itself read through a folder macro are read', () => {
  // OpenLogic's layout: `\input{\olpath/sty/x.sty}` defines `\olimport`, with which the root
  // includes its chapters; the file defining it is found while the root's includes are resolved
  const fs = new MemoryFileSystem({
    '/p/main.tex': '\\documentclass{book}\n\\newcommand{\\olpath}{.}\n\\input{\\olpath/sty/ol.sty}\n\\begin{document}\n\\olimport[content]{one}\n\\end{document}\n',
    '/p/sty/ol.sty': '\\DeclareDocumentCommand \\olimport { s o m o }{\\IfNoValueTF{#2}{\\subfile{#3}}{\\subfile{#2/#3}}}\n',
    '/p/content/one.tex': '\\documentclass[../main]{subfiles}\n\\begin{document}\n\\section{One}\\label{sec:one}\n\\end{document}\n',
  });
  const ws = new Workspace({ fs });
  const main = ws.loadFile('/p/main.tex')!;
  assert.deepEqual(ws.children(main).map((d) => base(d.uri)).sort(), ['ol.sty', 'one.tex']);
  assert.equal(ws.findLabel(main, 'sec:one').length, 1);
});
