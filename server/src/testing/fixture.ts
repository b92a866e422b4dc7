// Test fixtures in texlab style: several files in one string, each introduced by a
// `%! name` line, and a `<|>` cursor marker in one of them. Files are written to a fresh
// temporary folder (so include resolution sees real paths) and opened in a Workspace
// (`.bib` files are only written: bibliographies are read when a document names them).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Workspace, type Doc } from '../project/workspace.js';
import { pathToUri } from '../project/files.js';

export const CURSOR = '<|>';

export interface Fixture {
  ws: Workspace;
  dir: string;
  docs: Map<string, Doc>;
  doc(name: string): Doc;
  /** Document holding the cursor marker, and the offset of the marker (removed from text). */
  cursor: { doc: Doc; offset: number } | undefined;
  cleanup(): void;
}

export function fixture(spec: string, opts: { open?: boolean } = {}): Fixture {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-fx-'));
  const files: Array<{ name: string; text: string }> = [];
  let current: { name: string; lines: string[] } | undefined;
  for (const line of spec.replace(/^\n/, '').split('\n')) {
    const m = /^%! (\S+)\s*$/.exec(line);
    if (m) {
      if (current) files.push({ name: current.name, text: current.lines.join('\n') });
      current = { name: m[1], lines: [] };
    } else if (current) current.lines.push(line);
  }
  if (current) files.push({ name: current.name, text: current.lines.join('\n') });
  const ws = new Workspace();
  const docs = new Map<string, Doc>();
  let cursor: { name: string; offset: number } | undefined;
  for (const f of files) {
    let text = f.text;
    const at = text.indexOf(CURSOR);
    if (at >= 0) { cursor = { name: f.name, offset: at }; text = text.slice(0, at) + text.slice(at + CURSOR.length); }
    const full = path.join(dir, f.name);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
  for (const f of files) {
    // .bib files are only written: the workspace reads them when a \bibliography names them
    if (f.name.endsWith('.bib')) continue;
    const full = path.join(dir, f.name);
    const text = fs.readFileSync(full, 'utf8');
    const lang = f.name.endsWith('.md') ? 'markdown' : 'latex';
    docs.set(f.name, opts.open === false ? ws.loadFile(full)! : ws.open(pathToUri(full), lang, 1, text));
  }
  return {
    ws, dir, docs,
    doc(name) {
      const d = docs.get(name);
      if (!d) throw new Error(`no fixture file ${name}`);
      return d;
    },
    cursor: cursor ? { doc: docs.get(cursor.name)!, offset: cursor.offset } : undefined,
    cleanup() { fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

/** Removes common indentation and surrounding blank lines (for inline snapshots). */
export function dedent(s: string): string {
  const lines = s.replace(/^\n/, '').replace(/\n\s*$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}
