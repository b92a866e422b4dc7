import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LatexDocument } from '../model/latexDocument.js';
import { check, expect, loc } from '../testing/snapshot.js';
import { dedent } from '../testing/fixture.js';
import { splitAll } from './blockSplitter.js';

/** Renders everything the model found in `src`, one line per fact. */
function outline(src: string): string {
  const doc = new LatexDocument('file:///t.tex', dedent(src), 1);
  const text = doc.text;
  const lines: string[] = [];
  const envs = doc.envs();
  envs.forEach((e, i) => {
    const opt = e.opt ? ` [${text.slice(e.opt.start, e.opt.end)}]` : '';
    const parent = e.parent >= 0 ? ` in ${envs[e.parent].name}` : '';
    const rows = e.rows ? ` rows=${e.rows.length}${e.rows.some((r) => r.notag) ? ' notag=' + e.rows.map((r) => (r.notag ? 1 : 0)).join('') : ''}` : '';
    lines.push(`env ${e.name}${opt} ${loc(doc, e.start, e.end)}${parent}${rows}${e.closed ? '' : ' UNCLOSED'} #${i}`);
  });
  for (const l of doc.labels()) lines.push(`label ${l.name} env=#${l.env} math=#${l.mathEnv} row=${l.row}`);
  for (const r of doc.refs()) lines.push(`ref \\${r.cmd}{${r.name}} ${loc(doc, r.start, r.end)}`);
  for (const c of doc.cites()) lines.push(`cite \\${c.cmd}{${c.key}}`);
  for (const i of doc.includes()) lines.push(`include ${i.kind} ${i.path}${i.prefix ? ' prefix=' + i.prefix : ''}${i.dir ? ' dir=' + i.dir : ''}`);
  for (const s of doc.sections()) lines.push(`section ${s.level} ${s.title}${s.starred ? ' *' : ''}`);
  for (const m of doc.macros()) lines.push(`macro \\${m.name} nargs=${m.nargs}${m.optDefault !== undefined ? ' opt=' + m.optDefault : ''} body=${m.body}${m.theoremWrapper ? ' wrapper=' + JSON.stringify(m.theoremWrapper) : ''}`);
  for (const t of doc.theoremDefs()) lines.push(`thmdef ${t.cmd} ${t.env ?? ''} ${t.title ?? ''}${t.shared ? ' shared=' + t.shared : ''}${t.parent ? ' parent=' + t.parent : ''}${t.style ? ' style=' + t.style : ''}${t.starred ? ' *' : ''}`.replace(/ +/g, ' ').replace(/ $/, ''));
  for (const m of doc.magic()) lines.push(`magic ${m.key}=${m.value}`);
  for (const p of doc.problems()) lines.push(`problem ${p.code} ${loc(doc, p.start, p.end)}: ${p.message}`);
  return lines.join('\n');
}

test('theorem-like environments with titles, labels and a proof', () => {
  check(outline(`
    \\begin{theorem}[Fermat]\\label{thm:f}
    No solutions for $n > 2$.
    \\end{theorem}
    \\begin{proof}[Proof of Theorem~\\ref{thm:f}]
    Margin too small.
    \\end{proof}
  `), expect`
    env theorem [Fermat] t.tex:1:1-3:14 #0
    env proof [Proof of Theorem~\ref{thm:f}] t.tex:4:1-6:12 #1
    label thm:f env=#0 math=#-1 row=-1
    ref \ref{thm:f} t.tex:4:37-4:42
  `);
});

