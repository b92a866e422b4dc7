import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { check, expect } from '../testing/snapshot.js';
import { latexToMarkdown, latexToPlain } from './render.js';

test('a nested enumerate is indented under its item and the outer numbering goes on', () => {
  // Stacks project, schemes.tex, lemma-standard-open
  const src = `Let $R$ be a ring. Let $f \\in R$.
\\begin{enumerate}
\\item If $g\\in R$ and $D(g) \\subset D(f)$, then
\\begin{enumerate}
\\item $f$ is invertible in $R_g$,
\\item $g^e = af$ for some $e \\geq 1$ and $a \\in R$,
\\end{enumerate}
\\item Any open covering of $D(f)$ can be refined to a finite
open covering.
\\item If $g_1, \\ldots, g_n \\in R$, then $D(f) \\subset \\bigcup D(g_i)$
if and only if they generate the unit ideal.
\\end{enumerate}`;
  check(latexToMarkdown(src), expect`
    Let $R$ be a ring. Let $f \in R$.

    1. If $g\in R$ and $D(g) \subset D(f)$, then
       1. $f$ is invertible in $R_g$,
       2. $g^e = af$ for some $e \geq 1$ and $a \in R$,
    2. Any open covering of $D(f)$ can be refined to a finite open covering.
    3. If $g_1, \ldots, g_n \in R$, then $D(f) \subset \bigcup D(g_i)$ if and only if they generate the unit ideal.
  `);
});

test('everything after an item marker stays inside the item: lists, display math, paragraphs', () => {
  const src = `\\begin{itemize}
\\item a
\\begin{enumerate}\\item x \\item y \\[ a = b \\] z \\end{enumerate}
\\item b
\\end{itemize}
\\begin{description}\\item[Foo] c \\begin{itemize}\\item w\\end{itemize} after \\item[Bar] d\\end{description}`;
  check(latexToMarkdown(src), expect`
    - a
      1. x
      2. y

         $$
         a = b
         $$

         z
    - b

    - **Foo** c
      - w

      after
    - **Bar** d
  `);
});

test('\\texorpdfstring keeps its TeX argument only', () => {
  // HoTT book section titles
  assert.equal(latexToPlain('Sets and \\texorpdfstring{$n$}{n}-types'), 'Sets and $n$-types');
  assert.equal(latexToPlain('\\texorpdfstring{$\\Sigma$}{Σ}-types'), '$\\Sigma$-types');
});

test('index entries vanish with their arguments', () => {
  const src = 'a \\emph{path}\\indexdef{path!inverse} is\\index{path}\\indexsee{2-path}{path, 2-}\\nomenclature[p]{$p$}{a path}\\index[idx]{x} here.';
  assert.equal(latexToMarkdown(src), 'a *path* is here.');
});

test('PlanetMath links keep their text, link metadata vanishes', () => {
  const src = 'See \\PMlinkname{groups}{Group}, \\PMlinkid{here}{12533}, \\PMlinkexternal{the site}{http://x.org} and \\PMlinktofile{code}{a.m}.'
    + '\\PMlinkescapeword{objects}\\PMlinkescapephrase{contain it} An \\PMlinkescapetext{object}.';
  assert.equal(latexToMarkdown(src), 'See groups, here, the site and code. An object.');
});

test('text accents become letters; math is left alone', () => {
  const src = 'Schr\\"{o}der--Bernstein, Erd\\H{o}s, \\\'etale, \\`a la, G\\"odel, ma\\~nana, h\\^otel, \\c{c}a, \\v{S}mulian, na\\"{\\i}ve, \\" u, \\c c, '
    + 'St{\\o}rmer, \\L{}ukasiewicz, \\ss, \\~{}user, $\\"a \\hat x$';
  assert.equal(latexToMarkdown(src),
    'Schröder–Bernstein, Erdős, étale, à la, Gödel, mañana, hôtel, ça, Šmulian, naïve, ü, ç, Størmer, Łukasiewicz, ß, ~user, $\\"a \\hat x$');
  // a letter command with a longer argument is not an accent
  assert.equal(latexToMarkdown('\\v{abc} \\c{cd}'), 'abc cd');
});

test('references: kind and title once, the label where there is no title, \\eqref as its label in parentheses', () => {
  const targets: Record<string, { kind: string; title?: string }> = {
    'lem:key': { kind: 'Lemma', title: 'Key lemma' },
    'thm:main': { kind: 'Theorem' },
    'sec:a': { kind: 'Subsection', title: 'Setup' },
    'eq:intro': { kind: 'Equation' },
  };
  const src = 'By Lemma~\\ref{lem:key}, \\ref{lem:key}, Theorem \\ref{thm:main}, \\cref{thm:main,lem:key}, Section~\\ref{sec:a}, '
    + 'Lemmas~\\ref{lem:key}, \\eqref{eq:intro}, \\ref{nowhere} and \\eqref{nowhere}.';
  check(latexToMarkdown(src, { refTarget: (n) => targets[n] }), expect`
    By Lemma (*Key lemma*), *Lemma (Key lemma)*, Theorem \`thm:main\`, *Theorem* \`thm:main\`, *Lemma (Key lemma)*, Section (*Setup*), Lemmas (*Key lemma*), (\`eq:intro\`), \`nowhere\` and (\`nowhere\`).
  `);
});

test('a shortened excerpt never ends inside math: the cut moves before the formula it would split', () => {
  const long = `Let $z_0$ be a point in $D$. ${'word '.repeat(40)}$\\displaystyle \\lim_{h \\to 0} \\frac {k(z_0 + h) - k(z_0)} h = \\lim_{h \\to 0} \\frac {f(z_0+h) g(z_0+h)} h$ and more.`;
  for (const max of [60, 120, 200, 240, 260, 280, 300]) {
    const md = latexToMarkdown(long, { maxLength: max });
    const dollars = md.replaceAll('\\$', '').match(/\$/g)?.length ?? 0;
    assert.equal(dollars % 2, 0, `${max}: ${md}`);
  }
  assert.equal(latexToMarkdown('a $$x^2 + y^2 = z^2 + w^2 + v^2$$ b', { maxLength: 20 }), 'a …');
  assert.equal(latexToMarkdown('costs \\$5 and $x$ then $y+z+w+v+u$', { maxLength: 30 }), 'costs \\$5 and $x$ then …');
});
