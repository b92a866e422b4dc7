// Inline snapshots: the expected rendering lives in the test, next to the fixture.
//
//   check(render(result), expect`
//     sec1.tex:5:33-5:45
//   `);
//
// The snapshot is a template literal tagged `expect`, read raw (backslashes as written, so TeX
// reads as TeX) but for two escapes a template literal needs: \` for a backtick and \${ for
// `${`. Its common indentation and surrounding blank lines are dropped, on both sides. Editors
// drop trailing spaces, so the snapshot's are ignored and the actual text's are shown as ␠
// (a Markdown line break reads `text␠␠`), tabs there as ␉. A mismatch fails with a line diff.
// Run the tests with UPDATE_SNAPSHOTS=1 and a differing snapshot is rewritten in the test's .ts
// source instead, and the test passes (build again to see it in the compiled test).
import * as assert from 'node:assert/strict';
import { dedent } from './fixture.js';
import { callerOf, rewriteSnapshot, type CallSite } from './snapshotSource.js';
import type { Doc } from '../project/workspace.js';

export const UPDATE_ENV = 'UPDATE_SNAPSHOTS';

/** Raw template text as the string it stands for: \` is a backtick, \${ is `${`; every other backslash is itself. */
export function unescapeRaw(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== '\\' || i + 1 >= raw.length) { out += c; continue; }
    const next = raw[i + 1];
    if (next === '`' || (next === '$' && raw[i + 2] === '{')) out += next;
    else out += c + next;
    i++;
  }
  return out;
}

/** The raw template text that unescapeRaw reads as `text`; throws when there is none (a backslash before a backtick or `${`). */
export function escapeRaw(text: string): string {
  const raw = text.replace(/`|\$\{/g, (m) => `\\${m}`);
  if (unescapeRaw(raw) !== text) throw new Error(`this text cannot be written as a raw snapshot: ${JSON.stringify(text)}`);
  return raw;
}

/** Trailing spaces and tabs of each line as ␠ and ␉ (what a snapshot can keep). */
export function showTrailingSpace(text: string): string {
  return text.replace(/[ \t]+$/gm, (ws) => ws.replace(/ /g, '␠').replace(/\t/g, '␉'));
}

/** What is compared: trailing spaces, surrounding blank lines and common indentation dropped. */
export function normalize(text: string): string {
  const lines = text.split('\n').map((l) => l.trimEnd());
  while (lines.length && !lines[0]) lines.shift();
  while (lines.length && !lines.at(-1)) lines.pop();
  return lines.length ? dedent(lines.join('\n')) : '';
}

/** Longest snapshot written inline. */
const INLINE_MAX = 60;

/** The literal's new content: a short line inline, anything else indented under the line holding it. */
export function snapshotLiteral(text: string, indent: string): string {
  const raw = escapeRaw(normalize(text));
  // inline, unless an odd run of backslashes would escape the closing backtick
  if (!raw.includes('\n') && raw.length <= INLINE_MAX && !/(?:^|[^\\])(?:\\\\)*\\$/.test(raw)) return raw;
  const inner = `${indent}  `;
  return `\n${raw.split('\n').map((l) => (l ? inner + l : l)).join('\n')}\n${indent}`;
}

/** A line diff (longest common subsequence), `-` expected, `+` actual. */
export function lineDiff(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) { out.push(`  ${a[i]}`); i++; j++; }
    else if (i < a.length && (j >= b.length || lcs[i + 1][j] >= lcs[i][j + 1])) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return out.join('\n');
}

export class Expect {
  constructor(readonly raw: string, readonly site: CallSite | undefined) {}

  /** The expected text, normalized. */
  get text(): string {
    return normalize(unescapeRaw(this.raw));
  }

  /** Compares; on a mismatch rewrites the snapshot (UPDATE_SNAPSHOTS=1) or fails with a diff. */
  assertEq(actual: string): void {
    const want = this.text;
    const got = normalize(showTrailingSpace(actual));
    if (want === got) return;
    if (process.env[UPDATE_ENV] === '1') {
      if (!this.site) throw new Error('snapshot: no call site to update');
      const at = rewriteSnapshot(this.site, this.raw, (indent) => snapshotLiteral(got, indent));
      process.stderr.write(`updated snapshot ${at.file}:${at.line}\n`);
      return;
    }
    throw new assert.AssertionError({
      message: `snapshot mismatch (- snapshot, + actual; ${UPDATE_ENV}=1 rewrites it):\n${lineDiff(want, got)}`,
      actual: got, expected: want, operator: 'strictEqual',
    });
  }
}

/** The tag of an inline snapshot: expect`…` (no substitutions). */
export function expect(strings: TemplateStringsArray, ...values: unknown[]): Expect {
  if (values.length) throw new Error('expect`…`: a snapshot has no ${…} substitutions');
  return new Expect(strings.raw[0], callerOf(expect));
}

/** Checks a rendering against its inline snapshot. */
export function check(actual: string, snapshot: Expect): void {
  snapshot.assertEq(actual);
}

/** The older form, kept for tests written against it: a cooked literal, not updated by UPDATE_SNAPSHOTS. Prefer check(actual, expect`…`). */
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