test('display math: rows, per-row labels, notag, nested aligned, \\[ \\] and $$', () => {
  check(outline(`
    \\begin{align}
    a &= b \\label{r1} \\\\
    &= c \\notag \\\\[2pt]
    \\begin{aligned} x \\\\ y \\end{aligned} \\label{r3}
    \\end{align}
    \\[ x^2 \\]
    $$ y \\label{dd} $$
    \\begin{alignat}{2} a &= b \\\\ c &= d \\end{alignat}
  `), expect`
    env align t.tex:1:1-5:12 rows=3 notag=010 #0
    env aligned t.tex:4:1-4:37 in align #1
    env \[ t.tex:6:1-6:10 rows=1 #2
    env $$ t.tex:7:1-7:19 rows=1 #3
    env alignat t.tex:8:1-8:50 rows=2 #4
    label r1 env=#0 math=#0 row=0
    label r3 env=#0 math=#0 row=2
    label dd env=#3 math=#3 row=0
  `);
});

test('every display-math kind is recognised, starred too', () => {
  const kinds = ['equation', 'equation*', 'align', 'align*', 'gather', 'gather*', 'multline', 'multline*', 'eqnarray', 'eqnarray*', 'flalign', 'flalign*'];
  const src = kinds.map((k) => `\\begin{${k}} x = 1 \\end{${k}}`).join('\n\n');
  const doc = new LatexDocument('file:///t.tex', src, 1);
  assert.deepEqual(doc.envs().map((e) => [e.name, !!e.rows]), kinds.map((k) => [k, true]));
});

test('reference commands: lists, starred, ranges, hyperref, doubled braces', () => {
  check(outline(`
    \\ref{a} \\eqref{b} \\pageref{c} \\autoref{d}
    \\cref{e, f ,g} \\Cref*{h} \\crefrange{i}{j}
    \\hyperref[k]{text} \\cref{{l}}
  `), expect`
    ref \ref{a} t.tex:1:6-1:7
    ref \eqref{b} t.tex:1:16-1:17
    ref \pageref{c} t.tex:1:28-1:29
    ref \autoref{d} t.tex:1:40-1:41
    ref \cref{e} t.tex:2:7-2:8
    ref \cref{f} t.tex:2:10-2:11
    ref \cref{g} t.tex:2:13-2:14
    ref \Cref{h} t.tex:2:23-2:24
    ref \crefrange{i} t.tex:2:37-2:38
    ref \crefrange{j} t.tex:2:40-2:41
    ref \hyperref{k} t.tex:3:11-3:12
    ref \cref{l} t.tex:3:27-3:28
  `);
});

test('citations, includes, xr external documents and magic comments', () => {
  check(outline(`
    %!TEX root = ../main.tex
    \\cite{knuth} \\citep[p.~3]{a, b} \\parencite[see][]{c} \\nocite{*}
    \\input{chapters/one} \\include{two} \\subfile{sub/three}
    \\import{dir/}{four} \\externaldocument[alg-]{algebra} \\input preamble
    \\bibliography{refs,more}
  `), expect`
    cite \cite{knuth}
    cite \citep{a}
    cite \citep{b}
    cite \parencite{c}
    cite \nocite{*}
    include input chapters/one
    include include two
    include subfile sub/three
    include import four dir=dir/
    include external algebra prefix=alg-
    include input preamble
    include bibliography refs
    include bibliography more
    magic root=../main.tex
  `);
});

test('theorem definitions: newtheorem variants, styles, thmtools, wrapper macros', () => {
  check(outline(`
    \\theoremstyle{plain}
    \\newtheorem{theorem}{Theorem}[section]
    \\newtheorem{lemma}[theorem]{Lemma}
    \\newtheorem*{claim}{Claim}
    \\theoremstyle{definition}
    \\declaretheorem[name=Definition, sibling=theorem]{definition}
    \\declaretheorem{remark}[style=remark, numberwithin=section]
    \\def\\defthm#1#2#3{\\newtheorem{#1}[#1]{#2}\\crefname{#1}{#2}{#3}}
  `), expect`
    macro \defthm nargs=3 body=\newtheorem{#1}[#1]{#2}\crefname{#1}{#2}{#3} wrapper={"envArg":1,"titleArg":2,"sharedArg":1}
    thmdef theoremstyle style=plain
    thmdef newtheorem theorem Theorem parent=section
    thmdef newtheorem lemma Lemma shared=theorem
    thmdef newtheorem claim Claim *
    thmdef theoremstyle style=definition
    thmdef declaretheorem definition Definition shared=theorem
    thmdef declaretheorem remark Remark parent=section style=remark
  `);
});

