// Crafted inputs over real stdio, each with a time and a memory ceiling: a large file, deep
// nesting, a binary file, self-expanding macros, an include cycle of a thousand files, one very
// long line, a .bib of 100,000 entries, symlink loops in the workspace folder, 20,000 labelled
// sections. For each, the server must publish the opened document's diagnostics and answer a
// hover, its outline and its folding ranges within the time ceiling, its peak resident memory
// under the memory ceiling.
// The measured table goes to test-output/crafted-inputs.json; MATHSENSE_TEST_SERVER runs it
// against another build's bundle (the baseline of the table).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, DocumentSymbolRequest, FoldingRangeRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import { withServer } from '../testing/stdioServer.js';
import { repoRoot } from '../testing/paths.js';
import { vmStatus } from '../util/procStatus.js';

interface Crafted {
  name: string;
  /** Files of the workspace folder (a string is written as is; a function writes what it likes). */
  files: Record<string, string | Buffer>;
  /** Made after the files (symlinks). */
  extra?: (dir: string) => void;
  open: string;
  /** Ceilings: from didOpen to the hover's answer, and peak resident memory. */
  seconds: number;
  mb: number;
  /** What the diagnostics must say, if anything. */
  expect?: RegExp;
}

function theorems(mb: number): string {
  const parts = ['\\documentclass{article}\n\\begin{document}\n'];
  for (let i = 0, size = 0; size < mb * 1e6; i++) {
    const s = `\\begin{theorem}\\label{thm:${i}}\nBy Theorem~\\ref{thm:${Math.max(i - 1, 0)}}, $x^2 + ${i} \\ge ${i}$.\n\\end{theorem}\n\\begin{proof}\n\\begin{align}\n(x+1)^2 &= x^2 + 2x + 1 \\label{eq:${i}}\\\\\n&\\ge 1\n\\end{align}\n\\end{proof}\n\n`;
    parts.push(s);
    size += s.length;
  }
  return parts.join('') + '\\end{document}\n';
}

function cycle(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`c${i}.tex`] = `\\section{Part ${i}}\\label{sec:${i}}\nSee \\ref{sec:${(i + 1) % n}}.\n\\input{c${(i + 1) % n}}\n`;
  // an undefined reference is published once the whole project is read: every file of the cycle
  files['main.tex'] = '\\documentclass{article}\n\\begin{document}\n\\input{c0}\nSee \\ref{sec:999} and \\ref{nolabel}.\n\\end{document}\n';
  return files;
}

function bib(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`@article{key${i},\n  author = {Author, A. and Other, B.},\n  title = {Title number ${i}},\n  journal = {J.},\n  year = {${1900 + (i % 120)}}\n}\n`);
  return out.join('');
}

const BINARY = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200_000, 0), Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 256))]);

const CASES: Crafted[] = [
  { name: 'large file (8 MB of theorems, proofs and aligns)', files: { 'big.tex': theorems(8) }, open: 'big.tex', seconds: 60, mb: 1500 },
  { name: '100,000 nested braces', files: { 'braces.tex': `\\documentclass{article}\n\\begin{document}\n${'{'.repeat(100_000)}x${'}'.repeat(100_000)}\n\\end{document}\n` }, open: 'braces.tex', seconds: 20, mb: 600 },
  { name: '10,000 nested environments, half unclosed', files: { 'envs.tex': `\\begin{document}\n${'\\begin{itemize}\\item '.repeat(10_000)}x${'\\end{itemize}'.repeat(5_000)}\n` }, open: 'envs.tex', seconds: 20, mb: 600, expect: /itemize/ },
  { name: 'binary file included', files: { 'main.tex': '\\documentclass{article}\n\\begin{document}\n\\input{blob}\n\\ref{nolabel}\n\\end{document}\n', 'blob.tex': BINARY }, open: 'main.tex', seconds: 20, mb: 600, expect: /nolabel/ },
  {
    name: 'self-expanding macros', open: 'macros.tex', seconds: 20, mb: 600,
    files: { 'macros.tex': '\\documentclass{article}\n\\def\\a{\\a}\n\\newcommand{\\b}{\\b\\b}\n\\def\\c#1{\\c{#1#1}}\n\\newcommand{\\myref}[1]{\\ref{#1}\\myref{#1}}\n\\newcommand{\\mylabel}[1]{\\label{\\mylabel{#1}}}\n\\begin{document}\n\\a \\b \\c{x} \\myref{x} \\mylabel{y}\n$\\a = \\b = \\c{1}$\n\\end{document}\n' },
  },
  { name: 'include cycle through 1,000 files', files: cycle(1000), open: 'main.tex', seconds: 60, mb: 800, expect: /nolabel/ },
  { name: 'one line of 5 MB', files: { 'line.tex': `\\documentclass{article}\n\\begin{document}\n${'$x_{1} = y$ \\ref{a} '.repeat(250_000)}\n\\end{document}\n` }, open: 'line.tex', seconds: 60, mb: 1200 },
  { name: '.bib of 100,000 entries', files: { 'main.tex': '\\documentclass{article}\n\\begin{document}\n\\cite{key5} \\cite{key99999} \\cite{nokey}\n\\bibliography{refs}\n\\end{document}\n', 'refs.bib': bib(100_000) }, open: 'main.tex', seconds: 60, mb: 1000, expect: /nokey/ },
  {
    name: 'symlink loops in the workspace folder', open: 'main.tex', seconds: 30, mb: 600,
    files: { 'main.tex': '\\documentclass{article}\n\\begin{document}\n\\input{sub/a}\n\\ref{nowhere}\n\\end{document}\n', 'sub/a.tex': 'A\n' },
    extra: (dir) => { fs.symlinkSync('.', path.join(dir, 'loop')); fs.symlinkSync('..', path.join(dir, 'sub', 'up')); fs.symlinkSync(path.join(dir, 'sub'), path.join(dir, 'sub', 'again')); },
    expect: /nowhere/,
  },
  { name: '20,000 labelled sections', files: { 'sections.tex': sections(20_000) }, open: 'sections.tex', seconds: 30, mb: 800 },
];

