// Renaming a citation key on fixtures: from a \cite (the .bib entry and every citation of it,
// in every project that reads that .bib, not in a project whose own .bib has the same key),
// from the entry's key in an open .bib file, \bibitem keys, and the refusals.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../../testing/fixture.js';
import { check, expect, rangeText } from '../../testing/snapshot.js';
import { checkRename, cursorOf, renderEdit, renderLocations } from '../../testing/featureChecks.js';
import { bibRename, citeRename, prepareBibRename, prepareCiteRename } from './citationRename.js';
import { bibReferences } from './citations.js';
import { RenameError } from '../labels/labelNavigation.js';

const REFS = '@article{euclid,\n  title = {Elements},\n  year = {300},\n}\n@book{hartshorne,\n  title = {Algebraic Geometry},\n}\n';

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
%! own/mine.bib
@misc{euclid, title = {Another Euclid}}
%! refs.bib
` + REFS;

test('rename a \\cite key: the .bib entry and its citations in every project reading that .bib, not a same-named entry elsewhere', () => {
  const fx = checkRename(PROJECTS, 'euclid300', expect`
    other.tex:3:12-3:18 → euclid300
    refs.bib:1:10-1:16 → euclid300
    sec.tex:1:19-1:25 → euclid300
    sec.tex:1:50-1:56 → euclid300
  `, citeRename);
  const { doc, offset } = cursorOf(fx);
  const prep = prepareCiteRename(fx.ws, doc, offset)!;
  assert.equal(prep.placeholder, 'euclid');
  assert.equal(rangeText(prep.range), '1:50-1:56');
  // from the other project's own entry: only its file and citation
  const paper = fx.doc('own/paper.tex');
  check(renderEdit(fx, citeRename(fx.ws, paper, paper.text.indexOf('euclid'), 'euclid2')), expect`
    own/mine.bib:1:7-1:13 → euclid2
    own/paper.tex:3:27-3:33 → euclid2
  `);
});

test('rename refuses a key that already names an entry or is not a valid key; undefined keys are not renamed', () => {
  const fx = fixture(PROJECTS);
  const { doc, offset } = cursorOf(fx);
  assert.throws(() => citeRename(fx.ws, doc, offset, 'hartshorne'), (e: Error) => e instanceof RenameError && /an entry 'hartshorne' already exists \(refs\.bib:5\)/.test(e.message));
  for (const bad of ['two words', 'a,b', 'x{y}', '']) assert.throws(() => citeRename(fx.ws, doc, offset, bad), RenameError, bad);
  const nowhere = doc.text.indexOf('nowhere');
  assert.equal(prepareCiteRename(fx.ws, doc, nowhere), undefined);
  assert.equal(citeRename(fx.ws, doc, nowhere, 'somewhere'), undefined);
  // off any key: nothing (the label rename gets its turn)
  assert.equal(prepareCiteRename(fx.ws, doc, 0), undefined);
});

test('rename from the entry key of an open .bib file; \\bibitem keys rename with their citations', () => {
  {
    const fx = fixture(PROJECTS);
    const bib = fx.path('refs.bib');
    // read once through a document (as the server does), then opened in the editor
    prepareCiteRename(fx.ws, fx.doc('sec.tex'), cursorOf(fx).offset);
    fx.ws.bibs.openDocument(bib, fx.uri('refs.bib'), 1, REFS);
    assert.equal(prepareBibRename(fx.ws, bib, { line: 0, character: 12 })?.placeholder, 'euclid');
    assert.equal(prepareBibRename(fx.ws, bib, { line: 1, character: 4 }), null);
    check(renderEdit(fx, bibRename(fx.ws, bib, { line: 4, character: 8 }, 'hart77')), expect`
      refs.bib:5:7-5:17 → hart77
      sec.tex:1:38-1:48 → hart77
    `);
    // find references from the entry: the citations in both projects reading refs.bib
    check(renderLocations(fx, bibReferences(fx.ws, bib, { line: 0, character: 9 }, true)), expect`
      other.tex:3:12-3:18
      refs.bib:1:10-1:16
      sec.tex:1:19-1:25
      sec.tex:1:50-1:56
    `);
  }
  const fx = checkRename(String.raw`
