// Markdown notes: math found by remark-math with exact offsets, headings as sections, labels
// and references inside math entering the same model as LaTeX, diagnostics, robustness.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { DocumentSymbol, MarkupContent } from 'vscode-languageserver-types';
import { MarkdownDocument } from './markdownDocument.js';
import { fixture } from '../testing/fixture.js';
import { computeDiagnostics } from '../features/diagnostics/documentDiagnostics.js';
import { hoverAnswer as hover } from '../features/hover/providers.js';
import { definition } from '../features/labels/labelNavigation.js';
import { documentSymbols } from '../features/symbols.js';
import { documentEquations } from '../analysis/equationSites.js';
import { derivationDiagnostics } from '../features/equations/derivation.js';
import { checkWorkspaceDocumentSync } from '../math/service.js';
import { DerivationChecker } from '../math/checker.js';
import { check, expect } from '../testing/snapshot.js';
import { rangeText } from '../testing/snapshot.js';

const URI = 'file:///notes/note.md';

function spans(text: string, list: ReadonlyArray<{ start: number; end: number }>): string[] {
  return list.map((s) => text.slice(s.start, s.end));
}

/** Offset of the `occurrence`-th `needle` in `text`. */
function at(text: string, needle: string, occurrence = 0): number {
  let i = -1;
  for (let k = 0; k <= occurrence; k++) {
    i = text.indexOf(needle, i + 1);
    assert.ok(i >= 0, `'${needle}' not found`);
  }
  return i;
}

const NOTE = String.raw`# Pythagoras and $\pi$

Inline $a^2+b^2=c^2$ and a dollar-free line.

$$
c = \sqrt{a^2+b^2} \label{eq:hyp}
$$

## Consequences

See $\eqref{eq:hyp}$ and $\ref{eq:area}$, also $$\ref{eq:hyp}$$.

$$
\begin{aligned}
A &= \tfrac12 ab \label{eq:area}
\end{aligned}
$$

Code is not math: ` + '`$\\label{code}$`' + String.raw` and

` + '```\n$$\n\\label{fenced}\n$$\n```' + String.raw`

Setext heading
--------------
`;

