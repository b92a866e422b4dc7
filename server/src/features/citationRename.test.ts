// Renaming a citation key on fixtures: from a \cite (the .bib entry and every citation of it,
// in every project that reads that .bib, not in a project whose own .bib has the same key),
// from the entry's key in an open .bib file, \bibitem keys, and the refusals.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkspaceEdit } from 'vscode-languageserver';
import { fixture } from '../testing/fixture.js';
import { rangeText } from '../testing/snapshot.js';
import { pathToUri } from '../project/files.js';
import { bibRename, citeRename, prepareBibRename, prepareCiteRename } from './citationRename.js';
import { bibReferences } from './citations.js';
import { RenameError } from './navigation.js';

const PROJECTS = String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\input{sec}
\bibliography{refs}
\end{document}
%! sec.tex
As in \cite[p.~3]{euclid} and \citep{hartshorne, eucl<|>id}, \textcite{nowhere}.
%! other.tex
\documentclass{article}
\begin{document}
Also \cite{euclid}.
\bibliography{refs}
\end{document}
%! own/paper.tex
\documentclass{article}
\begin{document}
Not the same entry: \cite{euclid}.
\bibliography{mine}
\end{document}
`;

const REFS = '@article{euclid,\n  title = {Elements},\n  year = {300},\n}\n@book{hartshorne,\n  title = {Algebraic Geometry},\n}\n';

/** The edits as `file range`, sorted. */
const show = (e: WorkspaceEdit | null | undefined) => Object.entries(e?.changes ?? {}).flatMap(([uri, edits]) => edits.map((t) => `${path.relative(dirOf(uri), uri)} ${rangeText(t.range)} ${t.newText}`)).sort();
let dirOf = (_uri: string) => '';

function withProjects(run: (fx: ReturnType<typeof fixture>) => void): void {
  const fx = fixture(PROJECTS);
  try {
    fs.writeFileSync(path.join(fx.dir, 'refs.bib'), REFS);
    fs.writeFileSync(path.join(fx.dir, 'own', 'mine.bib'), '@misc{euclid, title = {Another Euclid}}\n');
    dirOf = () => pathToUri(fx.dir);
    run(fx);
  } finally {
    fx.cleanup();
  }
}

test('rename a \\cite key: the .bib entry and its citations in every project reading that .bib, not a same-named entry elsewhere', () => {
  withProjects((fx) => {
    const { doc, offset } = fx.cursor!;
    const prep = prepareCiteRename(fx.ws, doc, offset)!;
    assert.equal(prep.placeholder, 'euclid');
    assert.equal(rangeText(prep.range), '1:50-1:56');
    assert.deepEqual(show(citeRename(fx.ws, doc, offset, 'euclid300')), [
      'other.tex 3:12-3:18 euclid300',
      'refs.bib 1:10-1:16 euclid300',
      'sec.tex 1:19-1:25 euclid300',
      'sec.tex 1:50-1:56 euclid300',
    ]);
    // from the other project's own entry: only its file and citation
    const paper = fx.doc('own/paper.tex');
    assert.deepEqual(show(citeRename(fx.ws, paper, paper.text.indexOf('euclid'), 'euclid2')), ['own/mine.bib 1:7-1:13 euclid2', 'own/paper.tex 3:27-3:33 euclid2']);
  });
});

test('rename refuses a key that already names an entry or is not a valid key; undefined keys are not renamed', () => {
  withProjects((fx) => {
    const { doc, offset } = fx.cursor!;
    assert.throws(() => citeRename(fx.ws, doc, offset, 'hartshorne'), (e: Error) => e instanceof RenameError && /an entry 'hartshorne' already exists \(refs\.bib:5\)/.test(e.message));
    for (const bad of ['two words', 'a,b', 'x{y}', '']) assert.throws(() => citeRename(fx.ws, doc, offset, bad), RenameError, bad);
    const nowhere = doc.text.indexOf('nowhere');
    assert.equal(prepareCiteRename(fx.ws, doc, nowhere), undefined);
    assert.equal(citeRename(fx.ws, doc, nowhere, 'somewhere'), undefined);
    // off any key: nothing (the label rename gets its turn)
    assert.equal(prepareCiteRename(fx.ws, doc, 0), undefined);
  });
});

test('rename from the entry key of an open .bib file; \\bibitem keys rename with their citations', () => {
  withProjects((fx) => {
    const bib = path.join(fx.dir, 'refs.bib');
    // read once through a document (as the server does), then opened in the editor
    prepareCiteRename(fx.ws, fx.doc('sec.tex'), fx.cursor!.offset);
    fx.ws.bibs.openDocument(bib, pathToUri(bib), 1, REFS);
    assert.equal(prepareBibRename(fx.ws, bib, { line: 0, character: 12 })?.placeholder, 'euclid');
    assert.equal(prepareBibRename(fx.ws, bib, { line: 1, character: 4 }), null);
    assert.deepEqual(show(bibRename(fx.ws, bib, { line: 4, character: 8 }, 'hart77')), ['refs.bib 5:7-5:17 hart77', 'sec.tex 1:38-1:48 hart77']);
    // find references from the entry: the citations in both projects reading refs.bib
    const refs = bibReferences(fx.ws, bib, { line: 0, character: 9 }, true).map((l) => `${path.basename(l.uri)} ${rangeText(l.range)}`);
    assert.deepEqual(refs.sort(), ['other.tex 3:12-3:18', 'refs.bib 1:10-1:16', 'sec.tex 1:19-1:25', 'sec.tex 1:50-1:56']);
  });
  const fx = fixture(String.raw`
