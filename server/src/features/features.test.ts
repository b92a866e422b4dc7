import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { DocumentSymbol, MarkupContent } from 'vscode-languageserver';
import { fixture, type Fixture } from '../testing/fixture.js';
import { assertSnapshot, rangeText } from '../testing/snapshot.js';
import { hover } from './hover.js';
import { definition, findReferences, prepareRename, rename } from './navigation.js';
import { completion, resolveCompletion } from './completion.js';
import { documentSymbols, workspaceSymbols } from './symbols.js';
import { computeDiagnostics } from './diagnostics.js';

const PROJECT = `
%! main.tex
\\documentclass{article}
\\newtheorem{theorem}{Theorem}
\\theoremstyle{definition}
\\newtheorem{definition}[theorem]{Definition}
\\begin{document}
\\input{sec1}
\\input{sec2}
\\end{document}
%! sec1.tex
\\section{Intro}\\label{sec:intro}
\\begin{definition}[Group]\\label{def:group}
A \\emph{group} is a set $G$ with an associative operation.
\\end{definition}
\\begin{theorem}[Lagrange]\\label{thm:lagrange}
If $H \\le G$ then $|H|$ divides $|G|$:
\\[ |G| = [G:H]\\,|H|. \\]
\\end{theorem}
\\begin{proof}Cosets partition $G$.\\end{proof}
\\begin{align}
a &= b \\label{eq:one}\\\\
b &= c \\label{eq:two}
\\end{align}
%! sec2.tex
\\section{Use}
By \\cref{thm:lagr<|>ange} and \\eqref{eq:two}, see \\ref{def:group}.
`;

function withFixture(spec: string, f: (fx: Fixture) => void): void {
  const fx = fixture(spec);
  try {
    f(fx);
  } finally {
    fx.cleanup();
  }
}

const value = (h: ReturnType<typeof hover>): string => (h!.contents as MarkupContent).value;

test('hover on a reference shows the theorem with its title and rendered statement', () => {
  withFixture(PROJECT, ({ ws, cursor }) => {
    assertSnapshot(value(hover(ws, cursor!.doc, cursor!.offset)), `
      **Theorem** (Lagrange) · \`thm:lagrange\` · sec1.tex:5

      ---

      If $H \\le G$ then $|H|$ divides $|G|$:

      $$
      |G| = [G:H]\\,|H|.
      $$
    `);
  });
});

test('hover on \\eqref shows just the labelled row', () => {
  withFixture(PROJECT.replace('\\eqref{eq:two}', '\\eqref{eq:t<|>wo}').replace('lagr<|>ange', 'lagrange'), ({ ws, cursor }) => {
    assertSnapshot(value(hover(ws, cursor!.doc, cursor!.offset)), `
      **Equation** · \`eq:two\` · sec1.tex:12

      ---

      $$
      \\begin{aligned}
      b &= c
      \\end{aligned}
      $$
    `);
  });
});

test('hover on a label reports what it labels and its reference count', () => {
  withFixture(PROJECT.replace('lagr<|>ange', 'lagrange').replace('\\label{def:group}', '\\label{def:gr<|>oup}'), ({ ws, cursor }) => {
    const v = value(hover(ws, cursor!.doc, cursor!.offset));
    assert.match(v, /^\*\*Definition\*\* \(Group\) · `def:group`/);
    assert.match(v, /A \*group\* is a set \$G\$/);
    assert.match(v, /\*Referenced 1 time\*$/);
  });
});

test('definition and references across files', () => {
  withFixture(PROJECT, ({ ws, cursor }) => {
    const defs = definition(ws, cursor!.doc, cursor!.offset);
    assert.deepEqual(defs.map((l) => `${path.basename(l.uri)} ${rangeText(l.range)}`), ['sec1.tex 5:33-5:45']);
    const refs = findReferences(ws, cursor!.doc, cursor!.offset, true);
    assert.deepEqual(refs.map((l) => `${path.basename(l.uri)} ${rangeText(l.range)}`).sort(), ['sec1.tex 5:33-5:45', 'sec2.tex 2:10-2:22']);
    assert.equal(findReferences(ws, cursor!.doc, cursor!.offset, false).length, 1);
  });
});

