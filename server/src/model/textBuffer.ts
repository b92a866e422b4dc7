// A document's text, version and line offsets: the positions LSP speaks in (lines and UTF-16
// characters, with `\n`, `\r` and `\r\n` as line ends) to offsets and back, and the editor's
// incremental changes applied to it. It behaves as vscode-languageserver-textdocument's
// TextDocument does (a test compares the two over random edits), and adds what a document of
// tens of megabytes needs: its line offsets can be built a slice at a time between requests
// (`buildLines`), instead of all at once inside whichever request asks first.
import type { Position, Range } from 'vscode-languageserver-types';
import { lowerBound } from '../util/lowerBound.js';

export type TextChange = { range: Range; rangeLength?: number; text: string } | { text: string };

const LF = 10;
const CR = 13;

/** Characters between two looks at the clock while line offsets are built in slices. */
const LINES_CHUNK = 1 << 18;

export class TextBuffer {
  private lineOffsets: number[] | undefined;
  /** While line offsets are built in slices: those found so far, and where the scan is. */
  private partial: { offsets: number[]; at: number; cr: number } | undefined;

  constructor(private content: string, private ver: number, readonly languageId: string) {}

  get text(): string { return this.content; }
  get version(): number { return this.ver; }

  get lineCount(): number { return this.lines().length; }

  /** Builds line offsets until `deadline` (a `performance.now()` time); true once they are built. */
  buildLines(deadline: number, chunk = LINES_CHUNK): boolean {
    if (this.lineOffsets) return true;
    const text = this.content;
    const p = (this.partial ??= { offsets: [0], at: 0, cr: text.indexOf('\r') });
    while (p.at < text.length) {
      const to = Math.min(text.length, p.at + chunk);
      p.at = scanLines(text, p.at, to, p.cr, p.offsets);
      if (p.cr >= 0 && p.cr < p.at) p.cr = text.indexOf('\r', p.at);
      if (p.at < text.length && performance.now() > deadline) return false;
    }
    this.lineOffsets = p.offsets;
    this.partial = undefined;
    return true;
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.content.length), 0);
    const lines = this.lines();
    const line = this.lineOf(offset, lines);
    return { line, character: this.beforeEol(offset, lines[line]) - lines[line] };
  }

  /** The line `offset` is on: the last line starting at or before it. */
  private lineOf(offset: number, lines: readonly number[]): number {
    return lowerBound(lines.length, (i) => lines[i] <= offset) - 1;
  }

  offsetAt(position: Position): number {
    const lines = this.lines();
    if (position.line >= lines.length) return this.content.length;
    if (position.line < 0) return 0;
    const start = lines[position.line];
    if (position.character <= 0) return start;
    const next = position.line + 1 < lines.length ? lines[position.line + 1] : this.content.length;
    return this.beforeEol(Math.min(start + position.character, next), start);
  }

  /** Applies LSP content changes in order, then takes `version` (also for an empty list). */
  update(changes: readonly TextChange[], version: number): void {
    for (const change of changes) {
      if (!('range' in change) || !change.range) {
        this.replaceAll(change.text);
        continue;
      }
      const range = ordered(change.range);
      const start = this.offsetAt(range.start);
      const end = this.offsetAt(range.end);
      this.content = this.content.slice(0, start) + change.text + this.content.slice(end);
      // offsets kept while they are being built would point into the old text: build anew
      this.partial = undefined;
      const lines = this.lineOffsets;
      if (!lines) continue;
      const insertedEnd = start + change.text.length;
      // a `\r` and a `\n` that the edit joined or parted make one line end or two: count again
      if (this.crlfAt(start) || this.crlfAt(insertedEnd)) { this.lineOffsets = undefined; continue; }
      // lines of the offsets, not of the range: a position past the end is clamped as offsetAt clamps it
      const startLine = this.lineOf(start, lines);
      const endLine = this.lineOf(end, lines);
      const added: number[] = [];
      scanLines(change.text, 0, change.text.length, change.text.indexOf('\r'), added, start);
      lines.splice(startLine + 1, endLine - startLine, ...added);
      const diff = change.text.length - (end - start);
      if (diff !== 0) for (let i = startLine + 1 + added.length; i < lines.length; i++) lines[i] += diff;
    }
    this.ver = version;
  }

  private replaceAll(text: string): void {
    this.content = text;
    this.lineOffsets = undefined;
    this.partial = undefined;
  }

  private lines(): number[] {
    if (!this.lineOffsets) this.buildLines(Infinity);
    return this.lineOffsets!;
  }

  private crlfAt(offset: number): boolean {
    return this.content.charCodeAt(offset - 1) === CR && this.content.charCodeAt(offset) === LF;
  }

  /** `offset` moved back off the line-end characters before it, not past `lineStart`. */
  private beforeEol(offset: number, lineStart: number): number {
    while (offset > lineStart && isEol(this.content.charCodeAt(offset - 1))) offset--;
    return offset;
  }
}

function isEol(c: number): boolean {
  return c === LF || c === CR;
}

function ordered(r: Range): Range {
  const s = r.start;
  const e = r.end;
  return s.line > e.line || (s.line === e.line && s.character > e.character) ? { start: e, end: s } : r;
}

/**
 * Pushes `base` plus the offset after each line end in text[from, to) onto `out`, and returns
 * where the scan stopped (past `to` when a `\r\n` straddles it). `cr` is the first `\r` at or
 * after `from` (-1: none): a stretch without one is scanned with indexOf, the common case and
 * many times faster than a loop over characters.
 */
function scanLines(text: string, from: number, to: number, cr: number, out: number[], base = 0): number {
  let i = from;
  if (cr < 0 || cr >= to) {
    for (;;) {
      const p = text.indexOf('\n', i);
      // no line end left: done, unless a `\r` further on is one
      if (p < 0) return cr < 0 ? text.length : to;
      // past `to` up to the next line end, so that a line longer than a slice is looked for once
      if (p >= to && cr >= 0 && p > cr) return to;
      out.push(base + p + 1);
      i = p + 1;
      if (i >= to) return i;
    }
  }
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === CR) {
      if (text.charCodeAt(i + 1) === LF) i++;
      out.push(base + i + 1);
    } else if (c === LF) out.push(base + i + 1);
  }
  return i;
}