describe('MarkdownDocument', () => {
  it('finds $…$ and $$…$$ math with exact offsets', () => {
    const doc = new MarkdownDocument(URI, NOTE);
    // `$$…$$` within a line is display math (Pandoc), a block but not inline math
    assert.deepEqual(spans(NOTE, doc.inlineMath()), ['$\\pi$', '$a^2+b^2=c^2$', '$\\eqref{eq:hyp}$', '$\\ref{eq:area}$']);
    assert.equal(doc.inlineMath()[1].start, at(NOTE, '$a^2'));
    // every math node is a block of its own, display blocks with their fences
    const blockTexts = spans(NOTE, doc.blocks());
    assert.ok(blockTexts.includes('$$\nc = \\sqrt{a^2+b^2} \\label{eq:hyp}\n$$'), JSON.stringify(blockTexts));
    assert.ok(blockTexts.includes('$$\n\\begin{aligned}\nA &= \\tfrac12 ab \\label{eq:area}\n\\end{aligned}\n$$'), JSON.stringify(blockTexts));
    // blocks are ordered (a heading's block contains the blocks of its inline math)
    const blocks = doc.blocks();
    for (let i = 1; i < blocks.length; i++) assert.ok(blocks[i].start >= blocks[i - 1].start, `blocks ${i - 1} and ${i} out of order`);
    // nothing inside code spans or fenced code
    assert.ok(!blockTexts.some((t) => t.includes('code') || t.includes('fenced')), JSON.stringify(blockTexts));
  });

  it('headings become sections with level, title and offsets', () => {
    const doc = new MarkdownDocument(URI, NOTE);
    const sections = doc.sections();
    assert.deepEqual(sections.map((s) => [s.cmd, s.level, s.title]), [
      ['heading', 1, 'Pythagoras and $\\pi$'],
      ['heading', 2, 'Consequences'],
      ['heading', 2, 'Setext heading'],
    ]);
    assert.deepEqual(spans(NOTE, sections), ['# Pythagoras and $\\pi$', '## Consequences', 'Setext heading\n--------------']);
    assert.equal(doc.sectionAt(at(NOTE, '$\\eqref'))?.title, 'Consequences');
  });

  it('labels and references inside math enter the model', () => {
    const doc = new MarkdownDocument(URI, NOTE);
    const labels = doc.labels();
    assert.deepEqual(labels.map((l) => l.name), ['eq:hyp', 'eq:area']);
    for (const l of labels) {
      assert.equal(NOTE.slice(l.start, l.end), l.name);
      assert.equal(NOTE.slice(l.cmdStart, l.cmdStart + 7), '\\label{');
      assert.ok(l.mathEnv >= 0, `${l.name} is in display math`);
      assert.ok(doc.envs()[l.mathEnv].start >= 0);
    }
    assert.equal(labels[0].start, at(NOTE, 'eq:hyp}'));
    assert.deepEqual(doc.labelMap().get('eq:area')?.length, 1);
    const refs = doc.refs();
    assert.deepEqual(refs.map((r) => [r.cmd, r.name]), [['eqref', 'eq:hyp'], ['ref', 'eq:area'], ['ref', 'eq:hyp']]);
    for (const r of refs) assert.equal(NOTE.slice(r.start, r.end), r.name);
    assert.equal(refs[0].start, at(NOTE, 'eq:hyp', 1));
  });

  it('keeps offsets right with CRLF line endings, tabs and astral characters', () => {
    const text = '# T😀\r\n\r\n😀 $x\\ref{a}$\r\n\r\n$$\r\ny \\label{a}\r\n$$\r\n';
    const doc = new MarkdownDocument(URI, text);
    assert.deepEqual(spans(text, doc.inlineMath()), ['$x\\ref{a}$']);
    assert.deepEqual(doc.labels().map((l) => text.slice(l.start, l.end)), ['a']);
    assert.deepEqual(doc.refs().map((r) => text.slice(r.start, r.end)), ['a']);
    assert.deepEqual(doc.sections().map((s) => s.title), ['T😀']);
  });

  it('keeps offsets right when the text starts with a byte order mark', () => {
    // editors may send a BOM in didOpen; micromark drops it and counts offsets without it
    const text = '\uFEFF# Title\n\n$x$ and $$y \\label{b}$$\n';
    const doc = new MarkdownDocument(URI, text);
    assert.deepEqual(spans(text, doc.sections()), ['# Title']);
    assert.deepEqual(spans(text, doc.inlineMath()), ['$x$']);
    assert.deepEqual(doc.labels().map((l) => text.slice(l.start, l.end)), ['b']);
  });

  it('follows edits (full reparse) and keeps a new version', () => {
    const doc = new MarkdownDocument(URI, NOTE, 1);
    const p = doc.positionAt(at(NOTE, '\\label{eq:area}') + '\\label{'.length);
    doc.applyChanges([{ range: { start: p, end: { line: p.line, character: p.character + 'eq:area'.length } }, text: 'eq:triangle' }], 2);
    assert.equal(doc.version, 2);
    assert.deepEqual(doc.labels().map((l) => l.name), ['eq:hyp', 'eq:triangle']);
    assert.deepEqual(doc.labels().map((l) => doc.text.slice(l.start, l.end)), ['eq:hyp', 'eq:triangle']);
    doc.applyChanges([{ text: 'plain text only' }], 3);
    assert.deepEqual(doc.labels(), []);
    assert.deepEqual(doc.sections(), []);
    assert.equal(doc.blocks().length, 1);
  });

  it('malformed markdown never throws and keeps blocks inside the text', () => {
    const inputs = [
      '',
      '$',
      '$$',
      '$$$',
      '$$\n\\label{open',
      '$\\label{',
      '$$\n\\begin{aligned}\n$$',
      '\0\0$\0\\label{\0}$\0',
      '#'.repeat(10_000),
      '$'.repeat(20_000),
      // (remark is superlinear on these: sizes kept small so the test stays fast)
      '['.repeat(2_000) + ']('.repeat(2_000),
      '> '.repeat(1_000) + '$$ x $$',
      '- '.repeat(300) + '$a$',
      '`'.repeat(3_000) + '$x$',
      '<div>$$\\label{html}$$</div>',
      '\\' + '{'.repeat(50_000),
      '\uD800$\\label{\uDC00}$\uDFFF',
      '|a|b|\n|-|-|\n|$x\\label{cell}$|$$y$$|',
      '[^1]: $\\ref{fn}$\n\n[^1]',
    ];
    for (const text of inputs) {
      const doc = new MarkdownDocument(URI, text);
      for (const b of doc.blocks()) assert.ok(b.start >= 0 && b.start <= b.end && b.end <= text.length, JSON.stringify(text.slice(0, 40)));
      for (const l of doc.labels()) assert.ok(l.start >= 0 && l.end <= text.length);
      doc.refs();
      doc.sections();
      doc.envs();
      doc.problems();
    }
  });

  it('deeply nested markdown does not overflow the stack', () => {
    // remark parses 10,000 nested blockquotes fine; walking the tree must not recurse per level
    const text = '> '.repeat(10_000) + '$x \\label{deep}$\n';
    let doc: MarkdownDocument | undefined;
    assert.doesNotThrow(() => { doc = new MarkdownDocument(URI, text); });
    assert.deepEqual(doc!.labels().map((l) => text.slice(l.start, l.end)), ['deep']);
  });
});

