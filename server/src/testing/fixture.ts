// Test fixtures in texlab's style: several files in one string, held in memory.
//
//   %! main.tex
//   \input{sec}
//   %! sec.tex
//   See \ref{thm:a} and \ref{lem:b}.
//            ^^^^^
//   %                        ^^^^^
//   %                          |
//
// A `%! name` line starts a file (a path under the fixture root), up to the next one. A marker
// line (spaces, `^` and `|` only, after an optional `%` that keeps it a LaTeX comment) marks
// the text line above it: each run of `^` a range, a `|` the cursor; `<|>` marks the cursor
// inline. Marker lines and `<|>` are taken out of the text: offsets and line numbers are those
// of the text without them. A marker line under a marker line marks the same text line.
// Columns count in the text line as it stands, so a line holding `<|>` cannot have marker
// lines. Ranges are ordered by file, then start. Written as String.raw, a fixture's markers
// line up with the TeX as it reads.
//
// Files live in a MemoryFileSystem under FIXTURE_ROOT and are opened in a Workspace reading
// from it (`.bib` files are only written: bibliographies are read when a document names them).
// `{ disk: true }` writes them to a temporary folder instead, for tests that start a process.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Range } from 'vscode-languageserver-types';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Workspace, type Doc } from '../project/workspace.js';
import { pathToUri } from '../project/files.js';
import { MemoryFileSystem } from '../project/memoryFileSystem.js';
import { nodeFileSystem, type FileSystem } from '../project/fileSystem.js';

export const CURSOR = '<|>';
export const FIXTURE_ROOT = path.resolve('/fixture');

export interface FixtureFile { name: string; text: string }

export interface FixtureRange {
  /** The file's name as the fixture gives it. */
  name: string;
  start: number;
  end: number;
  range: Range;
}

export interface ParsedFixture {
  files: FixtureFile[];
  cursor?: { name: string; offset: number };
  ranges: FixtureRange[];
}

const MARKER_LINE = /^%?[ ^|]*[\^|][ ^|]*$/;

/** Splits a fixture into its files, taking out the cursor and range markers. */
export function parseFixture(spec: string): ParsedFixture {
  const sections: Array<{ name: string; lines: string[] }> = [];
  for (const line of spec.replace(/^\n/, '').split('\n')) {
    const m = /^%! (\S+)\s*$/.exec(line);
    if (m) sections.push({ name: m[1], lines: [] });
    else sections.at(-1)?.lines.push(line);
  }
  const files: FixtureFile[] = [];
  const ranges: FixtureRange[] = [];
  let cursor: ParsedFixture['cursor'];
  const setCursor = (name: string, offset: number): void => {
    if (cursor) throw new Error(`fixture: a second cursor in ${name} (the first is in ${cursor.name})`);
    cursor = { name, offset };
  };
  for (const { name, lines } of sections) {
    const kept: string[] = [];
    let offset = 0;
    /** Start offset and text of the last text line, and whether it held `<|>`. */
    let last: { start: number; text: string; hadCursor: boolean } | undefined;
    const marks: Array<{ start: number; end: number }> = [];
    for (const raw of lines) {
      if (MARKER_LINE.test(raw)) {
        if (!last) throw new Error(`fixture ${name}: a marker line with no line above it: '${raw}'`);
        if (last.hadCursor) throw new Error(`fixture ${name}: marker line under a line holding ${CURSOR}`);
        for (const run of raw.matchAll(/\^+|\|/g)) {
          const col = run.index!;
          const end = col + run[0].length;
          if (end > last.text.length + (run[0] === '|' ? 1 : 0)) throw new Error(`fixture ${name}: marker '${run[0]}' at column ${col} beyond the line above ('${last.text}')`);
          if (run[0] === '|') setCursor(name, last.start + col);
          else marks.push({ start: last.start + col, end: last.start + end });
        }
        continue;
      }
      let text = raw;
      const at = text.indexOf(CURSOR);
      if (at >= 0) {
        setCursor(name, offset + at);
        text = text.slice(0, at) + text.slice(at + CURSOR.length);
        if (text.includes(CURSOR)) throw new Error(`fixture ${name}: a second cursor`);
      }
      last = { start: offset, text, hadCursor: at >= 0 };
      kept.push(text);
      offset += text.length + 1;
    }
    const text = kept.join('\n');
    files.push({ name, text });
    const lineDoc = TextDocument.create('file:///x', 'latex', 0, text);
    for (const m of marks) ranges.push({ name, ...m, range: { start: lineDoc.positionAt(m.start), end: lineDoc.positionAt(m.end) } });
  }
  const order = new Map(files.map((f, i) => [f.name, i]));
  ranges.sort((a, b) => order.get(a.name)! - order.get(b.name)! || a.start - b.start || a.end - b.end);
  return { files, cursor, ranges };
}

