// The author's library (papers.ts, libraryStore.ts): which files are papers, what a paper gives
// (statements with their printed or counted numbers, proofs and what they prove, labelled
// equations, title, authors, arXiv id), indexing that reads only new and changed papers, search,
// and a store that cannot be read said as such.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { paperRoots, readPaper } from './papers.js';
import { indexLibrary, LoadedLibrary } from './libraryStore.js';
import { MathTokenizer } from '../../embeddings/tokenizer.js';
import { vocabFile } from '../../testing/modelPaths.js';
import { library, OTHER } from '../../testing/libraryFixture.js';

describe('papers of a library folder', () => {
  it('a paper is a .tex file that holds a document; an included file, a preamble or a commented \\begin{document} is none', () => {
    const dir = library();
    try {
      assert.deepEqual(paperRoots(dir).map((f) => path.relative(dir, f)), [path.join('2101.01234v2', 'main.tex'), path.join('book', 'chapter.tex'), 'primes.tex']);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });

  it('reads statements file by file with the numbers the paper prints (counted across its includes), definitions from included files, proofs with what they prove, labelled equations, and the metadata', () => {
    const dir = library();
    try {
      const p = readPaper(dir, path.join(dir, '2101.01234v2', 'main.tex'))!;
      assert.deepEqual(p.meta, { title: 'On bounded monotone sequences', authors: 'A. Author, B. Writer', arxiv: '2101.01234', doi: undefined });
      assert.deepEqual(p.files.sort(), [path.join('2101.01234v2', 'defs.tex'), path.join('2101.01234v2', 'main.tex')]);
      const brief = p.entries.map((e) => `${e.kind} ${e.name}${e.number ? ` ${e.number} (${e.numberFrom})` : ''}${e.label ? ` ${e.label}` : ''}${e.proves !== undefined ? ` proves ${p.entries[e.proves].label}` : ''}`);
      assert.deepEqual(brief, [
        'statement Lemma 1.2 (counted) lem:mono',
        'statement Theorem 1.3 (counted) thm:bw',
        'definition Definition 1.1 (counted) def:mono',
        'proof Proof proves lem:mono',
        'proof Proof proves thm:bw',
        'equation Equation eq:geom',
      ]);
      assert.equal(p.entries[1].title, 'Bolzano--Weierstrass');
      assert.equal(p.entries[2].file, path.join('2101.01234v2', 'defs.tex'));
      assert.equal(p.entries[0].line, 11);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });

  it('a title set in an included header from the root\'s own macros reads as printed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-library-'));
    try {
      fs.writeFileSync(path.join(dir, 'header.tex'), '\\title{Part \\npart\\ --- \\ncourse}\n\\author{Notes by \\nauthor}\n');
      fs.writeFileSync(path.join(dir, 'notes.tex'), '\\documentclass{article}\n\\def\\npart {IB}\n\\def\\ncourse {Analysis II}\n\\def\\nauthor {A. Student}\n\\input{header}\n\\begin{document}\n\\maketitle\n\\end{document}\n');
      const p = readPaper(dir, path.join(dir, 'notes.tex'))!;
      assert.deepEqual([p.meta.title, p.meta.authors], ['Part IB — Analysis II', 'Notes by A. Student']);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });

  it('a number the paper\'s .aux has is the printed one', () => {
    const dir = library();
    try {
      fs.writeFileSync(path.join(dir, '2101.01234v2', 'main.aux'), '\\newlabel{lem:mono}{{2.7}{3}}\n\\newlabel{eq:geom}{{4}{5}}\n');
      const p = readPaper(dir, path.join(dir, '2101.01234v2', 'main.tex'))!;
      const lemma = p.entries.find((e) => e.label === 'lem:mono')!;
      assert.deepEqual([lemma.number, lemma.numberFrom], ['2.7', 'aux']);
      const eq = p.entries.find((e) => e.label === 'eq:geom')!;
      assert.deepEqual([eq.number, eq.numberFrom], ['4', 'aux']);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });
});

describe('library index and search', () => {
  const tok = MathTokenizer.load(vocabFile);

  it('indexes every paper, then reads only what was added, changed or removed; search finds the statement by its words', async () => {
    const dir = library();
    const store = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-library-store-'));
    try {
      const first = await indexLibrary(dir, store, tok, undefined);
      assert.deepEqual([first.papers, first.added, first.kept, first.entries], [3, 3, 0, 8]);
      const lib = LoadedLibrary.load(store);
      assert.ok(lib instanceof LoadedLibrary);
      const hits = lib.search({ ids: tok.encode('infinitely many primes') }, { limit: 2 });
      assert.equal(hits[0].entry.label, 'thm:primes');
      assert.equal(hits[0].paper.meta.title, 'Primes');
      assert.deepEqual(lib.search({ ids: tok.encode('bounded monotone sequence converges') }, { kinds: ['proof'] }).map((h) => h.entry.kind), ['proof', 'proof']);

      // one paper added: only it is read
      fs.writeFileSync(path.join(dir, 'third.tex'), OTHER.replace('prime numbers', 'twin primes, perhaps').replace('thm:primes', 'thm:twin'));
      const second = await indexLibrary(dir, store, tok, undefined);
      assert.deepEqual([second.papers, second.added, second.changed, second.kept, second.removed], [4, 1, 0, 3, 0]);
      // an included file changed: that paper is read again; a paper deleted: dropped with its files
      fs.appendFileSync(path.join(dir, '2101.01234v2', 'defs.tex'), '\\begin{definition}\\label{def:bounded}A sequence is bounded if its terms lie in an interval.\\end{definition}\n');
      fs.rmSync(path.join(dir, 'primes.tex'));
      const third = await indexLibrary(dir, store, tok, undefined);
      assert.deepEqual([third.papers, third.added, third.changed, third.kept, third.removed], [3, 0, 1, 2, 1]);
      const again = LoadedLibrary.load(store) as LoadedLibrary;
      assert.equal(again.search({ ids: tok.encode('interval terms bounded') }, { limit: 1 })[0].entry.label, 'def:bounded');
      assert.ok(!again.search({ ids: tok.encode('infinitely many prime numbers') }, { limit: 5 }).some((h) => h.entry.label === 'thm:primes'));
      assert.equal(fs.readdirSync(path.join(store, 'papers')).length, 6, 'three papers, a data file and a vector file each');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(store, { recursive: true, force: true });
    }
  });

  it('a store that is missing or cut short is said as such', async () => {
    const store = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-library-store-'));
    const dir = library();
    try {
      assert.match((LoadedLibrary.load(store) as { problem: string }).problem, /no library index/);
      await indexLibrary(dir, store, tok, undefined);
      const data = fs.readdirSync(path.join(store, 'papers')).find((f) => f.endsWith('.json'))!;
      fs.writeFileSync(path.join(store, 'papers', data), '{"entries": [');
      assert.match((LoadedLibrary.load(store) as { problem: string }).problem, /JSON.*run `mathsense library index` again/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(store, { recursive: true, force: true });
    }
  });
});