describe('Markdown notes in the workspace', () => {
  const SPEC = `
%! notes/note.md
# Note

$$
E = mc^2 \\label{eq:energy}
$$

By $\\eqref{eq:energy}$ and $\\ref{eq:nowhere}$.
`;

  it('a reference to an undefined label is diagnosed; a defined one is not', () => {
    const fx = fixture(SPEC);
    const doc = fx.doc('notes/note.md');
    assert.equal(doc.kind, 'markdown');
    const diags = computeDiagnostics(fx.ws, doc);
    assert.deepEqual(diags.map((d) => [d.code, d.severity]), [['undefined-ref', 1]]);
    const start = at(doc.text, 'eq:nowhere');
    assert.deepEqual(diags[0].range, doc.range(start, start + 'eq:nowhere'.length));
    assert.match(String(diags[0].message), /eq:nowhere/);
  });

  it('hover, definition and symbols work on notes', () => {
    const fx = fixture(SPEC);
    const doc = fx.doc('notes/note.md');
    const refAt = at(doc.text, 'eq:energy', 1) + 2;
    const h = hover(fx.ws, doc, refAt);
    assert.ok(h);
    const md = (h.contents as MarkupContent).value;
    assert.match(md, /Equation/);
    assert.ok(md.includes('E = mc^2'), md);
    assert.ok(!md.includes('\\label'), md);
    const defs = definition(fx.ws, doc, refAt);
    assert.equal(defs.length, 1);
    assert.deepEqual(defs[0].range, doc.range(at(doc.text, 'eq:energy'), at(doc.text, 'eq:energy') + 'eq:energy'.length));
    const symbols = documentSymbols(fx.ws, doc) as DocumentSymbol[];
    assert.deepEqual(symbols.map((s) => s.name), ['Heading: Note']);
  });
});

// ---- Markdown read as Pandoc reads it (defects: quote markers in math, `$5 … $x$` pairing,
// raw LaTeX outside `$`, YAML front matter) ----

