// Malformed and extreme input must never crash or hang the model: unclosed environments and
// braces, stray \end, structure inside math, a 10 MB file, binary and non-UTF-8 files, CRLF,
// very deep nesting and very long lines. Time bounds are generous: these are robustness
// tests, not performance tests. Inputs that might not terminate run in a worker thread that
// is terminated at the time limit, so a hang fails the test instead of stalling the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { LatexDocument } from './latexDocument.js';
import { analyseBlock } from '../syntax/blockAnalyser.js';
import { splitAll } from '../syntax/blockSplitter.js';
import { BlockCache, sharedBlockCache as sharedCache } from '../syntax/blockCache.js';
import { Workspace } from '../project/workspace.js';
import { pathToUri } from '../project/files.js';
import { computeDiagnostics } from '../features/diagnostics/documentDiagnostics.js';
import { labelTarget, proofTarget, statements } from '../analysis/structure.js';
import { runCheck } from '../cli/check.js';

// ---- helpers ------------------------------------------------------------------------------

const OUT = new URL('..', import.meta.url).href; // server/out/

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { analyseBlock } = await import(workerData.out + 'syntax/blockAnalyser.js');
  const { splitAll } = await import(workerData.out + 'syntax/blockSplitter.js');
  const { LatexDocument } = await import(workerData.out + 'model/latexDocument.js');
  const { BlockCache } = await import(workerData.out + 'syntax/blockCache.js');
  const text = workerData.text;
  parentPort.postMessage({ ready: true });
  const t0 = performance.now();
  const op = workerData.op;
  if (op === 'analyse' || op === 'all') analyseBlock(text);
  if (op === 'split' || op === 'all') splitAll(text);
  if (op === 'document' || op === 'all') {
    const d = new LatexDocument('file:///bounded.tex', text, 1, 'latex', new BlockCache());
    d.labels(); d.envs(); d.refs(); d.sections(); d.problems(); d.macros();
  }
  parentPort.postMessage({ ms: performance.now() - t0 });
})().catch((e) => parentPort.postMessage({ error: String((e && e.stack) || e) }));
`;

type Op = 'analyse' | 'split' | 'document' | 'all';

/**
 * Runs `op` on `text` in a worker; resolves with the time taken, rejects when it throws or
 * does not finish within `limitMs` (counted from when the modules are loaded).
 */
function bounded(op: Op, text: string, limitMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { eval: true, workerData: { out: OUT, op, text } });
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (f: () => void): void => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      void w.terminate();
      f();
    };
    w.on('message', (m: { ready?: boolean; ms?: number; error?: string }) => {
      if (m.ready) {
        timer = setTimeout(() => finish(() => reject(new Error(`${op} on ${text.length} chars did not finish within ${limitMs} ms`))), limitMs);
      } else if (m.error) finish(() => reject(new Error(m.error)));
      else if (m.ms !== undefined) finish(() => resolve(m.ms!));
    });
    w.on('error', (e) => finish(() => reject(e)));
    w.on('exit', (code) => finish(() => reject(new Error(`worker exited with ${code}`))));
  });
}

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-robust-'));
}

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

/**
 * Blocks cover the text contiguously; the document's views agree with a fresh parse (with an
 * empty cache unless `cache` is given: facts are keyed by block content, so sharing the cache
 * still re-splits from scratch, only faster).
 */
function assertConsistent(doc: LatexDocument, cache: BlockCache = new BlockCache()): void {
  const blocks = doc.blocks();
  assert.equal(blocks[0].start, 0);
  assert.equal(blocks[blocks.length - 1].end, doc.text.length);
  for (let i = 1; i < blocks.length; i++) assert.equal(blocks[i].start, blocks[i - 1].end);
  const fresh = new LatexDocument(doc.uri, doc.text, doc.version, 'latex', cache);
  assert.deepEqual(doc.blocks().map((b) => [b.start, b.end]), fresh.blocks().map((b) => [b.start, b.end]));
  // JSON rather than deepEqual: these arrays have 100k entries in the 10 MB test
  for (const view of ['labels', 'envs', 'refs', 'problems', 'sections', 'macros', 'includes'] as const) {
    assert.ok(JSON.stringify(doc[view]()) === JSON.stringify(fresh[view]()), `${view} differ from a fresh parse`);
  }
}

function insert(doc: LatexDocument, offset: number, text: string): void {
  const p = doc.positionAt(offset);
  doc.applyChanges([{ range: { start: p, end: p }, text }], doc.version + 1);
}

function replace(doc: LatexDocument, start: number, end: number, text: string): void {
  doc.applyChanges([{ range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text }], doc.version + 1);
}

/** Every feature that walks the model, on one document. */
function exercise(ws: Workspace, uri: string): void {
  const d = ws.get(uri)!;
  computeDiagnostics(ws, d, { unusedLabels: true, structure: true });
  statements(ws, d);
  d.envs().forEach((e, i) => { if (e.name === 'proof') proofTarget(ws, d, i); });
  for (const l of d.labels()) labelTarget(ws, d, l);
}

// ---- malformed structure ------------------------------------------------------------------

test('unclosed environments are reported and extend to the block end', () => {
  const f = analyseBlock('\\begin{theorem}\\label{t}\nStatement with $x$.\n\\begin{itemize}\\item one');
  assert.deepEqual(f.envs.map((e) => [e.name, e.closed, e.end]), [['theorem', false, 69], ['itemize', false, 69]]);
  assert.deepEqual(f.problems.map((p) => p.code), ['unclosed-environment', 'unclosed-environment']);
  assert.equal(f.labels[0].name, 't');
  assert.equal(f.labels[0].env, 0);
});

test('an outer \\end closes inner unclosed environments', () => {
  const f = analyseBlock('\\begin{proof}\\begin{enumerate}\\item a\n\\end{proof}');
  assert.deepEqual(f.envs.map((e) => [e.name, e.closed]), [['proof', true], ['enumerate', false]]);
  assert.equal(f.envs[1].end, f.envs[0].bodyEnd);
  assert.deepEqual(f.problems.map((p) => p.message), ['\\begin{enumerate} is never closed']);
});

test('stray \\end is reported with its range', () => {
  const text = 'Text.\n\\end{lemma} more \\end{}';
  const f = analyseBlock(text);
  assert.equal(f.envs.length, 0);
  assert.equal(f.problems.length, 2);
  assert.equal(f.problems[0].code, 'unmatched-end');
  assert.equal(text.slice(f.problems[0].start, f.problems[0].end), '\\end{lemma}');
});

test('unclosed and unbalanced braces do not hide later facts', () => {
  for (const text of ['{{{ \\label{a} \\ref{b}', '}}} \\label{a} \\ref{b}', '\\textbf{ \\label{a} \\ref{b}', '\\label{a} \\ref{b} {']) {
    const f = analyseBlock(text);
    assert.deepEqual(f.labels.map((l) => l.name), ['a'], text);
    assert.deepEqual(f.refs.map((r) => r.name), ['b'], text);
  }
  // an unclosed argument is not a label
  assert.deepEqual(analyseBlock('\\label{abc').labels, []);
  assert.deepEqual(analyseBlock('\\ref{').refs, []);
});

test('\\begin/\\end inside math and math inside environments', () => {
  const cases = [
    '$\\begin{lemma}$ text \\end{lemma}',
    '\\[ \\begin{proof} \\]',
    '$$ \\end{equation} $$',
    '\\begin{align} a \\begin{equation} x \\end{align}',
    '\\begin{equation} $$ x $$ \\end{equation}',
    '\\[ \\[ x \\] \\]',
    '$$ $x$ $$ $',
    '\\begin{align} a \\\\ b \\label{r} \\\\[2pt] c \\end{align} \\]',
  ];
  for (const text of cases) {
    const f = analyseBlock(text);
    for (const e of f.envs) {
      assert.ok(e.start <= e.bodyStart && e.bodyStart <= e.bodyEnd && e.bodyEnd <= e.end && e.end <= text.length, `${text}: ${JSON.stringify(e)}`);
    }
    const doc = new LatexDocument('file:///m.tex', text, 1);
    assertConsistent(doc);
  }
  const f = analyseBlock('\\begin{align} a \\begin{equation} x \\end{align}');
  assert.deepEqual(f.problems.map((p) => p.message), ['\\begin{equation} is never closed']);
  const g = analyseBlock('\\begin{align} a \\\\ b \\label{r} \\\\[2pt] c \\end{align}');
  assert.equal(g.labels[0].row, 1);
  assert.equal(g.envs[0].rows?.length, 3);
});

test('every prefix of a tricky snippet analyses, splits and edits consistently', () => {
  const snippet = '%!TeX root = m.tex\n\\newcommand{\\x}[1]{\\begin{lemma}#1}\n\\section*[s]{A}\\label{s}\n\n' +
    '\\begin{lemma}[T \\ref{s}]\\label{l}\\verb|\\end{lemma}|$a$$$b$$\\[c\\]\\begin{align}x\\\\y\\notag\\end{align}\n' +
    '\\end{lemma}\n\\begin{verbatim}\n\\begin{x}\n\n\\end{verbatim}\\cite[p]{k}\\cref{a,b}\\input{f}\\url{%}\\\\';
  for (let n = 0; n <= snippet.length; n++) {
    const text = snippet.slice(0, n);
    analyseBlock(text);
    const starts = splitAll(text);
    assert.equal(starts[0], 0);
    for (let i = 1; i < starts.length; i++) assert.ok(starts[i] > starts[i - 1] && starts[i] < text.length);
  }
  // and typed into a document one character at a time
  const doc = new LatexDocument('file:///typed.tex', '', 1);
  for (let n = 0; n < snippet.length; n++) insert(doc, n, snippet[n]);
  assert.equal(doc.text, snippet);
  assertConsistent(doc);
  // then deleted from the front one character at a time
  while (doc.text.length > 0) {
    replace(doc, 0, 1, '');
    if (doc.text.length % 17 === 0) assertConsistent(doc);
  }
  assertConsistent(doc);
  assert.deepEqual(doc.blocks().map((b) => [b.start, b.end]), [[0, 0]]);
});

test('edits at odd positions: past the end, empty, whole-text, empty change lists', () => {
  const doc = new LatexDocument('file:///e.tex', 'a\n\n\\label{x}\n\nb', 1);
  doc.applyChanges([{ range: { start: { line: 99, character: 0 }, end: { line: 120, character: 4 } }, text: '\n\n\\label{y}' }], 2);
  assert.deepEqual(doc.labels().map((l) => l.name), ['x', 'y']);
  assertConsistent(doc);
  doc.applyChanges([{ range: { start: { line: 0, character: 500 }, end: { line: 0, character: 500 } }, text: 'Z' }], 3);
  assert.ok(doc.text.startsWith('aZ\n'));
  assertConsistent(doc);
  doc.applyChanges([], 4);
  assert.equal(doc.version, 4);
  doc.applyChanges([{ text: '' }], 5);
  assert.equal(doc.text, '');
  assertConsistent(doc);
  doc.applyChanges([{ text: '\\begin{lemma}\\label{z}' }, { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'q\n\n' }], 6);
  assert.deepEqual(doc.labels().map((l) => l.name), ['z']);
  assertConsistent(doc);
});

// LSP ranges are not guaranteed to be ordered; vscode-languageserver-textdocument swaps a
// reversed range (start after end) before applying it, but LatexDocument.applyChanges takes
// offsetAt(range.start) / offsetAt(range.end) as they come, so its blocks no longer match the
// text (here the last block ends at 30 in a 22-character text).
test('a reversed change range (end before start) keeps blocks consistent with the text', () => {
  const doc = new LatexDocument('file:///r.tex', 'a\n\nbb\n\ncc\n\ndd\n\nee\n\nff\n\ngg', 1);
  doc.applyChanges([{ range: { start: { line: 4, character: 0 }, end: { line: 2, character: 0 } }, text: 'X' }], 2);
  assert.equal(doc.text, 'a\n\nXcc\n\ndd\n\nee\n\nff\n\ngg');
  assertConsistent(doc);
});

// ---- size and depth -----------------------------------------------------------------------

/** A generated document of about `bytes` characters with unique, resolvable labels. */
function generated(bytes: number): string {
  const parts: string[] = ['\\documentclass{article}\n\\begin{document}\n\n'];
  let size = parts[0].length;
  for (let n = 0; size < bytes; n++) {
    const p = `\\section{Part ${n}}\\label{sec-${n}}\n\nSome text about $x_{${n}}$, see \\cref{sec-${n}}.\n\n` +
      `\\begin{lemma}\\label{lem-${n}}\nLet $f$ be a map. Then\n\\begin{align}\na &= b \\label{eq-${n}}\\\\\nc &= d \\notag\n\\end{align}\n\\end{lemma}\n\n` +
      `\\begin{proof}\nBy \\eqref{eq-${n}} and Lemma~\\ref{lem-${n}}.\n\\end{proof}\n\n`;
    parts.push(p);
    size += p.length;
  }
  parts.push('\\end{document}\n');
  return parts.join('');
}

test('a 10 MB document: analysis, diagnostics and edits in bounded time', { timeout: 180_000 }, () => {
  const text = generated(10 * 1024 * 1024);
  assert.ok(text.length >= 10 * 1024 * 1024);
  const ws = new Workspace();
  const uri = 'file:///robust/big.tex';
  const [doc, openMs] = time(() => ws.open(uri, 'latex', 1, text) as LatexDocument);
  const units = (text.match(/\\begin\{lemma\}/g) ?? []).length;
  assert.equal(doc.labels().length, units * 3);
  assert.equal(doc.envs().filter((e) => e.name === 'lemma').length, units);
  assert.deepEqual(doc.problems(), []);
  assert.ok(openMs < 20_000, `open took ${openMs.toFixed(0)} ms`);
  const [diags, diagMs] = time(() => computeDiagnostics(ws, doc));
  assert.deepEqual(diags, []);
  assert.ok(diagMs < 20_000, `diagnostics took ${diagMs.toFixed(0)} ms`);

  // edits go through the workspace, as the server sends them
  const wsReplace = (start: number, end: number, t: string): void => {
    ws.change(uri, [{ range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text: t }], doc.version + 1);
  };
  const edits: Array<[string, () => void]> = [
    ['type a character in the middle', () => wsReplace(doc.text.length >> 1, doc.text.length >> 1, 'x')],
    ['break a label near the end', () => {
      const at = doc.text.lastIndexOf('\\label{lem-');
      wsReplace(at, at + 7, '\\lab');
    }],
    ['open a verbatim environment near the top (the rest becomes one block)', () => wsReplace(200, 200, '\\begin{verbatim}')],
    ['close it again', () => { const at = doc.text.indexOf('\\begin{verbatim}'); wsReplace(at, at + 16, ''); }],
    ['delete the middle third', () => wsReplace(Math.floor(doc.text.length / 3), Math.floor((2 * doc.text.length) / 3), '')],
    ['paste the first megabyte back in (duplicate labels)', () => wsReplace(100, 100, text.slice(0, 1024 * 1024))],
  ];
  for (const [what, edit] of edits) {
    const [, ms] = time(() => {
      edit();
      doc.labels(); doc.envs(); doc.problems();
    });
    assert.ok(ms < 10_000, `${what}: ${ms.toFixed(0)} ms`);
  }
  assertConsistent(doc, sharedCache);
  const [after, ms] = time(() => computeDiagnostics(ws, doc));
  assert.ok(after.some((d) => d.code === 'duplicate-label'));
  assert.ok(after.some((d) => d.code === 'undefined-ref'), 'the broken \\label leaves its refs undefined');
  assert.ok(ms < 30_000, `diagnostics after edits took ${ms.toFixed(0)} ms`);
});

test('100k nested braces', async () => {
  const open = '{'.repeat(100_000);
  const close = '}'.repeat(100_000);
  for (const text of [open + '\\label{deep}', open + close, close + open, '\\newcommand{\\x}{' + open + close + '}', '\\label{' + open, '\\def\\a' + open]) {
    await bounded('all', text, 5_000);
  }
  const f = analyseBlock(open + '\\label{deep}\\ref{deep}' + close);
  assert.deepEqual(f.labels.map((l) => l.name), ['deep']);
  assert.deepEqual(f.refs.map((r) => r.name), ['deep']);
  const doc = new LatexDocument('file:///b.tex', open + '\n\n\\label{x}\n\n' + close, 1);
  insert(doc, 50_000, '}\n\n');
  assertConsistent(doc);
});

test('10k nested environments, closed and unclosed', async () => {
  const n = 10_000;
  const closed = '\\begin{itemize}\n'.repeat(n) + '\\label{inner}\n' + '\\end{itemize}\n'.repeat(n);
  const unclosed = '\\begin{enumerate}\n'.repeat(n) + '\\label{inner}\n';
  await bounded('all', closed, 10_000);
  await bounded('all', unclosed, 10_000);
  const f = analyseBlock(closed);
  assert.equal(f.envs.length, n);
  assert.ok(f.envs.every((e, i) => e.closed && e.parent === i - 1));
  assert.deepEqual(f.problems, []);
  assert.equal(f.labels[0].env, n - 1);
  const g = analyseBlock(unclosed);
  assert.equal(g.problems.length, n);
  // features walk the parent chain of the innermost label
  const ws = new Workspace();
  ws.open('file:///robust/nested.tex', 'latex', 1, closed);
  exercise(ws, 'file:///robust/nested.tex');
  const doc = ws.get('file:///robust/nested.tex')!;
  assert.equal(labelTarget(ws, doc, doc.labels()[0]).kind, 'item');
});

test('extremely long lines', async () => {
  // 2 MB on a single line, with the usual mix of structure (no line breaks, so one block)
  const line = generated(2 * 1024 * 1024).replace(/\n/g, ' ').replace(/\\section\{[^}]*\}/g, '\\textbf{S}');
  await bounded('all', line, 10_000);
  const doc = new LatexDocument('file:///long.tex', line, 1);
  assert.equal(doc.blocks().length, 1);
  assert.equal(doc.labels().length, (line.match(/\\label\{/g) ?? []).length);
  insert(doc, line.length >> 1, '\n\n');
  assertConsistent(doc);
  // a long line of a single character, and one of alternating specials
  await bounded('all', 'x'.repeat(5_000_000), 10_000);
  await bounded('all', '$\\'.repeat(1_000_000), 10_000);
  await bounded('all', '%'.repeat(1_000_000) + '\n\\label{a}', 10_000);
  await bounded('all', '\\['.repeat(500_000), 10_000);
  await bounded('all', '\\\\'.repeat(500_000), 10_000);
  await bounded('all', '\\begin{align}' + 'a\\\\'.repeat(300_000) + '\\end{align}', 10_000);
});

// ---- super-linear cases ---------------------------------------------------------------------
// Inputs of at most a few hundred KB on which a linear scan takes milliseconds. Each bound is
// far above that; the current code exceeds it because of the construct named in the test.

test('magic comment with a long run of spaces (MAGIC_RE backtracking in blockAnalyser comment())', async () => {
  // `(.*?)\s*$` retries the trailing \s* at every position: quadratic in the line length
  await bounded('analyse', '%!TeX root = a' + ' '.repeat(40_000) + 'x\n', 1_000);
});

test('many \\section commands on one line (splitter looks back to the line start for each)', async () => {
  // scanBoundaries: text.lastIndexOf('\n', i - 1) and text.slice(ls, i) per sectioning command
  await bounded('split', '\\section{x} '.repeat(20_000), 1_500);
});

test('deep unclosed nesting followed by many stray \\end (each searches the whole stack)', async () => {
  const n = 20_000;
  await bounded('all', '\\begin{itemize}\n'.repeat(n) + '\\end{foo}\n'.repeat(n), 2_000);
});

test('many unclosed definition bodies (each scans ahead up to 50,000 characters)', async () => {
  await bounded('all', '\\newcommand{\\a}{'.repeat(4_000), 1_000);
});

test('many \\verb{ arguments (each scans ahead up to 5,000 characters)', async () => {
  await bounded('all', '\\verb{x '.repeat(40_000), 1_500);
});

test('many \\def without a body brace (analyser searches the whole rest for "{")', async () => {
  await bounded('analyse', '\\def\\a x\n'.repeat(200_000), 1_500);
});

// ---- files: binary, encodings, line endings -------------------------------------------------

test('a binary file is refused with a read error; including documents are unaffected', () => {
  const dir = tmpDir();
  try {
    const bin = path.join(dir, 'figure.tex');
    fs.writeFileSync(bin, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
    const main = path.join(dir, 'main.tex');
    fs.writeFileSync(main, '\\documentclass{article}\n\\begin{document}\n\\input{figure}\n\\label{a}\\ref{a}\n\\end{document}\n');
    const ws = new Workspace();
    const errors: string[] = [];
    ws.onReadError = (uri, reason) => errors.push(`${uri} ${reason}`);
    assert.equal(ws.loadFile(bin), undefined);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /binary/);
    assert.match(ws.readError(pathToUri(bin)) ?? '', /binary/);
    assert.equal(ws.get(pathToUri(bin)), undefined, 'the binary file is skipped, not half-loaded');
    const doc = ws.loadFile(main)!;
    assert.deepEqual(ws.children(doc), []);
    assert.deepEqual(computeDiagnostics(ws, doc), []);

    // a file that was readable and turns binary keeps its last text, with an 'unreadable' warning
    const chapter = path.join(dir, 'chapter.tex');
    fs.writeFileSync(chapter, '\\section{A}\\label{sec}\n');
    const ch = ws.loadFile(chapter)!;
    fs.writeFileSync(chapter, Buffer.from('\\section{A}\0\0\0'));
    assert.equal(ws.loadFile(chapter, true), undefined);
    assert.equal(ws.get(pathToUri(chapter)), ch);
    const diags = computeDiagnostics(ws, ch);
    assert.deepEqual(diags.map((d) => [d.code, d.severity]), [['unreadable', 2]]);
    assert.match(String(diags[0].message), /binary/);
    // and recovers when it is readable again
    fs.writeFileSync(chapter, '\\section{B}\\label{sec}\n');
    assert.ok(ws.loadFile(chapter, true));
    assert.equal(ws.readError(pathToUri(chapter)), undefined);
    assert.deepEqual(computeDiagnostics(ws, ch), []);
    assert.equal(ch.sections()[0].title, 'B');

    // the CLI reports it and goes on with the other files
    let err = '';
    let out = '';
    assert.equal(runCheck({ paths: [bin], format: 'text', out: (s) => { out += s; }, err: (s) => { err += s; } }), 2);
    assert.match(err, /cannot read .*figure\.tex: binary/);
    err = '';
    assert.equal(runCheck({ paths: [dir], format: 'json', out: (s) => { out += s; }, err: (s) => { err += s; } }), 0);
    assert.match(err, /cannot read .*figure\.tex/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('NUL and other control characters in editor text do not disturb the analysis', () => {
  const text = '\0\0\\label{a}\0\\begin{lemma}\0\\label{b}\u0001\\end{lemma}\0\n\n\0\\ref{a}\uFFFF\uD800';
  const ws = new Workspace();
  ws.open('file:///robust/nul.tex', 'latex', 1, text);
  const doc = ws.get('file:///robust/nul.tex')!;
  assert.deepEqual(doc.labels().map((l) => l.name), ['a', 'b']);
  assert.deepEqual(doc.refs().map((r) => r.name), ['a']);
  exercise(ws, doc.uri);
});

test('Latin-1 files are decoded as Latin-1; a UTF-8 BOM is dropped; UTF-16 is refused', () => {
  const dir = tmpDir();
  try {
    const ws = new Workspace();
    const latin = path.join(dir, 'latin.tex');
    fs.writeFileSync(latin, Buffer.from('\\section{Caf\xe9 na\xefve}\\label{sec:caf\xe9}\nSee \\ref{sec:caf\xe9}. \xa7 \xb5\n', 'latin1'));
    const doc = ws.loadFile(latin)!;
    assert.ok(doc);
    assert.equal(doc.sections()[0].title, 'Café naïve');
    assert.deepEqual(doc.labels().map((l) => l.name), ['sec:café']);
    assert.deepEqual(computeDiagnostics(ws, doc), []);
    const at = doc.text.indexOf('sec:café');
    assert.deepEqual(doc.range(doc.labels()[0].start, doc.labels()[0].end), { start: { line: 0, character: at }, end: { line: 0, character: at + 8 } });

    // mostly UTF-8 with one invalid byte: the whole file falls back to Latin-1
    const mixed = path.join(dir, 'mixed.tex');
    fs.writeFileSync(mixed, Buffer.concat([Buffer.from('\\label{ok} é ', 'utf8'), Buffer.from([0xff]), Buffer.from(' \\ref{ok}\n')]));
    const m = ws.loadFile(mixed)!;
    assert.deepEqual(m.labels().map((l) => l.name), ['ok']);
    assert.ok(m.text.includes('\u00c3\u00a9'), 'é read as Latin-1');

    const bom = path.join(dir, 'bom.tex');
    fs.writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\\label{x}\n')]));
    const b = ws.loadFile(bom)!;
    assert.equal(b.text, '\\label{x}\n');
    assert.equal(b.labels()[0].start, 7);

    const utf16 = path.join(dir, 'utf16.tex');
    fs.writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('\\label{x}\n', 'utf16le')]));
    assert.equal(ws.loadFile(utf16), undefined);
    assert.match(ws.readError(pathToUri(utf16)) ?? '', /binary/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a file over the size cap is refused', () => {
  const dir = tmpDir();
  try {
    const big = path.join(dir, 'huge.tex');
    const fd = fs.openSync(big, 'w');
    fs.ftruncateSync(fd, 33 * 1024 * 1024); // sparse: cheap to create
    fs.closeSync(fd);
    const ws = new Workspace();
    assert.equal(ws.loadFile(big), undefined);
    assert.match(ws.readError(pathToUri(big)) ?? '', /too large/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('CRLF line endings: same facts and the same line/character ranges as LF', () => {
  const lf = '%!TeX root = main.tex\n\\section{Intro}\\label{sec:intro}\n\nText \\ref{lem:a}.\n\n' +
    '\\begin{lemma}[Title]\n\\label{lem:a}\nStatement.\n\\end{lemma}\n\\begin{proof}\nBy \\eqref{eq:x}.\n\\end{proof}\n\n' +
    '\\begin{align}\n  a &= b \\label{eq:x} \\\\\n  c &= d\n\\end{align}\n% comment \\label{no}\n\\verb|%|\\label{yes}\n';
  const crlf = lf.replace(/\n/g, '\r\n');
  const a = new LatexDocument('file:///lf.tex', lf, 1);
  const b = new LatexDocument('file:///crlf.tex', crlf, 1);
  assert.equal(b.blocks().length, a.blocks().length);
  const where = (d: LatexDocument) => d.labels().map((l) => [l.name, d.range(l.start, l.end), l.row]);
  assert.deepEqual(where(b), where(a));
  assert.deepEqual(b.labels().map((l) => l.name), ['sec:intro', 'lem:a', 'eq:x', 'yes']);
  assert.deepEqual(b.refs().map((r) => [r.name, b.range(r.start, r.end)]), a.refs().map((r) => [r.name, a.range(r.start, r.end)]));
  assert.deepEqual(b.envs().map((e) => [e.name, b.range(e.start, e.end), e.rows?.length]), a.envs().map((e) => [e.name, a.range(e.start, e.end), e.rows?.length]));
  assert.deepEqual(b.sections().map((s) => s.title), ['Intro']);
  assert.deepEqual(b.magic().map((m) => [m.key, m.value]), [['root', 'main.tex']]);
  assert.deepEqual(b.problems(), []);
  // edits on the CRLF document, incremental == fresh
  insert(b, crlf.indexOf('Statement'), '\\label{new}\r\n\r\n');
  replace(b, crlf.indexOf('\r\n\r\nText'), crlf.indexOf('\r\n\r\nText') + 4, '');
  assertConsistent(b);
  // and from disk
  const dir = tmpDir();
  try {
    const file = path.join(dir, 'crlf.tex');
    fs.writeFileSync(file, crlf);
    const ws = new Workspace();
    const d = ws.loadFile(file)!;
    assert.deepEqual(where(d as LatexDocument), where(a));
    // \ref{lem:a}, \eqref{eq:x} resolve; the labels inside comments do not exist
    assert.deepEqual(computeDiagnostics(ws, d).filter((x) => x.code === 'undefined-ref'), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('old Mac CR-only line endings do not break anything', () => {
  const text = '\\section{A}\r\\label{a}\r\r\\begin{lemma}\r\\label{b}\r\\end{lemma}\r\\ref{a}';
  const doc = new LatexDocument('file:///cr.tex', text, 1);
  assert.deepEqual(doc.labels().map((l) => l.name), ['a', 'b']);
  assert.equal(doc.range(doc.labels()[1].start, doc.labels()[1].end).start.line, 4);
  insert(doc, 12, 'x\r\r');
  assertConsistent(doc);
});
