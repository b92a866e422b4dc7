// TextBuffer against an independent reference, vscode-languageserver-textdocument's TextDocument:
// the same positions, offsets and line counts after the same random edits, on text with `\n`,
// `\r` and `\r\n` line ends (edits that join or part a `\r\n` included), and with line offsets
// built a few characters at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { TextBuffer, type TextChange } from './textBuffer.js';
import { seededRandom } from '../util/random.js';

const PIECES = ['a', 'bc', ' ', '\n', '\r', '\r\n', '\\label{x}', 'é', '😀', '\n\n', '\r\r\n'];

function randomText(rand: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(rand() * PIECES.length)];
  return s;
}

function samePositions(buf: TextBuffer, ref: TextDocument, rand: () => number): void {
  assert.equal(buf.text, ref.getText());
  assert.equal(buf.lineCount, ref.lineCount);
  for (let k = 0; k < 40; k++) {
    const off = Math.floor(rand() * (buf.text.length + 4)) - 2;
    assert.deepEqual(buf.positionAt(off), ref.positionAt(off), `positionAt(${off})`);
    const pos = { line: Math.floor(rand() * (ref.lineCount + 2)) - 1, character: Math.floor(rand() * 12) - 1 };
    assert.equal(buf.offsetAt(pos), ref.offsetAt(pos), `offsetAt(${JSON.stringify(pos)})`);
  }
}

test('positions, offsets and line counts as TextDocument gives them, over random edits', () => {
  const rand = seededRandom(7);
  for (let doc = 0; doc < 60; doc++) {
    const text = randomText(rand, 1 + Math.floor(rand() * 60));
    const buf = new TextBuffer(text, 1, 'latex');
    let ref = TextDocument.create('file:///x.tex', 'latex', 1, text);
    // half the documents have their line offsets built in slices of a few characters
    if (doc % 2) while (!buf.buildLines(-1, 1 + Math.floor(rand() * 7)));
    samePositions(buf, ref, rand);
    for (let v = 2; v < 30; v++) {
      // a batch of one or two changes, each drawn against the text the one before it left:
      // TextDocument gives wrong line offsets for a range past the end
      const changes: TextChange[] = [];
      for (let c = 0; c < 1 + Math.floor(rand() * 2); c++) {
        let change: TextChange;
        if (rand() < 0.05) change = { text: randomText(rand, 5) };
        else {
          const a = { line: Math.floor(rand() * ref.lineCount), character: Math.floor(rand() * 8) };
          const b = { line: Math.min(ref.lineCount - 1, Math.max(0, a.line + Math.floor(rand() * 3) - 1)), character: Math.floor(rand() * 8) };
          change = { range: { start: a, end: b }, text: rand() < 0.3 ? '' : randomText(rand, Math.floor(rand() * 4)) };
        }
        changes.push(change);
        ref = TextDocument.update(ref, [{ ...change }], v);
      }
      buf.update(changes, v);
      assert.equal(buf.version, v);
      // an edit made while the offsets are half built starts their build again
      if (rand() < 0.3) buf.buildLines(-1, 3);
      samePositions(buf, ref, rand);
    }
  }
});

test('a sliced build stops at the deadline and goes on from where it stopped', () => {
  const text = 'line\n'.repeat(5000) + 'a\r\nb\rc';
  const buf = new TextBuffer(text, 1, 'latex');
  let steps = 0;
  while (!buf.buildLines(-1, 1000)) steps++;
  assert.ok(steps >= 20, `built in ${steps} steps`);
  const ref = TextDocument.create('file:///x.tex', 'latex', 1, text);
  assert.equal(buf.lineCount, ref.lineCount);
  assert.deepEqual(buf.positionAt(text.length - 1), ref.positionAt(text.length - 1));
});

test('a `\\r\\n` cut by a slice boundary is one line end', () => {
  const text = 'ab\r\ncd';
  for (let chunk = 1; chunk <= text.length; chunk++) {
    const buf = new TextBuffer(text, 1, 'latex');
    while (!buf.buildLines(-1, chunk));
    assert.equal(buf.lineCount, 2, `chunk ${chunk}`);
    assert.deepEqual(buf.positionAt(4), { line: 1, character: 0 });
  }
});

test('an edit at a position past the end applies at the end, and lines stay counted right', () => {
  const buf = new TextBuffer('a\nb', 1, 'latex');
  void buf.lineCount;
  buf.update([{ range: { start: { line: 5, character: 0 }, end: { line: 7, character: 3 } }, text: '\nc\nd' }], 2);
  assert.equal(buf.text, 'a\nb\nc\nd');
  const fresh = new TextBuffer(buf.text, 2, 'latex');
  assert.equal(buf.lineCount, fresh.lineCount);
  for (let o = 0; o <= buf.text.length; o++) assert.deepEqual(buf.positionAt(o), fresh.positionAt(o));
});
