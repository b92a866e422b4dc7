// What is published on real projects: each class of cause found in LaTeX nobody here wrote
// (../shared/data/latex-wild) as a small fixture. A false alarm of a class is silent; the real
// problem next to it is still reported.
import { test } from 'node:test';
import { fixture } from '../../testing/fixture.js';
import { computeDiagnostics } from './documentDiagnostics.js';
import { check, expect } from '../../testing/snapshot.js';
import type { Fixture } from '../../testing/fixture.js';

/** Every published diagnostic of the named files, `file:line code: message`. */
function published(fx: Fixture, ...names: string[]): string {
  const out: string[] = [];
  for (const n of names) {
    const doc = fx.doc(n);
    for (const d of computeDiagnostics(fx.ws, doc)) out.push(`${n}:${d.range.start.line + 1} ${['', 'E', 'W', 'I', 'H'][d.severity ?? 1]} ${d.code}: ${d.message}`);
  }
  return out.join('\n');
}

test('a local package (.sty) is a macro source: its theorem and reference macros count, nothing about it is reported', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\usepackage[opt]{amsmath,bookmacros}
\begin{document}
\theorem{thm:main}{Main}{Every $x$ is $x$.}
By \thmref{thm:main} and \thmref{thm:typo}.
\end{document}
%! bookmacros.sty
\ProvidesPackage{bookmacros}
\newtheorem{thm}{Theorem}
\newcommand{\theorem}[3]{\begin{thm}[#2]\label{#1}#3\end{thm}}
\newcommand{\myref}[2]{\hyperref[#2]{#1~\ref*{#2}}}
\newcommand{\thmref}[1]{\myref{Theorem}{#1}}
\newenvironment{oops}{\begin{center}}{\end{center}
\end{itemize}
`);
  check(published(fx, 'main.tex', 'bookmacros.sty'), expect`
    main.tex:5 E undefined-ref: Undefined reference: no \label{thm:typo} in this project (through \thmref)
  `);
});

test('computed label names: keys a pattern may produce are not undefined, others are', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\newcounter{ex}
\newcommand{\exsol}[1]{\refstepcounter{ex}\label{sol_\arabic{chapter}_\arabic{ex}}

#1}
\begin{document}
\chapter{One}\label{ch:one}
\exsol{Yes.} See \ref{sol_1_1}, \ref{sol_\arabic{chapter}_2} and \ref{ch:two}.
\end{document}
`);
  check(published(fx, 'main.tex'), expect`
    main.tex:8 E undefined-ref: Undefined reference: no \label{ch:two} in this project
  `);
});

test('definition bodies hold no labels, references or environments, blank lines and \\WithSuffix included', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\usepackage{suffix}
\newcommand{\figref}[1]{\hyperref[#1]{Figure~\ref*{#1}}}
\WithSuffix\newcommand\figref*[1]{Figure~\ref*{#1}}
\newenvironment{onebox}[1]{
\begin{minipage}{\textwidth}

\textbf{#1}}{
\end{minipage}

}
\begin{document}
\begin{figure}\caption{A}\label{fig:a}\end{figure}
\figref*{fig:a}, \figref{fig:b}.
\begin{onebox}{Title} x \end{onebox}
\end{document}
`);
  check(published(fx, 'main.tex'), expect`
    main.tex:14 E undefined-ref: Undefined reference: no \label{fig:b} in this project (through \figref)
  `);
});

test('a file no root compiles (a draft, an old chapter) has no knowable references or structure; its own duplicate labels are still real', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\begin{document}
\include*{ch1}
%\include{old}
\end{document}
%! ch1.tex
\chapter{One}\label{ch:one} See \ref{ch:old} and \ref{ch:one}.
%! old.tex
\begin{chapter}{Old}
\label{ch:old}\label{ch:old} See \ref{ch:gone}.
`);
  check(published(fx, 'ch1.tex', 'old.tex'), expect`
    ch1.tex:1 E undefined-ref: Undefined reference: no \label{ch:old} in this project
    old.tex:2 E duplicate-label: Duplicate label 'ch:old' (also at old.tex:2)
    old.tex:2 E duplicate-label: Duplicate label 'ch:old' (also at old.tex:2)
  `);
});

test('several roots over the same files: a label is duplicate only within one compilation', () => {
  const fx = fixture(String.raw`
%! vol1.tex
\documentclass{book}
\begin{document}
\input{common}
\input{part1}
\end{document}
%! vol2.tex
\documentclass{book}
\begin{document}
\input{common}
\input{part2}
\end{document}
%! common.tex
\chapter{Notation}\label{ch:notation}
%! part1.tex
\chapter{Intro}\label{ch:intro}
%! part2.tex
\chapter{Intro again}\label{ch:intro}\label{ch:notation}
`);
  check(published(fx, 'part1.tex', 'part2.tex', 'common.tex'), expect`
    part2.tex:1 E duplicate-label: Duplicate label 'ch:notation' (also at common.tex:1)
    common.tex:1 E duplicate-label: Duplicate label 'ch:notation' (also at part2.tex:1)
  `);
});

test('ambiguous structure is not reported; a certain problem is', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{beamer}
\newif\ifsolutions
\begin{document}
\begin{frame}
\section{Start}
Text.
\end{frame}
\begin{small}
\begin{multicols*}{3}[\begin{center}\section*{Sheet}\end{center}]
Cells.
\end{multicols*}
\end{small}
\ifsolutions
\begin{proof}
\else
\begin{proof}[Sketch]
\fi
Done.
\end{proof}
\begin{theorem}
Never closed.
\end{document}
`);
  check(published(fx, 'main.tex'), expect`
    main.tex:20 W unclosed-environment: \begin{theorem} is never closed
  `);
});

test('files the build writes are information; a name that differs only in case says so; a missing file leaves references unjudged', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\begin{document}
Draft \input{gitrev}
\input{figures/plot.pdf_t}
\input{../../.lake/build/library/Main}
\IfFileExists{local.cfg}{\input{local.cfg}}{}
\subfile{content/Preface}
\input{chapter9}
See \ref{thm:in-chapter9}.
\end{document}
%! content/preface.tex
Preface.
`);
  check(published(fx, 'main.tex'), expect`
    main.tex:3 I missing-include: gitrev is not here: a version stamp the build writes; it holds no labels, so references are still checked
    main.tex:4 I missing-include: figures/plot.pdf_t is not here: a figure exported from its drawing by the build; it holds no labels, so references are still checked
    main.tex:5 I missing-include: ../../.lake/build/library/Main is not here: it is under a build output folder; its labels and contents are unknown, so undefined references are not reported in this project
    main.tex:8 W missing-include: File not found: chapter9 (looked beside this file and up to 3 folders up); its labels and contents are unknown, so undefined references are not reported in this project
    main.tex:7 I include-letter-case: content/Preface is read as content/preface.tex only because TeX Live (since 2018) looks file names up ignoring letter case; older TeX installations on case-sensitive file systems (Linux) do not find it
  `);
});

test('chapters included through the project\'s own macro are part of it; labels in section titles and environment wrappers count', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\newcommand\includechapter[2]{\setcounter{chapter}{#1}\include{#2/TeX/#2}}
\newenvironment{thmbox}[1]{\begin{theorem}\label{#1}}{\end{theorem}}
\begin{document}
\includechapter{3}{probability}
See \ref{sec:bool}, \ref{thm:boxed} and \ref{sec:nowhere}.
\begin{thmbox}{thm:boxed} X. \end{thmbox}
\end{document}
%! probability/TeX/probability.tex
\chapter{Probability}
\subsection{Boolean types\label{sec:bool}}
`);
  check(published(fx, 'main.tex'), expect`
    main.tex:6 E undefined-ref: Undefined reference: no \label{sec:nowhere} in this project
  `);
});

test('the bodies of the project\'s verbatim-like environments hold no references or structure', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\usepackage{listings}
\lstnewenvironment{coq}[2]{\lstset{language=Coq}}{}
\newminted{python}{}
\begin{document}
\begin{coq}{name=x}{}
Lemma a : \begin{itemize} \ref{not:a:label}.
\end{coq}
\begin{pythoncode}
s = r"\end{enumerate} \label{x}"
\end{pythoncode}
See \ref{sec:none}.
\end{document}
`);
  check(published(fx, 'main.tex'), expect`
    main.tex:12 E undefined-ref: Undefined reference: no \label{sec:none} in this project
  `);
});

test('a label in each branch of one conditional is no duplicate (in branches of two conditionals, or twice in one branch, it is); a reference sees only its own branch', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\usepackage{ifthen,etoolbox,comment}
\newif\ifprinted
\newboolean{long}
\newtoggle{web}
\excludecomment{draft}
\begin{document}
\ifprinted
  \section{Print}\label{sec:out}
\else
  \section{Screen}\label{sec:out}
\fi
\ifthenelse{\boolean{long}}{\begin{equation}a\label{eq:len}\end{equation}}{\begin{equation}b\label{eq:len}\end{equation}}
\iftoggle{web}{\label{web:a}}{\ifprinted\label{web:a}\else\label{web:b}\fi}
\IfFileExists{extra.tex}{\input{extra}}{\section{No extra}\label{sec:extra}}
\begin{draft}\label{sec:print}\end{draft}
\ifprinted \label{two:ifs} \fi
\ifthenelse{\boolean{long}}{\label{two:ifs}}{}
\ifprinted \label{one:branch}\label{one:branch} \else \fi
\ifbook
  \input{partA}
\else
  \input{partB}
\fi
See \ref{sec:out}, \ref{eq:len}, \ref{web:a}, \ref{web:b}, \ref{sec:extra}, \ref{sec:print}, \ref{part}.
\ifprinted \label{sol:one} \else See \ref{sol:one} and \ref{sec:out}. \fi
\end{document}
%! extra.tex
\section{Extra}\label{sec:extra}
%! partA.tex
\chapter{A}\label{part}
%! partB.tex
\chapter{B}\label{part}
`);
  check(published(fx, 'main.tex', 'partA.tex', 'partB.tex'), expect`
    main.tex:26 E undefined-ref: Undefined reference: \label{sol:one} (main.tex:26) is only in another branch of a conditional this reference is in, never compiled with it
    main.tex:17 E duplicate-label: Duplicate label 'two:ifs' (also at main.tex:18)
    main.tex:18 E duplicate-label: Duplicate label 'two:ifs' (also at main.tex:17)
    main.tex:19 E duplicate-label: Duplicate label 'one:branch' (also at main.tex:19)
    main.tex:19 E duplicate-label: Duplicate label 'one:branch' (also at main.tex:19)
  `);
});

test("TeX's own lookup rules: file names and BibTeX keys ignore letter case, biber's keys do not", () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\usepackage{subfiles}
\begin{document}
\subfile{Preface}
See \ref{pre:one} and \ref{pre:two}; \cite{Smith2000}, \cite{smith2000} and \cite{jones}.
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
%! preface.tex
\chapter{Preface}\label{pre:one}
%! refs.bib
@book{smith2000, title={A}}
%! notes/main.tex
\documentclass{article}
\usepackage[style=alphabetic]{biblatex}
\addbibresource{../refs.bib}
\begin{document}
\cite{Smith2000} and \cite{smith2000}.
\end{document}
`);
  check(published(fx, 'main.tex', 'notes/main.tex'), expect`
    main.tex:5 E undefined-ref: Undefined reference: no \label{pre:two} in this project
    main.tex:5 W undefined-citation: Undefined citation: no entry 'jones' in this project's bibliography (refs.bib)
    main.tex:4 I include-letter-case: Preface is read as preface.tex only because TeX Live (since 2018) looks file names up ignoring letter case; older TeX installations on case-sensitive file systems (Linux) do not find it
    notes/main.tex:5 W undefined-citation: Undefined citation: no entry 'Smith2000'; 'smith2000' differs only in letter case, which biber does not ignore (refs.bib)
  `);
});

test('blueprints: an unknown \\uses key is an error, an unknown \\proves key information; a missing file in \\author switches nothing off', () => {
  const fx = fixture(String.raw`
%! src/web.tex
\documentclass{report}
\usepackage{blueprint}
\title{A blueprint}
\author{\input{../../AUTHORS.md}}
\begin{document}
\input{chapter/one}
\end{document}
%! src/chapter/one.tex
\begin{lemma}\label{foo}\lean{Foo.bar}\leanok
A lemma.
\end{lemma}
\begin{theorem}\label{main}\uses{chapter1.foo, foo}
A theorem.
\end{theorem}
\begin{proof}\proves{mian}\uses{foo}
Easy.
\end{proof}
\input{figures/plot.pgf}
`);
  check(published(fx, 'src/web.tex', 'src/chapter/one.tex'), expect`
    src/web.tex:4 W missing-include: File not found: ../../AUTHORS.md (looked beside this file and up to 3 folders up); it holds no labels, so references are still checked
    src/chapter/one.tex:4 E undefined-ref: Undefined reference: no \label{chapter1.foo} in this project
    src/chapter/one.tex:7 I undefined-ref: \proves{mian}: no \label{mian} in this project; the dependency graph attaches this proof to the statement above it
    src/chapter/one.tex:10 W missing-include: File not found: figures/plot.pgf (looked beside this file and up to 3 folders up); it holds no labels, so references are still checked
  `);
});

test("a subfile's preamble is its main file's, and a shared preamble reads packages through its own path macros", () => {
  const fx = fixture(String.raw`
%! include/section-preamble.tex
\documentclass{article}
\newcommand*{\bookpath}{../..}
\input{\bookpath/sty/book.sty}
\begin{document}
\end{document}
%! sty/book.sty
\input{\bookpath/sty/book-refs.sty}
%! sty/book-refs.sty
\newcommand*{\thepartid}{udf}
\newcommand*{\setpartid}[1]{\renewcommand*{\thepartid}{#1}}
\newcommand*{\partlabel}[1]{\label{\thepartid:#1}}
%! content/logic/syntax.tex
\documentclass[../../include/section-preamble]{subfiles}
\begin{document}
\setpartid{log}
\begin{prop}\partlabel{prop:terms}\end{prop}
See \cref{log:prop:terms} and \ref{sec:missing}.
\end{document}
`);
  check(published(fx, 'content/logic/syntax.tex'), expect`
    content/logic/syntax.tex:5 E undefined-ref: Undefined reference: no \label{sec:missing} in this project
  `);
});

test("labels and references built from the project's own state: a prefix set per file, read by later macros and by included files", () => {
  const fx = fixture(String.raw`
%! book.sty
\newcommand*{\fileprefix}{udf}
\newcommand{\setfileid}[3]{\renewcommand*{\fileprefix}{#1:#2:#3}}
\newcommand{\mylabel}[1]{\label{\fileprefix:#1}}
\newcommand{\mychapter}[3]{\chapter{#3}\label{#1:#2::chap}}
\NewDocumentCommand{\myref}{o m}{\cref{\IfNoValueTF{#1}{\fileprefix}{#1}:#2}}
\DeclareDocumentCommand \myimport { s o m }{\begingroup\IfNoValueTF{#2}{\input{#3}}{\input{#2/#3}}\endgroup}
%! main.tex
\documentclass{book}
\usepackage{book}
\begin{document}
\mychapter{fol}{syn}{Syntax}
\myimport[sections]{ext}
See \cref{fol:syn::chap}, \cref{fol:syn:ext:prop:terms}, \cref{fol:syn:ext:lem:inner} and \cref{fol:syn:ext:prop:tems}.
\ifbook\setfileid{a}{b}{c}\else\setfileid{x}{y}{z}\fi
\begin{lemma}\mylabel{lem:either}\end{lemma}
See \cref{a:b:c:lem:either}.
\end{document}
%! sections/ext.tex
\setfileid{fol}{syn}{ext}
\begin{prop}\mylabel{prop:terms}Terms.\end{prop}
By \myref{prop:terms} and \myref[fol:syn:ext]{prop:terms}; not \myref{prop:typo}.
\input{sections/inner}
%! sections/inner.tex
\begin{lemma}\mylabel{lem:inner}Inner.\end{lemma}
\myref{lem:inner} and \myref{lem:inenr}.
`);
  check(published(fx, 'main.tex', 'sections/ext.tex', 'sections/inner.tex'), expect`
    main.tex:6 E undefined-ref: Undefined reference: no \label{fol:syn:ext:prop:tems} in this project
    sections/ext.tex:3 E undefined-ref: Undefined reference: no \label{fol:syn:ext:prop:typo} in this project (through \myref)
    sections/inner.tex:2 E undefined-ref: Undefined reference: no \label{fol:syn:ext:lem:inenr} in this project (through \myref)
  `);
});

test('a reference inside a test of whether a label is defined is checked only in the branch LaTeX prints; one outside is checked', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\makeatletter
\newcommand{\iflabeldef}[3]{\@ifundefined{r@#1}{#3}{#2}}
\newcommand{\iflabelgiven}[3]{\ifcsname r@#1\endcsname #2\else #3\fi}
\makeatother
\begin{document}
\chapter{Here}\label{ch:here}
\iflabeldef{ch:other}{ (see \cref{ch:other})}{}
\iflabeldef{ch:other}{ (see \cref{ch:typo})}{ (see \cref{ch:typo2})}
\iflabeldef{ch:here}{ (see \cref{ch:typo3})}{ (see \cref{ch:typo4})}
\iflabelgiven{ch:here}{ (see \cref{ch:typo5})}{}
See \cref{ch:other}.
\end{document}
`);
  check(published(fx, 'main.tex'), expect`
    main.tex:9 E undefined-ref: Undefined reference: no \label{ch:typo2} in this project
    main.tex:10 E undefined-ref: Undefined reference: no \label{ch:typo3} in this project
    main.tex:12 E undefined-ref: Undefined reference: no \label{ch:other} in this project
  `);
});

test('a key a macro spells from its arguments inside a test of that label is guarded too (an errata tally over volumes)', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\makeatletter
\newcommand{\tally}[2]{\@ifundefined{r@#1#2plus}{\@ifundefined{r@#1#2}{}{\ref{#1#2}}}{\ref{#1#2plus}}}
\makeatother
\newcommand{\row}[1]{#1 & \tally{#1}{I} & \tally{#1}{II}}
\begin{document}
\begin{tabular}{lcc}
\row{2023-06} \\
\end{tabular}
\ref{2023-06III}
\end{document}
`);
  check(published(fx, 'main.tex'), expect`
    main.tex:10 E undefined-ref: Undefined reference: no \label{2023-06III} in this project
  `);
});

test('opposite branches of two conditionals on one switch, in different files, are never compiled together: no duplicate label or include', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\usepackage{etoolbox}
\newtoggle{short}
\newif\ifearly
\begin{document}
\include{volI}
\include{volII}
\end{document}
%! volI.tex
\iftoggle{short}{}{\chapter{Uses}\label{idea:uses}\input{area}}
\ifearly\input{inverse}\fi
\ifearly\label{both:on}\fi
%! volII.tex
\iftoggle{short}{\chapter{Uses}\label{idea:uses}\input{area}}{}
\nottoggle{short}{\label{nt:a}}{}
\iftoggle{short}{}{\label{nt:a}}
\ifearly\else\input{inverse}\fi
\ifearly\label{both:on}\fi
\input{area}
%! area.tex
\section{Area}\label{sec:area}
%! inverse.tex
\section{Inverse}\label{sec:inverse}
`);
  check(published(fx, 'volI.tex', 'volII.tex'), expect`
    volI.tex:3 E duplicate-label: Duplicate label 'both:on' (also at volII.tex:5)
    volII.tex:2 E duplicate-label: Duplicate label 'nt:a' (also at volII.tex:3)
    volII.tex:3 E duplicate-label: Duplicate label 'nt:a' (also at volII.tex:2)
    volII.tex:5 E duplicate-label: Duplicate label 'both:on' (also at volI.tex:3)
    volII.tex:6 W duplicate-include: area.tex is already included (volI.tex:1): LaTeX reads it twice and reports every label in it as multiply defined
  `);
});

test('a label only another compiled document of the workspace defines (a draft of a section, a guide beside the book) is said, not flagged; one in a file nothing compiles is an error', () => {
  const fx = fixture(String.raw`
%! book.tex
\documentclass{book}
\newcommand{\mtable}[3]{\begin{figure}#3\caption{#1}\label{#2}\end{figure}}
\begin{document}
\chapter{Series}\label{ch:series}
\mtable{Partial sums}{fig:sums}{x}
\end{document}
%! drafts/revision.tex
\documentclass{article}
\begin{document}
As in Chapter \ref{ch:series} and Figure \ref{fig:sums}; see \ref{thm:something} and \ref{sec:old}.
\end{document}
%! old.tex
\section{Old}\label{sec:old}
`);
  check(published(fx, 'drafts/revision.tex'), expect`
    drafts/revision.tex:3 I undefined-ref: \label{ch:series} is only in book.tex, which is not compiled with this document: compiled on its own, this reference prints ??
    drafts/revision.tex:3 I undefined-ref: \label{fig:sums} is only in book.tex, which is not compiled with this document: compiled on its own, this reference prints ??
    drafts/revision.tex:3 E undefined-ref: Undefined reference: no \label{thm:something} in this project
    drafts/revision.tex:3 E undefined-ref: Undefined reference: no \label{sec:old} in this project
  `);
});

test('$$ in a table cell is an empty formula, not a display left open', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{tabular}{l c}
$y=f(x)+c$ & $$c units upward\\
$y=f(x)-c$ & $c$ units downward\\
\end{tabular}
$$ x^2
\end{document}
`);
  check(published(fx, 'main.tex'), expect`
    main.tex:7 W unclosed-environment: display math $$ is never closed
  `);
});