describe('Markdown notes as Pandoc reads them', () => {
  it('math inside a block quote is read without the `>` markers, at the same offsets', () => {
    const text = '# Q\n\n> $$\n> (x+y)^2 = x^2 + 2xy + y^2\n> \\label{eq:sq}\n> $$\n\nSee $\\eqref{eq:sq}$.\n';
    const fx = fixture(`%! q.md\n${text}`);
    const doc = fx.doc('q.md');
    assert.equal(doc.latexText.length, doc.text.length);
    const [display] = doc.envs();
    assert.equal(doc.latexText.slice(display.bodyStart, display.bodyEnd), '\n  (x+y)^2 = x^2 + 2xy + y^2\n  \\label{eq:sq}\n  ');
    assert.equal(doc.text.slice(doc.labels()[0].start, doc.labels()[0].end), 'eq:sq');
    // hover preview
    check((hover(fx.ws, doc, at(doc.text, 'eq:sq}$'))!.contents as MarkupContent).value, expect`
      **Equation** · \`eq:sq\` · q.md:5

      ---

      $$
      (x+y)^2 = x^2 + 2xy + y^2
      $$
    `);
    // the related-equations query
    assert.deepEqual(documentEquations(doc).map((e) => [e.latex.replace(/\s+/g, ' ').trim(), e.label]), [['(x+y)^2 = x^2 + 2xy + y^2 \\label{eq:sq}', 'eq:sq']]);
  });

  it('a wrong step in a block quote is flagged like one at top level, at its place in the text', () => {
    const step = '$$\n\\begin{aligned}\n(a+b)^2 &= a^2 + 2ab + b^2 \\\\\n&= a^2 + 3ab + b^2\n\\end{aligned}\n$$\n';
    const quoted = step.split('\n').map((l) => (l ? `> ${l}` : l)).join('\n');
    const text = `# Q\n\n${quoted}\n${step}\n- ${step.split('\n').join('\n  ').trimEnd()}\n`;
    const fx = fixture(`%! q.md\n${text}`);
    const doc = fx.doc('q.md');
    const diags = derivationDiagnostics(doc, checkWorkspaceDocumentSync(fx.ws, doc, new DerivationChecker()));
    assert.deepEqual(diags.map((d) => `${rangeText(d.range)} ${doc.text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end))}`), [
      '6:6-6:21 a^2 + 3ab + b^2',
      '13:4-13:19 a^2 + 3ab + b^2',
      '20:6-20:21 a^2 + 3ab + b^2',
    ]);
  });

  it('single dollars follow Pandoc: no space inside the delimiters, no digit after the closing one', () => {
    const math = (text: string) => spans(text, new MarkdownDocument(URI, text).inlineMath());
    assert.deepEqual(math('It costs $5, then see $\\ref{eq:one}$ for details.'), ['$\\ref{eq:one}$']);
    assert.deepEqual(math('The cost is $5 and $10 for the book.'), []);
    assert.deepEqual(math('$x$ and $\\ref{a}$, $x^2 + 1$.'), ['$x$', '$\\ref{a}$', '$x^2 + 1$']);
    assert.deepEqual(math('$ x$ and $x $ and $x$5 and $a$.'), ['$a$']);
    assert.deepEqual(math('Escaped \\$ dollars \\$ and $a \\$ b$ with $\\$$ inside.'), ['$a \\$ b$', '$\\$$']);
    assert.deepEqual(math('No math across a paragraph break: $a\n\nb$ but $a\nb$ within one.'), ['$a\nb$']);
    // `$$z$$` in a line is display math, as Pandoc reads it
    assert.deepEqual(math('Code `$x$` and\n\n```\necho $HOME $x$\n```\n\nthen $y$ and $$z$$.'), ['$y$']);
    // the reference after a price is found and checked
    const fx = fixture('%! n.md\nIt costs $5, then see $\\ref{eq:one}$ for details.\n\n$$ x^2 - 1 = (x-1)(x+1) \\label{eq:one} $$\n');
    const doc = fx.doc('n.md');
    assert.deepEqual(doc.refs().map((r) => r.name), ['eq:one']);
    assert.deepEqual(computeDiagnostics(fx.ws, doc), []);
  });

  it('double dollars follow Pandoc: a display runs to the next `$$` wherever the two stand', () => {
    const note = String.raw`# Shapes

A display opened on a line of its own text:
$$f(n) = \begin{cases} 0 & n = 0 \\
  f(n-1) + 1 & n > 0 \end{cases} \label{eq:f}$$
where $n$ is a natural number.

A fence closed right before the next sentence:
$$
g(a) = \begin{cases} 1 & \text{if $a$ is odd} \\ 0 & \text{otherwise} \end{cases}
$$
where $a$ is an integer, and in a line: $$h(x)=x x 01$$ for every $x$.

> $$q = 1
> + 1$$ in a quote.

A fence with a blank line inside, as remark-math reads it:

$$
a = b

c = d
$$

An unclosed $$ is text, and so is $5.
`;
    const doc = new MarkdownDocument(URI, note);
    const displays = doc.envs().filter((e) => e.name === '$$').map((e) => doc.text.slice(e.start, e.end).replace(/\s+/g, ' '));
    check(displays.join('\n'), expect`
      $$f(n) = \begin{cases} 0 & n = 0 \\ f(n-1) + 1 & n > 0 \end{cases} \label{eq:f}$$
      $$ g(a) = \begin{cases} 1 & \text{if $a$ is odd} \\ 0 & \text{otherwise} \end{cases} $$
      $$h(x)=x x 01$$
      $$q = 1 > + 1$$
      $$ a = b c = d $$
    `);
    assert.deepEqual(spans(note, doc.inlineMath()), ['$n$', '$a$', '$x$']);
    assert.deepEqual(doc.labels().map((l) => l.name), ['eq:f']);
    assert.deepEqual(doc.blocks().flatMap((b) => b.facts.problems), []);
    assert.equal(doc.latexText.length, note.length);
  });

  it('MyST notes: a line starting with % is a comment, its math is no display', () => {
    const note = '# Rates\n\n```{math}\n:label: eq-r\nr = 1\n```\n\n%We start from\n\n%$$\n%b_0 = 1\n%$$\n\nThen $x$.\n';
    const doc = new MarkdownDocument(URI, note);
    assert.deepEqual(doc.envs().filter((e) => e.name === '$$').length, 0);
    assert.deepEqual(doc.blocks().flatMap((b) => b.facts.problems), []);
    assert.deepEqual(spans(note, doc.inlineMath()), ['$x$']);
    // without MyST signs a `%` line is text, as Pandoc reads it
    const plain = new MarkdownDocument(URI, '# Rates\n\n%$$\nb = 1\n%$$\n');
    assert.equal(plain.envs().filter((e) => e.name === '$$').length, 1);
  });

  it('raw LaTeX outside $…$ (environments, \\label, \\ref) is read as in .tex, not in code', () => {
    const note = String.raw`# Note

\begin{theorem}[Pythagoras]\label{thm:pyth}
For a right triangle $a^2+b^2=c^2$, which costs $5.
\end{theorem}

\begin{lemma}\label{lem:two}
A statement over two paragraphs.

$$
(a+b)^2 = a^2 + 2ab + b^2 \label{eq:binom}
$$

\end{lemma}

By Theorem $\ref{thm:pyth}$, Lemma \ref{lem:two} and \eqref{eq:binom}; \cref{nowhere}.

` + '`\\ref{in:code}` and\n\n```latex\n\\label{fenced} \\ref{fenced:ref}\n```\n';
    const fx = fixture(`%! n.md\n${note}`);
    const doc = fx.doc('n.md');
    assert.deepEqual(doc.labels().map((l) => [l.name, note.slice(l.start, l.end)]), [['thm:pyth', 'thm:pyth'], ['lem:two', 'lem:two'], ['eq:binom', 'eq:binom']]);
    assert.deepEqual(doc.refs().map((r) => r.name), ['thm:pyth', 'lem:two', 'eq:binom', 'nowhere']);
    assert.deepEqual(computeDiagnostics(fx.ws, doc).map((d) => `${rangeText(d.range)} ${d.code}`), ['16:78-16:85 undefined-ref']);
    check((hover(fx.ws, doc, at(note, 'thm:pyth', 1))!.contents as MarkupContent).value, expect`
      **Theorem** (Pythagoras) · \`thm:pyth\` · n.md:3

      ---

      For a right triangle $a^2+b^2=c^2$, which costs \$5.
    `);
    assert.match((hover(fx.ws, doc, at(note, '\\eqref') + 2)!.contents as MarkupContent).value, /^\*\*Equation\*\* · `eq:binom`/);
    assert.deepEqual(definition(fx.ws, doc, at(note, 'lem:two', 1)).map((l) => rangeText(l.range)), ['7:21-7:28']);
    const symbols = documentSymbols(fx.ws, doc) as DocumentSymbol[];
    assert.deepEqual(symbols.map((s) => [s.name, (s.children ?? []).map((c) => c.name)]), [['Heading: Note', ['Theorem (Pythagoras)', 'Lemma']]]);
  });

  it('YAML front matter is skipped: no heading, no math', () => {
    const text = '---\ntitle: "Notes on $x$"\ntags: [math]\nprice: $5 \\ref{zz}\n---\n\n# Real $y$\n\n---\n\nBelow a rule $z$.\n';
    const doc = new MarkdownDocument(URI, text);
    assert.deepEqual(doc.sections().map((s) => s.title), ['Real $y$']);
    assert.deepEqual(spans(text, doc.inlineMath()), ['$y$', '$z$']);
    assert.deepEqual(doc.refs(), []);
    // only at the very start, and only when closed
    const late = new MarkdownDocument(URI, '\n---\ntitle: $x$\n---\n');
    assert.deepEqual(spans(late.text, late.inlineMath()), ['$x$']);
    const open = new MarkdownDocument(URI, '---\n$x$ text\n');
    assert.deepEqual(spans(open.text, open.inlineMath()), ['$x$']);
  });
});