test('definition on an \\input path opens the file', () => {
  withFixture(PROJECT.replace('lagr<|>ange', 'lagrange').replace('\\input{sec1}', '\\input{se<|>c1}'), ({ ws, cursor }) => {
    const defs = definition(ws, cursor!.doc, cursor!.offset);
    assert.deepEqual(defs.map((l) => path.basename(l.uri)), ['sec1.tex']);
  });
});

test('completion inside \\ref{ offers labels with their kinds, preview on resolve', () => {
  withFixture(PROJECT.replace('lagr<|>ange', 'lagrange').replace('see \\ref{def:group}', 'see \\cref{eq:one,th<|>}'), ({ ws, cursor }) => {
    const list = completion(ws, cursor!.doc, cursor!.offset)!;
    const rows = list.items.map((i) => `${i.label} — ${i.detail}`).sort();
    assertSnapshot(rows.join('\n'), `
      def:group — Definition (Group)
      eq:one — Equation
      eq:two — Equation
      sec:intro — Section (Intro)
      thm:lagrange — Theorem (Lagrange)
    `);
    const item = list.items.find((i) => i.label === 'thm:lagrange')!;
    assert.equal(rangeText((item.textEdit as { range: Parameters<typeof rangeText>[0] }).range), '2:61-2:63');
    const resolved = resolveCompletion(ws, item);
    assert.match((resolved.documentation as MarkupContent).value, /sec1\.tex:5[\s\S]*\$\|H\|\$ divides/);
  });
});

test('no completion outside reference commands', () => {
  withFixture(PROJECT.replace('lagr<|>ange', 'lagrange').replace('\\section{Use}', '\\section{U<|>se}'), ({ ws, cursor }) => {
    assert.equal(completion(ws, cursor!.doc, cursor!.offset), null);
  });
});

test('rename a label updates the definition and every reference', () => {
  withFixture(PROJECT, ({ ws, cursor }) => {
    assert.equal(prepareRename(ws, cursor!.doc, cursor!.offset)!.placeholder, 'thm:lagrange');
    const edit = rename(ws, cursor!.doc, cursor!.offset, 'thm:cosets')!;
    const lines = Object.entries(edit.changes!).flatMap(([uri, edits]) => edits.map((e) => `${path.basename(uri)} ${rangeText(e.range)} ${e.newText}`)).sort();
    assert.deepEqual(lines, ['sec1.tex 5:33-5:45 thm:cosets', 'sec2.tex 2:10-2:22 thm:cosets']);
    assert.throws(() => rename(ws, cursor!.doc, cursor!.offset, 'bad name'), /not a valid label name/);
  });
});

test('document symbols nest theorem-like environments under sections', () => {
  withFixture(PROJECT, ({ ws, doc }) => {
    const render = (s: DocumentSymbol, depth = 0): string[] => [
      `${'  '.repeat(depth)}${s.name}${s.detail ? ` [${s.detail}]` : ''}`,
      ...(s.children ?? []).flatMap((c) => render(c, depth + 1)),
    ];
    assertSnapshot(documentSymbols(ws, doc('sec1.tex')).flatMap((s) => render(s)).join('\n'), `
      Section: Intro [sec:intro]
        Definition (Group) [def:group]
        Theorem (Lagrange) [thm:lagrange]
    `);
  });
});

test('workspace symbols search titles and labels', () => {
  withFixture(PROJECT, ({ ws }) => {
    assert.deepEqual(workspaceSymbols(ws, 'lagrange').map((s) => `${s.name} ${s.containerName}`), ['Theorem (Lagrange) thm:lagrange']);
    assert.deepEqual(workspaceSymbols(ws, 'intro').map((s) => s.name), ['Section: Intro']);
  });
});

