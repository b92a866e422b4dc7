// Citing a library result: the project's bibliography entry that is the paper (arXiv id, DOI,
// title), the \cite with the result's printed name and number, and a BibTeX entry made from the
// paper's metadata when the bibliography has none.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseBibtex } from '../../project/bibliography.js';
import { bibtexFor, citation, matchingBibEntry, newKey, resultName } from './citeLibraryResult.js';

const BIB = String.raw`@article{smith2020, title = {Bounded {M}onotone Sequences}, author = {Smith, A.}, journal = {J. Seq.}, doi = {10.1000/xyz.123}}
@misc{jones21, title = {Other things}, eprint = {2101.01234}, archivePrefix = {arXiv}}
@misc{viaurl, title = {Yet another}, url = {https://arxiv.org/abs/2203.04567v3}}
@book{twice1, title = {Common Title Here}}
@book{twice2, title = {Common title here}}
`;
const entries = parseBibtex(BIB).entries;

test('the entry that is the paper: by arXiv id (eprint or URL), else DOI, else one equal title', () => {
  assert.deepEqual(((m) => m && [m.entry.key, m.by])(matchingBibEntry({ arxiv: '2101.01234', title: 'Bounded monotone sequences' }, entries)), ['jones21', 'arxiv'], 'the arXiv id first, whatever the title says');
  assert.deepEqual(((m) => m && [m.entry.key, m.by])(matchingBibEntry({ arxiv: '2203.04567' }, entries)), ['viaurl', 'arxiv']);
  assert.deepEqual(((m) => m && [m.entry.key, m.by])(matchingBibEntry({ doi: 'https://doi.org/10.1000/XYZ.123' }, entries)), ['smith2020', 'doi']);
  assert.deepEqual(((m) => m && [m.entry.key, m.by])(matchingBibEntry({ title: 'Bounded monotone sequences' }, entries)), ['smith2020', 'title']);
  assert.equal(matchingBibEntry({ title: 'Common title here' }, entries), undefined, 'a title two entries share names neither');
  assert.equal(matchingBibEntry({ title: 'Nothing like it' }, entries), undefined);
});

test('the citation names the result as the paper prints it', () => {
  assert.equal(citation({ kind: 'statement', name: 'Theorem', number: '3.2', text: '', file: 'a.tex', line: 1 }, 'smith2020'), '\\cite[Theorem~3.2]{smith2020}');
  assert.equal(citation({ kind: 'statement', name: 'Lemma', text: '', file: 'a.tex', line: 1 }, 'k'), '\\cite[Lemma]{k}');
  // an equation's number in parentheses; an unnumbered display is cited by its paper alone
  const eq = { kind: 'equation' as const, name: 'Equation', number: '4.1', text: 'x = 1', file: 'a.tex', line: 9 };
  assert.equal(resultName(eq), 'Equation (4.1)');
  assert.equal(citation(eq, 'k'), '\\cite[Equation~(4.1)]{k}');
  assert.equal(citation({ ...eq, number: undefined }, 'k'), '\\cite{k}');
});

test('a BibTeX entry from the paper\'s metadata, under a key not taken', () => {
  const meta = { title: 'On bounded monotone sequences', authors: 'Ann Author, Ben Writer', arxiv: '2101.01234' };
  assert.equal(newKey(meta), 'author2021bounded');
  assert.equal(newKey(meta, new Set(['author2021bounded'])), 'author2021bounded2');
  const bib = bibtexFor(meta, 'author2021bounded');
  assert.equal(bib, '@misc{author2021bounded,\n  author = {Ann Author and Ben Writer},\n  title = {{On bounded monotone sequences}},\n  year = {2021},\n  eprint = {2101.01234},\n  archivePrefix = {arXiv},\n}\n');
  const back = parseBibtex(bib).entries[0];
  assert.deepEqual([back.key, back.fields.eprint], ['author2021bounded', '2101.01234'], 'the entry parses back');
  assert.equal(matchingBibEntry(meta, [back])?.entry.key, 'author2021bounded', 'and is then the paper');
});