%! paper.tex
See \cite{ahl} and \cite{<|>ahl,b}.
\begin{thebibliography}{9}
\bibitem[Ahl]{ahl} L. Ahlfors, \emph{Complex Analysis}, 1953.
\bibitem{b} B.
\end{thebibliography}
`, 'ahlfors53', expect`
  paper.tex:1:11-1:14 → ahlfors53
  paper.tex:1:26-1:29 → ahlfors53
  paper.tex:3:15-3:18 → ahlfors53
`, citeRename);
  const { doc, offset } = cursorOf(fx);
  // the edits in the order the rename makes them: the \bibitem first
  assert.deepEqual(citeRename(fx.ws, doc, offset, 'ahlfors53')!.changes![doc.uri].map((t) => rangeText(t.range)), ['3:15-3:18', '1:11-1:14', '1:26-1:29']);
  assert.throws(() => citeRename(fx.ws, doc, offset, 'b'), /an entry 'b' already exists \(paper\.tex:4\)/);
});

test('rename and find references reach the crossref, xdata and related fields that name the entry, not a @string macro or another key', () => {
  const fx = checkRename(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\cite{proc} and \cite{talk}.
      ^^^^
%      |
\bibliography{refs}
\end{document}
%! refs.bib
@string{proc = {Proceedings}}
@proceedings{proc, title = proc}
             ^^^^
@inproceedings{talk, title = {A talk},
  crossref = {proc}, xdata = {proc, procx},
              ^^^^            ^^^^
  related = "procx,proc", note = {proc}}
                   ^^^^
`, 'icm2026', expect`
  main.tex:3:7-3:11 → icm2026
  refs.bib:2:14-2:18 → icm2026
  refs.bib:4:15-4:19 → icm2026
  refs.bib:4:31-4:35 → icm2026
  refs.bib:5:20-5:24 → icm2026
`, citeRename);
  // every marked key is renamed
  assert.equal(renderEdit(fx, citeRename(fx.ws, cursorOf(fx).doc, cursorOf(fx).offset, 'icm2026')), fx.ranges.map((r) => `${r.name}:${rangeText(r.range)} → icm2026`).join('\n'));
  // find references from the entry lists those fields too (and the entry itself only with the declaration)
  const declaration = fx.ranges.find((r) => r.name === 'refs.bib' && r.range.start.line === 1)!;
  const marked = (withDeclaration: boolean) => fx.ranges.filter((r) => withDeclaration || r !== declaration).map((r) => ({ uri: fx.uri(r.name), range: r.range }));
  const bib = fx.path('refs.bib');
  assert.equal(renderLocations(fx, bibReferences(fx.ws, bib, declaration.range.start, false)), renderLocations(fx, marked(false)));
  assert.equal(renderLocations(fx, bibReferences(fx.ws, bib, declaration.range.start, true)), renderLocations(fx, marked(true)));
});

test('a citation rename edits a .bib changed on disk since it was read at the entry\'s new place, and one unchanged is not read again', async () => {
  const { renameAt } = await import('../navigate.js');
  const { testContext } = await import('../../testing/featureContext.js');
  const fx = fixture(PROJECTS);
  const { doc, offset } = cursorOf(fx);
  fx.ws.bibs.loadSync(fx.path('refs.bib'));
  fx.ws.bibs.loadSync(fx.path('own/mine.bib'));
  // another tool adds an entry above it
  const pulled = `@misc{added, title = {New}}\n${REFS}`;
  fx.memory!.writeFile(fx.path('refs.bib'), pulled);
  const edit = renameAt(testContext(fx.ws), doc.uri, doc.positionAt(offset), 'euclid300');
  const bibEdits = edit?.changes?.[fx.uri('refs.bib')] ?? [];
  assert.equal(bibEdits.length, 1);
  const lines = pulled.split('\n');
  const at = bibEdits[0].range.start;
  assert.equal(lines[at.line].slice(at.character, bibEdits[0].range.end.character), 'euclid', 'the edit lands on the key where it is now');
  assert.equal(fx.ws.bibs.refreshFromDisk(fx.path('own/mine.bib')), 'same');
});
