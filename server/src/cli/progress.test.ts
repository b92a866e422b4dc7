// `mathsense check` progress: one step per document, display-math blocks for a single
// document, the line erased before the report; the bar and the log format of progressBar;
// a file named explicitly whatever its extension.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCheck } from './check.js';
import { progressBar } from './progress.js';

test('check reports progress per document, and per display-math block for one document', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-progress-'));
  try {
    fs.writeFileSync(path.join(dir, 'a.tex'), '\\documentclass{article}\n\\begin{document}\n\\input{b}\n\\end{document}\n');
    // 450 display equations, the last derivation wrong
    const rows = Array.from({ length: 450 }, (_, i) => `\\[ x_{${i}} = ${i} \\]`).join('\n');
    fs.writeFileSync(path.join(dir, 'b.tex'), `${rows}\n\\begin{align*} (a+b)^2 &= a^2 + 2ab + b^2 \\\\ &= a^2 + b^2 \\end{align*}\n`);
    const calls: string[] = [];
    // the phase with folders dropped from its path
    const progress = (phase: string, done: number, total: number) => { calls.push(`${phase.replace(/\S*[\\/]/g, '')}|${done}/${total}`); };
    let out = '';
    assert.equal(runCheck({ paths: [dir], format: 'text', out: (s) => { out += s; }, err: () => {}, progress }), 0);
    assert.deepEqual(calls, ['checking a.tex|0/2', 'checking b.tex|1/2', '|1/1']);
    assert.match(out, /b\.tex:451:.*warning/);
    // a single file on its own reports its blocks
    const lone = path.join(dir, 'lone');
    fs.mkdirSync(lone);
    fs.copyFileSync(path.join(dir, 'b.tex'), path.join(lone, 'c.tex'));
    calls.length = 0;
    runCheck({ paths: [path.join(lone, 'c.tex')], format: 'json', out: () => {}, err: () => {}, progress });
    assert.deepEqual(calls.filter((c) => c.includes('derivations')), ['checking derivations in c.tex|0/451', 'checking derivations in c.tex|200/451', 'checking derivations in c.tex|400/451']);
    assert.equal(calls[calls.length - 1], '|1/1');
    // a file whose name is not a document's is checked as LaTeX, and says so
    fs.copyFileSync(path.join(dir, 'b.tex'), path.join(lone, 'notes.txt'));
    let err = '';
    assert.equal(runCheck({ paths: [path.join(lone, 'notes.txt')], format: 'text', out: () => {}, err: (s) => { err += s; } }), 0);
    assert.match(err, /notes\.txt is not a \.tex, \.ltx, .* file; reading it as LaTeX\n1 document checked: 0 errors, 1 other diagnostic/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('progress bar: redrawn in place on a terminal and erased; a line per phase and per 10 % in a log', () => {
  let tty = '';
  const bar = progressBar((s) => { tty += s; }, true);
  bar('checking', 5, 10);
  bar('', 1, 1);
  assert.equal(tty, '\r[###############---------------]  50% checking 5/10\u001b[K\r\u001b[K');
  let log = '';
  const lines = progressBar((s) => { log += s; }, false);
  for (let i = 0; i <= 20; i++) lines('embedding', i, 20);
  lines('', 1, 1);
  assert.deepEqual(log.trim().split('\n'), ['embedding 0/20 (0%)', 'embedding 2/20 (10%)', 'embedding 4/20 (20%)', 'embedding 6/20 (30%)', 'embedding 8/20 (40%)', 'embedding 10/20 (50%)', 'embedding 12/20 (60%)', 'embedding 14/20 (70%)', 'embedding 16/20 (80%)', 'embedding 18/20 (90%)', 'embedding 20/20 (100%)']);
});
