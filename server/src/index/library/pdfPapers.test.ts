// PDFs in the author's library (pdfPapers.ts): which printed heads begin entries and where they
// end, on text-layer lines; then a real PDF (pdflatex from TeX Live, as .ci/run installs it) read
// through pdfjs-dist and indexed as a paper beside LaTeX ones: its results with their printed
// numbers, proofs with what they prove, found by the search; a damaged PDF said as such, and the
// PDF a LaTeX root compiles to left to its source.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pdfEntries, pdfRoots, type PdfLine } from './pdfPapers.js';
import { indexLibrary, LoadedLibrary } from './libraryStore.js';
import { MathTokenizer } from '../../embeddings/tokenizer.js';
import { vocabFile } from '../../testing/modelPaths.js';
import { PAPER, DEFS } from '../../testing/libraryFixture.js';

/** Lines of one page at the left margin; `>` before a line: vertical space; `  ` (two spaces): a display. */
function lines(text: string): PdfLine[] {
  return text.trim().split('\n').map((t, i) => {
    const gap = t.startsWith('>');
    const body = t.replace(/^>/, '');
    return { text: body.trim(), page: 1 + Math.floor(i / 40), x: body.startsWith('  ') ? 200 : 100, gap };
  });
}

const brief = (es: ReturnType<typeof pdfEntries>) => es.map((e) => `${e.kind} ${e.name}${e.number ? ` ${e.number}` : ''}${e.title ? ` (${e.title})` : ''}${e.proves !== undefined ? ` proves ${es[e.proves].name} ${es[e.proves].number ?? ''}`.trimEnd() : ''}: ${e.text}`);

describe('entries of a PDF\'s text layer', () => {
  it('printed heads begin statements, definitions and proofs; numbers and titles as printed; a proof proves the statement before it or the one it names', () => {
    const es = pdfEntries(lines(`
>2. Compact spaces
Some words first, citing
Lemma 3.1. inside a sentence, which is no head.
>Definition 2.1. A space is compact if every open cover
has a finite subcover.
>Theorem 2.2 (Heine–Borel). A subset of R^n is compact if and only
if it is closed and bounded.
Proof. Bounded and closed sets lie in a cube; cubes are compact. □
>Lemma 2.3. Every closed subset of a compact space is
compact.
>Remark. An aside.
Proof of Theorem 2.2. Another argument, by sequences. □
Lemma. Unnumbered, after a sentence's end.`), 'book.pdf');
    assert.deepEqual(brief(es), [
      'definition Definition 2.1: A space is compact if every open cover has a finite subcover.',
      'statement Theorem 2.2 (Heine–Borel): A subset of R^n is compact if and only if it is closed and bounded.',
      'proof Proof proves Theorem 2.2: Bounded and closed sets lie in a cube; cubes are compact. □',
      'statement Lemma 2.3: Every closed subset of a compact space is compact.',
      'statement Remark: An aside.',
      'proof Proof proves Theorem 2.2: Another argument, by sequences. □',
      'statement Lemma: Unnumbered, after a sentence\'s end.',
    ]);
    assert.deepEqual(es.map((e) => [e.file, e.line, e.page, e.numberFrom ?? null]).slice(0, 2), [['book.pdf', 4, 1, 'printed'], ['book.pdf', 6, 1, 'printed']]);
  });

  it('a statement goes on through its displays and lists, and ends at a new paragraph after vertical space, a section, or the next head', () => {
    const es = pdfEntries(lines(`
>Proposition 4.1. The following are equivalent for a map f:
>(i) f is continuous;
(ii) preimages of closed sets are closed;
and then
>  f(lim x_n) = lim f(x_n)
>for every convergent sequence.
>This paragraph is prose after the proposition, not part of it.
>Lemma 4.2. A hyphen-
ated word is joined.
>5 Products
Text of the section.`), 'p.pdf');
    assert.deepEqual(brief(es), [
      'statement Proposition 4.1: The following are equivalent for a map f: (i) f is continuous; (ii) preimages of closed sets are closed; and then f(lim x_n) = lim f(x_n) for every convergent sequence.',
      'statement Lemma 4.2: A hyphenated word is joined.',
    ]);
  });
});