function sections(n: number): string {
  const parts = ['\\documentclass{book}\n\\begin{document}\n'];
  for (let i = 0; i < n; i++) parts.push(`${i % 50 === 0 ? `\\chapter{C${i}}\n` : ''}\\section{Section ${i}}\\label{sec:${i}}\nSee Section~\\ref{sec:${(i * 7) % n}}.\n\n`);
  return parts.join('') + '\\end{document}\n';
}

const measured: Array<{ name: string; seconds: number; peakMb: number | null; diagnostics: number; result: string }> = [];

for (const c of CASES) {
  test(`crafted input: ${c.name}`, { timeout: (c.seconds + 60) * 1000 }, async () => {
    const text = (f: string) => { const v = c.files[f]; return typeof v === 'string' ? v : v.toString('latin1'); };
    const strings = Object.fromEntries(Object.entries(c.files).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    await withServer(strings, {}, async ({ conn, dir, published, pid }) => {
      const uri = pathToFileURL(path.join(dir, c.open)).href;
      const t0 = performance.now();
      await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text: text(c.open) } });
      const deadline = t0 + c.seconds * 1000;
      // the diagnostics with what the case expects (or the first), then a hover is still answered
      const done = () => published.find((p) => p.uri === uri && (!c.expect || p.diagnostics.some((d) => c.expect!.test(String(d.message)))));
      while (!done() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 2, character: 3 } });
      // what an editor asks for a document it shows: its outline and folding ranges
      await conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
      await conn.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } });
      const seconds = (performance.now() - t0) / 1000;
      const hwm = vmStatus(pid).vmHwmBytes;
      const peakMb = hwm === null ? null : Math.round(hwm / 2 ** 20);
      const got = done();
      measured.push({ name: c.name, seconds: Math.round(seconds * 10) / 10, peakMb, diagnostics: got?.diagnostics.length ?? -1, result: got ? 'published' : 'nothing published in time' });
      assert.ok(got, `${c.name}: no diagnostics${c.expect ? ` matching ${c.expect}` : ''} within ${c.seconds} s`);
      assert.ok(seconds <= c.seconds, `${c.name}: ${seconds.toFixed(1)} s, ceiling ${c.seconds} s`);
      if (peakMb !== null) assert.ok(peakMb <= c.mb, `${c.name}: peak RSS ${peakMb} MB, ceiling ${c.mb} MB`);
    }, undefined, (dir) => {
      for (const [f, v] of Object.entries(c.files)) if (typeof v !== 'string') fs.writeFileSync(path.join(dir, f), v);
      c.extra?.(dir);
      return { rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'crafted' }] };
    });
  });
}

test('crafted inputs: the table', () => {
  const out = path.join(repoRoot, 'test-output');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'crafted-inputs.json'), `${JSON.stringify({ server: process.env.MATHSENSE_TEST_SERVER ?? 'this build', measured }, null, 2)}\n`);
});