test('diagnostics: undefined and duplicate labels; unused labels only when enabled', () => {
  withFixture(PROJECT.replace('lagr<|>ange', 'lagrange') + 'See \\ref{nope}.\n\\label{sec:intro}\n', ({ ws, doc }) => {
    const render = (d: ReturnType<typeof computeDiagnostics>) => d.map((x) => `${rangeText(x.range)} ${x.severity} ${x.code}: ${x.message}`);
    assert.deepEqual(render(computeDiagnostics(ws, doc('sec2.tex'))), [
      '3:10-3:14 1 undefined-ref: Undefined reference: no \\label{nope} in this project',
      '4:8-4:17 1 duplicate-label: Duplicate label \'sec:intro\' (also at sec1.tex:1)',
    ]);
    const unused = computeDiagnostics(ws, doc('sec1.tex'), { unusedLabels: true, structure: true })
      .filter((d) => d.code === 'unused-label').map((d) => d.message);
    assert.deepEqual(unused, ["Label 'sec:intro' is never referenced", "Label 'eq:one' is never referenced"]);
    assert.equal(computeDiagnostics(ws, doc('sec1.tex')).filter((d) => d.code === 'unused-label').length, 0);
  });
});

test('diagnostics: an \\iffalse … \\fi block is dead text, its \\else branch is not', () => {
  const src = PROJECT.replace('lagr<|>ange', 'lagrange')
    + '\\iffalse\n\\label{sec:intro} \\ref{old:gone}\n\\ifx\\a\\b \\ref{nested} \\fi\n\n\\begin{theorem}never closed\n\\fi\n'
    + '\\iffalse kept out \\else See \\ref{live:missing}.\\fi\n';
  withFixture(src, ({ ws, doc }) => {
    assert.deepEqual(computeDiagnostics(ws, doc('sec2.tex')).map((d) => `${d.code}: ${d.message}`), [
      'undefined-ref: Undefined reference: no \\label{live:missing} in this project',
    ]);
  });
});

test('diagnostics: an \\input or \\include whose file is missing is a warning; paths built from macros are left alone', () => {
  const src = PROJECT.replace('lagr<|>ange', 'lagrange').replace('\\input{sec2}', '\\input{sec2}\n\\include{chaptr2}\n\\input{\\chapters/x}');
  withFixture(src, ({ ws, doc }) => {
    assert.deepEqual(computeDiagnostics(ws, doc('main.tex')).map((d) => `${rangeText(d.range)} ${d.severity} ${d.code}: ${d.message}`), [
      '8:10-8:17 2 missing-include: File not found: chaptr2 (looked beside this file and up to 3 folders up); its labels and contents are unknown',
    ]);
  });
});

// ---- rename onto an existing label (defect: it merged two labels' references) ----

test('rename refuses a new name that is already a label of the project, through xr prefixes too', () => {
  const src = PROJECT + `%! other.tex
\\documentclass{article}
\\begin{document}
\\section{Elsewhere}\\label{sec:elsewhere}
\\end{document}
`;
  withFixture(src, ({ ws, cursor }) => {
    const { doc, offset } = cursor!;
    assert.throws(() => rename(ws, doc, offset, 'def:group'), /label 'def:group' already exists in this project \(sec1\.tex:2\)/);
    assert.throws(() => rename(ws, doc, offset, 'eq:two'), /already exists/);
    // a label of an unrelated project (its own \documentclass) is not in the way
    assert.ok(rename(ws, doc, offset, 'sec:elsewhere'));
    // nor is the label itself (renaming to the same name changes nothing)
    assert.ok(rename(ws, doc, offset, 'thm:lagrange'));
  });
  withFixture(`
%! algebra.tex
\\documentclass{amsart}
\\begin{document}
\\begin{lemma}\\label{lemma-n<|>ak}Nakayama.\\end{lemma}
\\begin{lemma}\\label{lemma-other}Other.\\end{lemma}
\\end{document}
%! schemes.tex
\\documentclass{amsart}
\\usepackage{xr-hyper}
\\externaldocument[algebra-]{algebra}
\\begin{document}
\\begin{lemma}\\label{lemma-local}Local.\\end{lemma}
By \\ref{algebra-lemma-nak} and \\ref{lemma-local}.
\\end{document}
`, ({ ws, cursor, doc }) => {
    const { doc: algebra, offset } = cursor!;
    assert.throws(() => rename(ws, algebra, offset, 'lemma-other'), /'lemma-other' already exists in this project \(algebra\.tex:4\)/);
    // schemes' own label-local is another project: schemes' reference becomes algebra-lemma-local
    const edit = rename(ws, algebra, offset, 'lemma-local')!;
    assert.deepEqual(Object.values(edit.changes!).flat().map((e) => e.newText).sort(), ['algebra-lemma-local', 'lemma-local']);
    // a schemes label renamed to a name its project sees through the xr prefix
    const schemes = doc('schemes.tex');
    const at = schemes.text.indexOf('lemma-local}') + 2;
    assert.throws(() => rename(ws, schemes, at, 'algebra-lemma-other'), /'algebra-lemma-other' already exists in this project \(algebra\.tex:4\)/);
    assert.ok(rename(ws, schemes, at, 'lemma-fresh'));
  });
});

