// A small library folder of papers, for the library's tests (store, server service, citations, protocol).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const PAPER = String.raw`\documentclass{amsart}
\newtheorem{theorem}{Theorem}[section]
\newtheorem{lemma}[theorem]{Lemma}
\theoremstyle{definition}
\newtheorem{definition}[theorem]{Definition}
\title{On bounded \emph{monotone} sequences}
\author{A. Author \and B. Writer}
\begin{document}
\section{Results}
\input{defs}
\begin{lemma}\label{lem:mono}
Every bounded monotone sequence of real numbers converges.
\end{lemma}
\begin{proof}
By the least upper bound property.
\end{proof}
\begin{theorem}[Bolzano--Weierstrass]\label{thm:bw}
Every bounded sequence of real numbers has a convergent subsequence.
\end{theorem}
\begin{proof}
Every sequence has a monotone subsequence; apply Lemma~\ref{lem:mono}.
\end{proof}
\begin{equation}\label{eq:geom}
\sum_{n=0}^\infty r^n = \frac{1}{1-r}
\end{equation}
\end{document}
`;
export const DEFS = String.raw`\begin{definition}\label{def:mono}
A sequence is monotone if it is increasing or decreasing.
\end{definition}
`;
export const OTHER = String.raw`\documentclass{article}
\newtheorem{theorem}{Theorem}
\title{Primes}
\begin{document}
\begin{theorem}\label{thm:primes}
There are infinitely many prime numbers.
\end{theorem}
\end{document}
`;

/** A library folder: an arXiv paper with an input file, a single-file paper, notes that are no paper, and a book chapter whose class is in a preamble. The caller removes it. */
export function library(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-library-'));
  fs.mkdirSync(path.join(dir, '2101.01234v2'));
  fs.writeFileSync(path.join(dir, '2101.01234v2', 'main.tex'), PAPER);
  fs.writeFileSync(path.join(dir, '2101.01234v2', 'defs.tex'), DEFS);
  fs.writeFileSync(path.join(dir, 'primes.tex'), OTHER);
  fs.writeFileSync(path.join(dir, 'notes.tex'), '% \\begin{document} commented out\nJust notes.\n');
  // a chapter that takes its class from a preamble it inputs is a paper; the preamble is none
  fs.mkdirSync(path.join(dir, 'book'));
  fs.writeFileSync(path.join(dir, 'book', 'preamble.tex'), '\\documentclass{amsart}\n\\newtheorem{lemma}{Lemma}\n');
  fs.writeFileSync(path.join(dir, 'book', 'chapter.tex'), '\\input{preamble}\n\\begin{document}\n\\begin{lemma}\\label{lemma-x}A chapter lemma about rings.\\end{lemma}\n\\end{document}\n');
  return dir;
}