export interface Fixture {
  ws: Workspace;
  /** Where the files are: the in-memory file system, or the disk (`{ disk: true }`). */
  fs: FileSystem;
  /** The in-memory file system, to add or change files (undefined with `{ disk: true }`). */
  memory: MemoryFileSystem | undefined;
  /** The folder the files are in. */
  dir: string;
  files: FixtureFile[];
  docs: Map<string, Doc>;
  doc(name: string): Doc;
  /** Absolute path and URI of a fixture file. */
  path(name: string): string;
  uri(name: string): string;
  /** Document holding the cursor marker, and the offset of the marker (removed from text). */
  cursor: { doc: Doc; offset: number } | undefined;
  /** The `^^^` ranges, in file order; `doc` is undefined for a file not opened (a `.bib`). */
  ranges: Array<FixtureRange & { doc: Doc | undefined }>;
  /** Removes the temporary folder of a `{ disk: true }` fixture; nothing to do in memory. */
  cleanup(): void;
}

export interface FixtureOptions {
  /** false: load the files as read from disk (not open in the editor). */
  open?: boolean;
  /** Write the files to a temporary folder and read them from the disk. */
  disk?: boolean;
}

export function fixture(spec: string, opts: FixtureOptions = {}): Fixture {
  const parsed = parseFixture(spec);
  const memory = opts.disk ? undefined : new MemoryFileSystem();
  const dir = memory ? FIXTURE_ROOT : fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-fx-'));
  const files: FileSystem = memory ?? nodeFileSystem;
  for (const f of parsed.files) {
    const full = path.join(dir, f.name);
    if (memory) memory.writeFile(full, f.text);
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, f.text);
    }
  }
  const ws = new Workspace({ fs: files });
  const docs = new Map<string, Doc>();
  for (const f of parsed.files) {
    // .bib files are only written: the workspace reads them when a \bibliography names them
    if (f.name.endsWith('.bib')) continue;
    const full = path.join(dir, f.name);
    const lang = f.name.endsWith('.md') ? 'markdown' : 'latex';
    docs.set(f.name, opts.open === false ? ws.loadFile(full)! : ws.open(pathToUri(full), lang, 1, f.text));
  }
  return {
    ws, fs: files, memory, dir, files: parsed.files, docs,
    doc(name) {
      const d = docs.get(name);
      if (!d) throw new Error(`no fixture file ${name}`);
      return d;
    },
    path: (name) => path.join(dir, name),
    uri: (name) => pathToUri(path.join(dir, name)),
    cursor: parsed.cursor ? { doc: docs.get(parsed.cursor.name)!, offset: parsed.cursor.offset } : undefined,
    ranges: parsed.ranges.map((r) => ({ ...r, doc: docs.get(r.name) })),
    cleanup() {
      if (!memory) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Removes common indentation and surrounding blank lines (for inline snapshots). */
export function dedent(s: string): string {
  const lines = s.replace(/^\n/, '').replace(/\n\s*$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}
