// Library results where the index's are used, and "Insert citation": the hover on a statement's
// head lists the library statement with the paper, its number and the command; the edit puts
// `\cite[Theorem~1.3]{key}` in the statement's optional argument (a new one, or after the text
// of the one there), or at the cursor; the key is the .bib entry that is the paper (by arXiv id),
// else a new entry from the paper's metadata is appended to the project's .bib.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixture } from '../../testing/fixture.js';
import { library } from '../../testing/libraryFixture.js';
import { ServerLibrary } from '../../index/library/serverLibrary.js';
import { ServerIndex } from '../../index/serverIndex.js';
import { MathTokenizer } from '../../embeddings/tokenizer.js';
import { vocabFile } from '../../testing/modelPaths.js';
import { candidateProofsMarkdown, proofResults } from '../index/candidateProofs.js';
import { citationEdit } from './insertCitation.js';
import { INSERT_CITATION_COMMAND, type InsertCitationArgs } from '../../ext/protocol.js';
import type { TextEdit } from 'vscode-languageserver-types';

async function withLibrary(run: (lib: ServerLibrary, dir: string) => Promise<void> | void): Promise<void> {
  const dir = library();
  const stores = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-stores-'));
  const tok = MathTokenizer.load(vocabFile);
  const lib = new ServerLibrary({ log: () => {}, tokenizer: () => tok, encoder: async () => undefined, progress: async () => undefined, changed: () => {}, storeDir: () => stores, recorded: () => [] });
  try {
    await lib.index(dir);
    await run(lib, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(stores, { recursive: true, force: true });
  }
}

const PROJECT = (bib: string) => `
%! main.tex
\\documentclass{article}
\\newtheorem{theorem}{Theorem}
\\begin{document}
\\begin{theorem}\\label{thm:mine}
Every bounded sequence of real numbers has a convergent subsequence.
\\end{theorem}
\\begin{theorem}[Compactness]
Every bounded sequence of real numbers has a convergent subsequence.
\\end{theorem}
Some text here.
\\bibliography{refs}
\\end{document}
%! refs.bib
${bib}`;

const applied = (text: string, edits: TextEdit[]) => {
  const lines = text.split('\n');
  const off = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((a, l) => a + l.length + 1, 0) + p.character;
  return [...edits].sort((a, b) => off(b.range.start) - off(a.range.start)).reduce((t, e) => t.slice(0, off(e.range.start)) + e.newText + t.slice(off(e.range.end)), text);
};

test('the hover on a statement lists the library statement with its paper, number and Insert citation; the panel carries it', async () => {
  await withLibrary((lib, dir) => {
    const fx = fixture(PROJECT('@misc{other, title={Other}}\n'), { disk: true });
    try {
      const doc = fx.doc('main.tex');
      const si = new ServerIndex(() => {}, () => ({}), async () => undefined);
      const scope = { lib, folders: [dir] };
      const md = candidateProofsMarkdown(fx.ws, doc, doc.text.indexOf('theorem}\\label'), si, 3, scope)!;
      assert.match(md, /^\*\*Candidate proofs\*\*/);
      const line = md.split('\n\n').find((l) => l.includes('Bolzano'))!;
      assert.match(line, /^\*\*\[Theorem 1\.3 \(Bolzano--Weierstrass\)\]\(file:\/\/\/.*2101\.01234v2\/main\.tex#L\d+\)\*\* in \*On bounded monotone sequences \(arXiv:2101\.01234\)\* · your library · score [\d.]+ · \[Insert citation\]\(command:mathsense\.library\.insertCitation\?/);
      const args = JSON.parse(decodeURIComponent(/command:mathsense\.library\.insertCitation\?([^ )]+)/.exec(line)![1])) as InsertCitationArgs[];
      assert.deepEqual({ ...args[0], folder: path.basename(args[0].folder) }, { uri: doc.uri, position: { line: 3, character: 0 }, at: 'statement', folder: path.basename(dir), paper: path.join('2101.01234v2', 'main.tex'), file: path.join('2101.01234v2', 'main.tex'), line: 17 });
      // no library folder for this document: nothing from the library
      assert.doesNotMatch(candidateProofsMarkdown(fx.ws, doc, doc.text.indexOf('theorem}\\label'), si, 3, { lib, folders: [] }) ?? '', /library/);
      const panel = proofResults(fx.ws, doc, doc.text.indexOf('bounded'), si, 8, scope)!;
      const item = panel.items.find((i) => i.title.includes('Bolzano'))!;
      assert.equal(item.cite?.at, 'cursor');
      assert.equal(INSERT_CITATION_COMMAND, 'mathsense.library.insertCitation');
    } finally { fx.cleanup(); }
  });
});

test('Insert citation: in a new optional argument, after an existing one, or at the cursor; the .bib entry that is the paper, else a new one', async () => {
  await withLibrary((lib, dir) => {
    const paper = path.join('2101.01234v2', 'main.tex');
    const at = (where: InsertCitationArgs['at'], position: { line: number; character: number }) => ({ uri: '', position, at: where, folder: dir, paper, file: paper, line: 17 });
    // the bibliography has the paper by its arXiv id
    const fx = fixture(PROJECT('@article{bw21,\n  title = {Monotone},\n  eprint = {2101.01234},\n}\n'), { disk: true });
    try {
      const doc = fx.doc('main.tex');
      const run = (a: InsertCitationArgs) => citationEdit(fx.ws, lib, { ...a, uri: doc.uri });
      const one = run(at('statement', { line: 3, character: 0 }));
      assert.deepEqual(one.response, { applied: false, citation: '\\cite[Theorem~1.3]{bw21}' });
      assert.match(applied(doc.text, one.edit!.changes![doc.uri]), /\\begin\{theorem\}\[\{\\cite\[Theorem~1\.3\]\{bw21\}\}\]\\label\{thm:mine\}/);
      const two = run(at('statement', { line: 6, character: 3 }));
      assert.match(applied(doc.text, two.edit!.changes![doc.uri]), /\\begin\{theorem\}\[Compactness~\{\\cite\[Theorem~1\.3\]\{bw21\}\}\]\n/);
      const three = run(at('cursor', { line: 9, character: 5 }));
      assert.match(applied(doc.text, three.edit!.changes![doc.uri]), /Some \\cite\[Theorem~1\.3\]\{bw21\}text here\./);
      assert.deepEqual(Object.keys(three.edit!.changes!), [doc.uri]);
      // a display (the related-equations search's library hit) without a printed number: the paper alone
      assert.equal(run({ ...at('cursor', { line: 9, character: 5 }), line: 23 }).response.citation, '\\cite{bw21}');
      // a result no longer in the library
      assert.match(run({ ...at('cursor', { line: 9, character: 5 }), line: 999 }).response.message!, /no longer in the library/);
    } finally { fx.cleanup(); }
    // no entry is the paper: a new one from its metadata, appended to refs.bib
    const fy = fixture(PROJECT('@misc{other, title={Other}}'), { disk: true });
    try {
      const doc = fy.doc('main.tex');
      const r = citationEdit(fy.ws, lib, { ...at('cursor', { line: 9, character: 5 }), uri: doc.uri });
      assert.equal(r.response.citation, '\\cite[Theorem~1.3]{author2021bounded}');
      assert.equal(r.response.bibFile, fy.path('refs.bib'));
      const bibUri = Object.keys(r.edit!.changes!).find((u) => u.endsWith('refs.bib'))!;
      assert.equal(applied(fs.readFileSync(fy.path('refs.bib'), 'utf8'), r.edit!.changes![bibUri]), '@misc{other, title={Other}}\n\n@misc{author2021bounded,\n  author = {A. Author and B. Writer},\n  title = {{On bounded monotone sequences}},\n  year = {2021},\n  eprint = {2101.01234},\n  archivePrefix = {arXiv},\n}\n');
    } finally { fy.cleanup(); }
  });
});
