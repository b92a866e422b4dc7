// The BibTeX parser: delimiters, nesting, quotes, @string macros and concatenation, skipped
// material, garbage, broken and truncated entries; \bibitem extraction; the store's read errors.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseBibtex, bibItems, BibStore, type BibFile } from './bibliography.js';
import { check, expect } from '../testing/snapshot.js';
import { Workspace } from './workspace.js';

/** One line per entry: type key @line:char {field=value; …}. */
function show(f: BibFile): string {
  return f.entries.map((e) => `${e.type} ${e.key} @${e.line + 1}:${e.character + 1} {${Object.entries(e.fields).map(([k, v]) => `${k}=${v}`).join('; ')}}`).join('\n');
}

test('entries: nested braces, quotes, numbers, @string macros, # concatenation, parentheses', () => {
  const f = parseBibtex(String.raw`
@string{ jams = "J. Amer. Math. Soc." }
@STRING(pre = {Proc. })
@comment{ @article{fake, title = {not an entry}} }
@preamble{ "\newcommand{\noop}[1]{}" }

@Article{euclid,
  author = {Euclid and {Heath, Thomas L.}},
  title  = {The {Thirteen} Books of {\em Elements} {{nested {deep}}}},
  journal = jams,
  year = 300,
  month = jan,
  note = "a \"quoted\" {with "quotes" inside} value",
  booktitle = pre # "of the " # {Royal} # " Society",
}
@book(knuth, title = "The {\TeX}book", year = {1984})
`);
  check(show(f), expect`
    article euclid @7:10 {author=Euclid and {Heath, Thomas L.}; title=The {Thirteen} Books of {\em Elements} {{nested {deep}}}; journal=J. Amer. Math. Soc.; year=300; month=January; note=a \"quoted\" {with "quotes" inside} value; booktitle=Proc. of the Royal Society}
    book knuth @16:7 {title=The {\TeX}book; year=1984}
  `);
  assert.equal(f.byKey.get('euclid')?.length, 1);
  assert.equal(f.byKey.has('fake'), false);
});

test('key fields: where the keys named by crossref, xdata, related and set are written', () => {
  const text = '@string{base = {B}}\n@inbook{ch,\n  crossref = {base},\n  xdata = "x1, x2",\n  set = base,\n}\n';
  const refs = parseBibtex(text).byKey.get('ch')![0].keyRefs!.map((r) => `${r.field} ${r.key} ${r.line}:${r.character}`);
  // a bare word is a @string macro, not a key
  assert.deepEqual(refs, ['crossref base 2:14', 'xdata x1 3:11', 'xdata x2 3:15']);
  assert.equal(parseBibtex('@book{a, title = {T}}').entries[0].keyRefs, undefined);
});

test('garbage between entries, a missing closing brace, a truncated file', () => {
  const f = parseBibtex(String.raw`This file is % not bibtex here @ all
random text { with } braces ) and ( parens
@misc{ok1, title={One}}
junk @ @@ @123 @misc junk
@article{broken, title = {No closing brace,
  year = 2001,
@book{ok2, title = {Two}, author = {A. Author}
}
@inproceedings{trunc, title = {Cut off in the mid`);
  check(show(f), expect`
    misc ok1 @3:7 {title=One}
    article broken @5:10 {}
    book ok2 @7:7 {title=Two; author=A. Author}
    inproceedings trunc @9:16 {}
  `);
});

test('never throws and stays linear on hostile input', () => {
  const inputs = [
    '', '@', '@{', '@article', '@article{', '@article{,', '@article{k,', '@article{k, a', '@article{k, a =', '@article{k, a = {',
    '@article{k, a = "', '@article{k, a = x #', '@string{x = {', '@comment{', '\u0000\u0001@@{}}}', '@article{k, = {v}, b = {w}}',
    '{'.repeat(10_000), '@a{k,x={'.repeat(5_000), '"'.repeat(10_000),
  ];
  for (const s of inputs) assert.doesNotThrow(() => parseBibtex(s), s.slice(0, 30));
  assert.deepEqual(parseBibtex('@article{k, = {v}, b = {w}}').entries[0].fields, Object.assign(Object.create(null), { b: 'w' }));
  // 4 MB of entries in well under a second, and the entry limit is honoured
  const big = '@article{k0, title = {T {nested}}, year = 2000}\n'.repeat(80_000);
  const t0 = performance.now();
  const f = parseBibtex(big);
  assert.equal(f.entries.length, 80_000);
  assert.ok(performance.now() - t0 < 3000, `took ${performance.now() - t0} ms`);
  const capped = parseBibtex(big, 10);
  assert.equal(capped.entries.length, 10);
  assert.ok(capped.truncated);
});

test('\\bibitem entries of thebibliography (comments skipped)', () => {
  const ws = new Workspace();
  const doc = ws.open('file:///tmp/bibitems.tex', 'latex', 1, String.raw`\begin{thebibliography}{9}
\bibitem[Eu]{euclid} Euclid, \emph{Elements}.
% \bibitem{commented}
\bibitem{ knuth } D. Knuth, The \TeX book.
\end{thebibliography}
`);
  const items = bibItems(doc).map((i) => `${i.key} [${i.label ?? ''}] ${doc.text.slice(i.start, i.end)} | ${i.text}`);
  check(items.join('\n'), expect`
    euclid [Eu] euclid | Euclid, \emph{Elements}.
    knuth [] knuth | D. Knuth, The \TeX book.
  `);
});

test('the store: binary, missing and huge files are read errors; editor text wins over the disk', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-bib-'));
  try {
    const bin = path.join(dir, 'bin.bib');
    fs.writeFileSync(bin, Buffer.from([0x40, 0x00, 0x01, 0x02]));
    const store = new BibStore();
    assert.match(store.loadSync(bin).error ?? '', /binary/);
    assert.match(store.loadSync(path.join(dir, 'none.bib')).error ?? '', /ENOENT/);
    const huge = path.join(dir, 'huge.bib');
    fs.writeFileSync(huge, '');
    fs.truncateSync(huge, 33 * 1024 * 1024); // sparse: cheap to make
    assert.match(store.loadSync(huge).error ?? '', /too large/);
    const ok = path.join(dir, 'ok.bib');
    fs.writeFileSync(ok, '@misc{disk, title={Disk}}');
    assert.deepEqual([...store.loadSync(ok).file!.byKey.keys()], ['disk']);
    store.openDocument(ok, 'file://' + ok, 1, '@misc{editor, title={Editor}}');
    store.setText(ok, '@misc{disk2}');
    assert.deepEqual([...store.get(ok)!.file!.byKey.keys()], ['editor']);
    store.changeDocument(ok, [{ range: { start: { line: 0, character: 6 }, end: { line: 0, character: 12 } }, text: 'edited' }], 2);
    assert.deepEqual([...store.get(ok)!.file!.byKey.keys()], ['edited']);
    store.closeDocument(ok);
    assert.equal(store.has(ok), false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
