// The in-memory file system on its own, and a Workspace reading through it: documents,
// includes, .bib files, .aux numbers and the letter-case hint of a missing include all come
// from the injected file system, none from the disk.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MemoryFileSystem } from './memoryFileSystem.js';
import { findDocumentFiles, isFile, pathToUri, readTextFile, readTextFileAsync } from './files.js';
import { Workspace } from './workspace.js';
import { AuxStore } from './auxNumbers.js';
import { computeDiagnostics } from '../features/diagnostics/documentDiagnostics.js';

test('files and implied folders: stat, read, list, delete; errors like the disk', async () => {
  const fs = new MemoryFileSystem({ '/p/main.tex': 'main', '/p/ch/one.tex': 'one' });
  fs.writeFile('/p/data.bin', new Uint8Array([0x40, 0, 1]));
  assert.deepEqual(fs.stat('/p/main.tex'), { isFile: true, isDirectory: false, size: 4, mtimeMs: fs.stat('/p/main.tex').mtimeMs });
  assert.equal(fs.stat('/p/ch').isDirectory, true);
  assert.equal(fs.stat('/').isDirectory, true);
  assert.throws(() => fs.stat('/p/none.tex'), (e: NodeJS.ErrnoException) => e.code === 'ENOENT');
  assert.throws(() => fs.readFile('/p/ch'), (e: NodeJS.ErrnoException) => e.code === 'EISDIR');
  assert.throws(() => fs.readDir('/p/main.tex'), (e: NodeJS.ErrnoException) => e.code === 'ENOTDIR');
  assert.deepEqual(fs.readDir('/p').map((e) => `${e.name}${e.isDirectory ? '/' : ''}`).sort(), ['ch/', 'data.bin', 'main.tex']);
  // later writes are newer
  fs.writeFile('/p/ch/one.tex', 'one again');
  assert.ok(fs.stat('/p/ch/one.tex').mtimeMs > fs.stat('/p/main.tex').mtimeMs);
  assert.equal(fs.stat('/p/ch/one.tex').size, 9);
  assert.deepEqual(readTextFile('/p/ch/one.tex', fs), { text: 'one again' });
  assert.deepEqual(await readTextFileAsync('/p/main.tex', fs), { text: 'main' });
  assert.deepEqual(readTextFile('/p/data.bin', fs), { error: 'binary file (contains NUL bytes)' });
  assert.deepEqual(readTextFile('/p/ch', fs), { error: 'not a file' });
  assert.equal(isFile('/p/main.tex', fs), true);
  assert.equal(isFile('/p/ch', fs), false);
  assert.deepEqual(findDocumentFiles('/p', 100, fs), ['/p/ch/one.tex', '/p/main.tex']);
  assert.equal(fs.deleteFile('/p/main.tex'), true);
  assert.equal(isFile('/p/main.tex', fs), false);
  assert.deepEqual(fs.paths(), ['/p/ch/one.tex', '/p/data.bin']);
});

test('a workspace over a memory file system resolves includes, bibliographies and a case twin there', () => {
  const fs = new MemoryFileSystem({
    '/m/main.tex': '\\documentclass{article}\n\\begin{document}\n\\input{ch/one}\n\\input{Two}\n\\cite{k}\n\\bibliography{refs}\n\\end{document}\n',
    '/m/ch/one.tex': '\\section{One}\\label{sec:one}\n',
    '/m/two.tex': '\\label{sec:two}\n',
    '/m/refs.bib': '@book{k, title={K}}\n',
  });
  const ws = new Workspace({ fs });
  const main = ws.loadFile('/m/main.tex')!;
  // \input{Two} reads two.tex, as TeX Live's lookup does, ignoring letter case
  assert.deepEqual(ws.children(main).map((d) => d.uri), [pathToUri('/m/ch/one.tex'), pathToUri('/m/two.tex')]);
  assert.equal(ws.findLabel(main, 'sec:one').length, 1);
  assert.deepEqual(ws.bibliographyIncludes(main).map((b) => b.path), ['/m/refs.bib']);
  assert.ok(ws.bibs.get('/m/refs.bib')?.file?.entries.some((e) => e.key === 'k'));
  // the listing of the memory folder says so, as information
  assert.deepEqual(computeDiagnostics(ws, main).map((d) => `${d.code}: ${d.message}`), [
    'include-letter-case: Two is read as two.tex only because TeX Live (since 2018) looks file names up ignoring letter case; older TeX installations on case-sensitive file systems (Linux) do not find it',
  ]);
  // closing a document falls back to the memory file's text
  ws.open(pathToUri('/m/two.tex'), 'latex', 1, '\\label{edited}');
  ws.close(pathToUri('/m/two.tex'));
  assert.equal(ws.get(pathToUri('/m/two.tex'))?.text, '\\label{sec:two}\n');
  // `new Workspace()` reads the disk: no such file there
  assert.equal(new Workspace().loadFile('/m/main.tex'), undefined);
});

test('.aux numbers are read through the workspace file system, stale when a source is newer', () => {
  const fs = new MemoryFileSystem();
  fs.writeFile('/a/main.tex', '\\documentclass{article}\n\\begin{document}\n\\section{S}\\label{sec:s}\n\\end{document}\n', 1_000);
  fs.writeFile('/a/build/main.aux', '\\relax\n\\newlabel{sec:s}{{1}{1}}\n', 5_000);
  const ws = new Workspace({ fs });
  const main = ws.loadFile('/a/main.tex')!;
  const n = new AuxStore().numbers(ws, main)!;
  assert.equal(n.file, '/a/build/main.aux');
  assert.deepEqual(n.labels.get('sec:s'), { number: '1', page: '1' });
  assert.equal(n.stale, false);
  fs.writeFile('/a/main.tex', main.text, 9_000);
  assert.equal(new AuxStore().numbers(ws, main)!.stale, true);
});
