// Inline snapshots: the expected rendering lives in the test, next to the fixture.
import * as assert from 'node:assert/strict';
import { dedent } from './fixture.js';
import type { Doc } from '../project/workspace.js';

export function assertSnapshot(actual: string, expected: string): void {
  assert.equal(actual.trimEnd(), dedent(expected));
}

/** `file:line:col-line:col` of an offset range, 1-based like editors show it. */
export function loc(doc: Doc, start: number, end: number): string {
  const a = doc.positionAt(start);
  const b = doc.positionAt(end);
  const name = doc.uri.slice(doc.uri.lastIndexOf('/') + 1);
  return `${name}:${a.line + 1}:${a.character + 1}-${b.line + 1}:${b.character + 1}`;
}

/** Renders an LSP range compactly. */
export function rangeText(r: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  return `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;
}