%! paper.tex
See \cite{ahl} and \cite{<|>ahl,b}.
\begin{thebibliography}{9}
\bibitem[Ahl]{ahl} L. Ahlfors, \emph{Complex Analysis}, 1953.
\bibitem{b} B.
\end{thebibliography}
`);
  try {
    const { doc, offset } = fx.cursor!;
    const edits = citeRename(fx.ws, doc, offset, 'ahlfors53')!.changes![doc.uri].map((t) => rangeText(t.range));
    assert.deepEqual(edits, ['3:15-3:18', '1:11-1:14', '1:26-1:29']);
    assert.throws(() => citeRename(fx.ws, doc, offset, 'b'), /an entry 'b' already exists \(paper\.tex:4\)/);
  } finally {
    fx.cleanup();
  }
});

test('rename and find references reach the crossref, xdata and related fields that name the entry, not a @string macro or another key', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\cite{<|>proc} and \cite{talk}.
\bibliography{refs}
\end{document}
`);
  try {
    const bib = [
      '@string{proc = {Proceedings}}',
      '@proceedings{proc, title = proc}',
      '@inproceedings{talk, title = {A talk},',
      '  crossref = {proc}, xdata = {proc, procx},',
      '  related = "procx,proc", note = {proc}}',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(fx.dir, 'refs.bib'), bib);
    const { doc, offset } = fx.cursor!;
    dirOf = () => pathToUri(fx.dir);
    prepareCiteRename(fx.ws, doc, offset);
    assert.deepEqual(show(citeRename(fx.ws, doc, offset, 'icm2026')), [
      'main.tex 3:7-3:11 icm2026',
      'refs.bib 2:14-2:18 icm2026',
      'refs.bib 4:15-4:19 icm2026',
      'refs.bib 4:31-4:35 icm2026',
      'refs.bib 5:20-5:24 icm2026',
    ]);
    // find references from the entry lists those fields too
    const refs = bibReferences(fx.ws, path.join(fx.dir, 'refs.bib'), { line: 1, character: 14 }, false).map((l) => `${path.basename(l.uri)} ${rangeText(l.range)}`);
    assert.deepEqual(refs.sort(), ['main.tex 3:7-3:11', 'refs.bib 4:15-4:19', 'refs.bib 4:31-4:35', 'refs.bib 5:20-5:24']);
  } finally {
    fx.cleanup();
  }
});