test('macro definitions are kept with argument counts and bodies', () => {
  check(outline(`
    \\newcommand{\\R}{\\mathbb{R}}
    \\newcommand*\\norm[1]{\\lVert #1 \\rVert}
    \\renewcommand{\\vec}[2][n]{(#2_1,\\dots,#2_#1)}
    \\DeclareMathOperator{\\Hom}{Hom}
    \\DeclareMathOperator*{\\argmax}{arg\\,max}
    \\def\\pair#1#2{\\langle #1, #2\\rangle}
    \\NewDocumentCommand{\\abs}{m}{\\lvert #1 \\rvert}
  `), expect`
    macro \R nargs=0 body=\mathbb{R}
    macro \norm nargs=1 body=\lVert #1 \rVert
    macro \vec nargs=2 opt=n body=(#2_1,\dots,#2_#1)
    macro \Hom nargs=0 body=Hom
    macro \argmax nargs=0 body=arg\,max
    macro \pair nargs=2 body=\langle #1, #2\rangle
    macro \abs nargs=1 body=\lvert #1 \rvert
  `);
});

test('comments, verbatim, \\verb and definitions hide structure', () => {
  check(outline(`
    % \\label{commented} \\begin{lemma}
    \\verb|\\label{verb}| \\url{http://x.org/a%20b}
    \\begin{verbatim}
    \\begin{theorem}\\label{verbatim}
    \\end{verbatim}
    \\newenvironment{myproof}{\\begin{proof}}{\\end{proof}}
    \\newcommand{\\beq}{\\begin{equation}}
    50\\% \\label{real}
  `), expect`
    label real env=#-1 math=#-1 row=-1
    macro \beq nargs=0 body=\begin{equation}
  `);
});

test('sections with short titles and starred forms', () => {
  check(outline(`
    \\chapter{Algebra}
    \\section[Short]{Long title with $x$}
    \\subsection*{Unnumbered}
  `), expect`
    section 1 Algebra
    section 2 Long title with $x$
    section 3 Unnumbered *
  `);
});

test('malformed structure is reported, not fatal', () => {
  check(outline(`
    \\begin{lemma}
    \\begin{equation} x
    \\end{lemma}
    \\end{proof}
    \\begin{theorem}
  `), expect`
    env lemma t.tex:1:1-3:12 #0
    env equation t.tex:2:1-3:1 in lemma rows=1 UNCLOSED #1
    env theorem t.tex:5:1-5:16 UNCLOSED #2
    problem unclosed-environment t.tex:2:1-2:17: \begin{equation} is never closed
    problem unmatched-end t.tex:4:1-4:12: \end{proof} has no matching \begin
    problem unclosed-environment t.tex:5:1-5:16: \begin{theorem} is never closed
  `);
});

test('blocks split at blank lines and sections outside environments only', () => {
  const text = dedent(`
    \\section{A}
    text

    \\begin{lemma}
    x

    y
    \\end{lemma}
    more
    \\subsection{B}
    tail
  `);
  const starts = splitAll(text);
  const firstLines = starts.map((s) => text.slice(s, text.indexOf('\n', s)));
  assert.deepEqual(firstLines, ['\\section{A}', '\\begin{lemma}', '\\subsection{B}']);
});

test('a section inside an unclosed theorem ends it (recovery keeps the damage local)', () => {
  const text = '\\begin{lemma}\nx\n\n\\section{Next}\n\\label{s}\n\npara\n';
  const doc = new LatexDocument('file:///t.tex', text, 1);
  assert.equal(doc.blocks().length, 3);
  assert.equal(doc.envs()[0].closed, false);
  assert.equal(doc.labels()[0].env, -1);
});