describe('a real PDF in the library', () => {
  it('pdflatex\'s PDF of a paper is read as a paper: its printed numbers, proofs and what they prove, found by the search; a damaged or truncated PDF is said to be unreadable; a PDF beside its LaTeX root is left to the source', async () => {
    assert.equal(spawnSync('pdflatex', ['--version']).status, 0, 'pdflatex not found: install TeX Live (apt-get install texlive-latex-base texlive-latex-recommended texlive-latex-extra)');
    const build = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-pdfbuild-'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-pdflib-'));
    try {
      fs.writeFileSync(path.join(build, 'main.tex'), PAPER);
      fs.writeFileSync(path.join(build, 'defs.tex'), DEFS);
      for (let i = 0; i < 2; i++) spawnSync('pdflatex', ['-interaction=nonstopmode', 'main.tex'], { cwd: build, stdio: 'ignore' });
      fs.copyFileSync(path.join(build, 'main.pdf'), path.join(dir, 'bounded-2101.01234.pdf'));
      fs.writeFileSync(path.join(dir, 'damaged.pdf'), '%PDF-1.5\nnot really a PDF\n');
      const real = fs.readFileSync(path.join(build, 'main.pdf'));
      fs.writeFileSync(path.join(dir, 'truncated.pdf'), real.subarray(0, Math.floor(real.length * 0.6)));
      // a LaTeX paper with its own PDF beside it: the source is read, not the PDF
      fs.writeFileSync(path.join(dir, 'primes.tex'), '\\documentclass{article}\\newtheorem{theorem}{Theorem}\\begin{document}\\begin{theorem}There are infinitely many primes.\\end{theorem}\\end{document}\n');
      fs.copyFileSync(path.join(build, 'main.pdf'), path.join(dir, 'primes.pdf'));
      // a figure of a paper's source folder is no paper
      fs.mkdirSync(path.join(dir, '2203.04567', 'figs'), { recursive: true });
      fs.writeFileSync(path.join(dir, '2203.04567', 'main.tex'), '\\documentclass{article}\\begin{document}Text.\\end{document}\n');
      fs.copyFileSync(path.join(build, 'main.pdf'), path.join(dir, '2203.04567', 'figs', 'plot.pdf'));
      assert.deepEqual(pdfRoots(dir, [path.join(dir, 'primes.tex'), path.join(dir, '2203.04567', 'main.tex')]).map((f) => path.basename(f)), ['bounded-2101.01234.pdf', 'damaged.pdf', 'truncated.pdf']);
      const store = path.join(dir, '.store');
      const report = await indexLibrary(dir, store, MathTokenizer.load(vocabFile), undefined);
      assert.equal(report.papers, 3);
      // a damaged or truncated PDF is one unreadable paper; the others are indexed
      assert.equal(report.unreadable.length, 2);
      assert.match(report.unreadable[0], /^damaged\.pdf \(not a readable PDF/);
      assert.match(report.unreadable[1], /^truncated\.pdf \(not a readable PDF/);
      const lib = LoadedLibrary.load(store);
      assert.ok(lib instanceof LoadedLibrary);
      const paper = lib.manifest.papers.find((p) => p.id === 'bounded-2101.01234.pdf')!;
      assert.equal(paper.meta.arxiv, '2101.01234');
      const entries = lib.items.filter((it) => it.paper === paper).map((it) => it.entry);
      assert.deepEqual(entries.map((e) => [e.kind, e.name, e.number, e.title && `(${e.title})`, e.proves !== undefined && `proves ${entries[e.proves].name} ${entries[e.proves].number}`].filter(Boolean).join(' ')), [
        'definition Definition 1.1',
        'statement Lemma 1.2',
        'proof Proof proves Lemma 1.2',
        'statement Theorem 1.3 (Bolzano–Weierstrass)',
        'proof Proof proves Theorem 1.3',
      ]);
      assert.equal(entries[3].text, 'Every bounded sequence of real numbers has a convergent subsequence.');
      assert.equal(entries[3].page, 1);
      const hit = lib.search({ ids: MathTokenizer.load(vocabFile).encode('every bounded sequence of reals has a convergent subsequence', { maxTokens: 64 }) }, { kinds: ['statement'], limit: 1 })[0];
      assert.equal(hit.paper.id, 'bounded-2101.01234.pdf');
      assert.equal(hit.entry.name, 'Theorem');
      // indexed again: the PDF unchanged is not read again
      const again = await indexLibrary(dir, store, MathTokenizer.load(vocabFile), undefined);
      assert.equal(again.kept, 3);
    } finally {
      fs.rmSync(build, { recursive: true, force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
