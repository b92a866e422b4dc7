// The author's library in the related-equations search and its lens: a paper's displays are
// analysed when the library is indexed (under the paper's own macros), found beside the
// workspace's, confirmed "the same" by reading them under those macros, named as the paper
// prints them, and cited; a display of a file the workspace has open is the workspace's hit.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixture } from '../../testing/fixture.js';
import { EquationAnalyses } from '../../index/equationAnalyses.js';
import { WorkspaceEquations } from '../../index/workspaceEquations.js';
import { documentEquations } from '../../analysis/equationSites.js';
import { indexLibrary, LoadedLibrary } from '../../index/library/libraryStore.js';
import { MathTokenizer } from '../../embeddings/tokenizer.js';
import { vocabFile } from '../../testing/modelPaths.js';
import { findRelatedEquations, type RelatedContext } from './relatedEquations.js';
import { lensSummary, lensTitle, relationsOf, withCounted } from './equationLenses.js';
import { pathToUri } from '../../project/files.js';
import { Workspace } from '../../project/workspace.js';

const PAPER = String.raw`\documentclass{amsart}
\newcommand{\sq}[1]{{#1}^{2}}
\title{Squares of sums}
\begin{document}
\section{Squares}
The square of a sum:
\begin{equation}\label{eq:para}
\sq{(u+v)} = \sq{u} + 2uv + \sq{v}
\end{equation}
and a display without a label
\[
  x^2 - 5x + 6 = 0 .
\]
\end{document}
`;