// ---- what counts as a reference under the cursor (defect: block-relative command offsets) ----

test('only the command name and the key of a reference are the reference, in any block', () => {
  const src = `
%! doc.tex
\\documentclass{article}
\\begin{document}
\\section{One}
\\begin{equation}\\label{eq:a} x = 1 \\end{equation}

\\ref{eq:a} is here and \\eqref{eq:a}.
\\end{document}
`;
  withFixture(src, ({ ws, doc: get }) => {
    const doc = get('doc.tex');
    const text = doc.text;
    const show = (needle: string, k: number): string => {
      const o = text.indexOf(needle) + k;
      const h = hover(ws, doc, o);
      const p = prepareRename(ws, doc, o);
      const d = definition(ws, doc, o);
      return `${needle}+${k}: hover ${h ? rangeText(h.range!) : 'null'}, rename ${p ? rangeText(p.range) : 'null'}, definition ${d.map((l) => rangeText(l.range)).join(',') || 'none'}`;
    };
    assertSnapshot([
      show('\\documentclass', 2), show('\\section', 3), show('\\ref{', 0), show('\\ref{', 2), show('\\ref{', 4),
      show('eq:a} is', 2), show(' is here', 2), show('\\eqref', 2), show('\\eqref{', 7), show('}.', 1),
    ].join('\n'), `
      \\documentclass+2: hover null, rename null, definition none
      \\section+3: hover null, rename null, definition none
      \\ref{+0: hover 6:6-6:10, rename 6:6-6:10, definition 4:24-4:28
      \\ref{+2: hover 6:6-6:10, rename 6:6-6:10, definition 4:24-4:28
      \\ref{+4: hover 6:6-6:10, rename 6:6-6:10, definition 4:24-4:28
      eq:a} is+2: hover 6:6-6:10, rename 6:6-6:10, definition 4:24-4:28
       is here+2: hover null, rename null, definition none
      \\eqref+2: hover 6:31-6:35, rename 6:31-6:35, definition 4:24-4:28
      \\eqref{+7: hover 6:31-6:35, rename 6:31-6:35, definition 4:24-4:28
      }.+1: hover null, rename null, definition none
    `);
  });
});

test('in a Markdown note (every math node its own block) a heading is not a reference', () => {
  const src = `
%! q.md
# Q

$$
(x+y)^2 = x^2 + 2xy + y^2 \\label{eq:sq}
$$

See $\\eqref{eq:sq}$.
`;
  withFixture(src, ({ ws, doc: get }) => {
    const doc = get('q.md');
    assert.equal(hover(ws, doc, 1), null);
    assert.equal(prepareRename(ws, doc, 2), null);
    const eqref = doc.text.indexOf('\\eqref') + 2;
    assert.equal(rangeText(hover(ws, doc, eqref)!.range!), '7:13-7:18');
    assert.equal(prepareRename(ws, doc, eqref)!.placeholder, 'eq:sq');
  });
});