const SPEC = String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{equation}\label{eq:mine}
(a+b)^2 = a^2 + 2ab + b^2
\end{equation}
\begin{align}
a &= b \\
2 t^2 - 10 t &= -12 \label{eq:row}
\end{align}
\end{document}
`;

async function libraryOf(papers: Record<string, string>): Promise<{ dir: string; lib: LoadedLibrary }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-libeq-'));
  for (const [f, t] of Object.entries(papers)) { fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true }); fs.writeFileSync(path.join(dir, f), t); }
  const store = path.join(dir, '.store');
  await indexLibrary(dir, store, MathTokenizer.load(vocabFile), undefined);
  const lib = LoadedLibrary.load(store);
  assert.ok(lib instanceof LoadedLibrary);
  return { dir, lib };
}

function context(f: ReturnType<typeof fixture>, dir: string, lib: LoadedLibrary): RelatedContext {
  return { ws: f.ws, equations: new WorkspaceEquations(new EquationAnalyses()), library: () => [{ folder: dir, equations: lib.equations() }] };
}

describe('library equations in the related-equations search', () => {
  it('indexing keeps every display with its features and the paper\'s macros', async () => {
    const { dir, lib } = await libraryOf({ 'p/main.tex': PAPER, 'p/main.aux': '\\newlabel{eq:para}{{2.1}{3}}\n' });
    try {
      const { displays } = lib.equations();
      assert.deepEqual(displays.map((d) => [d.display.file, d.display.line, d.display.label ?? null, d.display.number ?? null]), [[path.join('p', 'main.tex'), 7, 'eq:para', '2.1'], [path.join('p', 'main.tex'), 11, null, null]]);
      assert.ok(displays[0].display.f.identity, 'read under \\sq, the square of a sum is an identity');
      assert.deepEqual(displays[0].macros.map((m) => m.name), ['sq']);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });

  it('a workspace display finds the paper\'s, confirmed the same under the paper\'s macros; the lens names it as the paper prints it; it cites the paper', async () => {
    const { dir, lib } = await libraryOf({ 'p/main.tex': PAPER, 'p/main.aux': '\\newlabel{eq:para}{{2.1}{3}}\n' });
    try {
      const f = fixture(SPEC);
      const ctx = context(f, dir, lib);
      const doc = f.doc('main.tex');
      const mine = documentEquations(doc).find((s) => s.label === 'eq:mine')!;
      const r = await findRelatedEquations(ctx, { doc, site: mine }, { waitMs: 5000 });
      const hit = r.results.find((x) => x.source === 'library')!;
      assert.ok(hit, JSON.stringify(r.results.map((x) => x.source)));
      assert.equal(hit.same, true);
      assert.equal(hit.title, 'Equation (2.1)');
      assert.equal(hit.paper, 'Squares of sums');
      assert.equal(hit.uri, pathToUri(path.join(dir, 'p', 'main.tex')));
      assert.equal(hit.line, 7);
      assert.deepEqual(hit.cite, { folder: dir, paper: path.join('p', 'main.tex'), file: path.join('p', 'main.tex'), line: 7 });
      assert.match(hit.display, /\{\(u\+v\)\}\^\{2\}/, 'rendered with the paper\'s macros written out');
      assert.equal(lensTitle(r), 'Same as Equation (2.1) in Squares of sums');
      assert.ok(withCounted(r).results.find((x) => x.source === 'library')!.counted);
      // a citation goes after the query's display
      assert.deepEqual(r.query.after, doc.positionAt(mine.end));
      // a labelled row: the unlabelled display of the paper; its citation goes after the whole alignment
      const row = documentEquations(doc).find((s) => s.label === 'eq:row')!;
      const r2 = await findRelatedEquations(ctx, { doc, site: row }, { waitMs: 5000 });
      const hit2 = r2.results.find((x) => x.source === 'library')!;
      assert.equal(hit2.title, 'Equation');
      assert.equal(hit2.line, 11);
      assert.equal(hit2.same, true);
      assert.equal(doc.offsetAt(r2.query.after!), doc.text.indexOf('\\end{align}') + '\\end{align}'.length);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });

  it('a display of a library file the workspace has open is the workspace\'s, not listed twice; a library without the equation says nothing', async () => {
    const { dir, lib } = await libraryOf({ 'main.tex': SPEC.replace(/^[\s\S]*?%! main.tex\n/, '') });
    try {
      const f = fixture(SPEC);
      // the workspace's main.tex is the library's file
      const ws = new Workspace();
      const open = ws.loadFile(path.join(dir, 'main.tex'))!;
      const ctx: RelatedContext = { ws, equations: new WorkspaceEquations(new EquationAnalyses()), library: () => [{ folder: dir, equations: lib.equations() }] };
      const site = documentEquations(open).find((s) => s.label === 'eq:mine')!;
      const r = await findRelatedEquations(ctx, { doc: open, site }, { waitMs: 5000 });
      assert.ok(r.results.every((x) => x.source !== 'library'), JSON.stringify(r.results.map((x) => [x.source, x.file, x.line])));
      // a library paper opened in the editor (from a peek), outside the project: its displays stay the library's, none is "this project"
      const project = fixture(SPEC);
      project.ws.open(pathToUri(path.join(dir, 'main.tex')), 'latex', 1, fs.readFileSync(path.join(dir, 'main.tex'), 'utf8'));
      const inProject = (uri: string) => !uri.startsWith(pathToUri(dir));
      const pctx: RelatedContext = { ws: project.ws, equations: new WorkspaceEquations(new EquationAnalyses()), library: () => [{ folder: dir, equations: lib.equations() }], inProject };
      const pdoc = project.doc('main.tex');
      const fromProject = await findRelatedEquations(pctx, { doc: pdoc, site: documentEquations(pdoc).find((s) => s.label === 'eq:mine')! }, { waitMs: 5000 });
      assert.ok(fromProject.results.every((x) => !(x.source === 'workspace' && x.uri?.startsWith(pathToUri(dir)))), JSON.stringify(fromProject.results.map((x) => [x.source, x.uri])));
      assert.ok(fromProject.results.some((x) => x.source === 'library' && x.same), JSON.stringify(fromProject.results.map((x) => [x.source, x.uri])));
      const other = await libraryOf({ 'q.tex': '\\documentclass{article}\\begin{document}\\[ \\int_0^1 x\\,dx = \\tfrac12 \\]\\end{document}\n' });
      try {
        const doc = f.doc('main.tex');
        const none = await findRelatedEquations(context(f, other.dir, other.lib), { doc, site: documentEquations(doc).find((s) => s.label === 'eq:mine')! }, { waitMs: 5000 });
        assert.ok(none.results.every((x) => x.source !== 'library' || !x.same));
        assert.doesNotMatch(lensTitle(none), /library/);
      } finally { fs.rmSync(other.dir, { recursive: true, force: true }); }
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });
});

describe('the lens and library displays of the same shape', () => {
  it('a library display is close only with the query\'s relations in order (not those of limits and indices; `:=` is `=`, `<` and `\\le` one direction)', () => {
    assert.equal(relationsOf(String.raw`f(x) \coloneqq \sum_{n \geq 0} a_n x^n`), '=');
    assert.equal(relationsOf(String.raw`\lim_{x \to c} f(x) \le g(x) = 1`), '<=');
    assert.equal(relationsOf(String.raw`r_1 m_1 + \cdots + r_k m_k`), '');
    const query = { latex: String.raw`\sum_{n=1}^k x_n \leq \sum_{n=1}^k y_n + c`, canonical: 'sum ( n = 1 ) ^ k x _ n \\leq sum ( n = 1 ) ^ k y _ n + c' };
    const hit = (latex: string, source: 'library' | 'workspace') => ({ latex, display: latex, score: 0.5, why: { structure: 0.95 }, source, uri: 'file:///x.tex', file: '/x.tex', line: 1, ...(source === 'library' ? { title: 'Equation', paper: 'P' } : {}) });
    const r = { query, results: [hit(String.raw`\sum_{i=1}^m r_i = \sum_{i=1}^m s_i + d`, 'library'), hit(String.raw`\sum_{i=1}^m r_i \le \sum_{i=1}^m s_i + d`, 'library')], encoder: false, pending: 0 };
    assert.equal(lensTitle(r), 'Close: 1 in your library');
    assert.equal(lensSummary(r).closeHits[0].latex, r.results[1].latex);
  });
});
