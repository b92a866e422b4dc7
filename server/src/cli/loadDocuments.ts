// The documents a CLI command works on: the files and folders named, each file's project around
// it (its root may be beside it or a few folders up), and everything they include, read the way
// the server reads a workspace.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace, type Doc } from '../project/workspace.js';
import { DOCUMENT_EXTENSIONS, findDocumentFiles, isDocumentPath, pathToUri, uriToPath } from '../project/files.js';

export interface LoadedDocuments {
  ws: Workspace;
  /** The documents named (a folder's documents), and everything they include. */
  targets: Set<Doc>;
  /** A path could not be read: the run fails (exit 2) even when others were fine. */
  failed: boolean;
}

/** Undefined when nothing could be read (exit 2); what failed is said on `err`. */
export function loadDocuments(paths: readonly string[], err: (s: string) => void, cmd: string): LoadedDocuments | undefined {
  const ws = new Workspace();
  const requested: Doc[] = [];
  let failed = false;
  let quiet = false; // documents loaded only as context are not reported when unreadable
  ws.onReadError = (uri, reason) => { if (!quiet) err(`mathsense ${cmd}: cannot read ${uriToPath(uri) ?? uri}: ${reason}\n`); };
  for (const p of paths) {
    const abs = path.resolve(p);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      err(`mathsense ${cmd}: no such file or folder: ${p}\n`);
      failed = true;
      continue;
    }
    const files = stat.isDirectory() ? findDocumentFiles(abs) : [abs];
    // a file named explicitly is checked whatever its name; say how it was read
    if (!stat.isDirectory() && !isDocumentPath(abs)) err(`mathsense ${cmd}: ${p} is not a ${DOCUMENT_EXTENSIONS.join(', ')} file; reading it as LaTeX\n`);
    if (stat.isDirectory() && files.length === 0) {
      err(`mathsense ${cmd}: no documents (.tex, .ltx, .md) in ${p}\n`);
      failed = true;
      continue;
    }
    for (const f of files) {
      const doc = ws.loadFile(f);
      if (doc) requested.push(doc);
      else if (!stat.isDirectory()) failed = true; // an unreadable file inside a folder is only reported
    }
    if (!stat.isDirectory()) {
      quiet = true;
      loadProjectSiblings(ws, abs);
      quiet = false;
    }
  }
  if (requested.length === 0) return undefined;
  // the requested documents and everything they include
  const targets = new Set<Doc>();
  const visit = (d: Doc): void => {
    if (targets.has(d)) return;
    targets.add(d);
    for (const k of ws.children(d)) visit(k);
  };
  for (const d of requested) visit(d);

  return { ws, targets, failed };
}

/** Siblings are only context for a single file: one this large (generated output, a dump) is not worth parsing for it. */
const SIBLING_MAX_BYTES = 4 * 1024 * 1024;

/** How many folders above a single file's own are searched for the root that includes it. */
const ROOT_SEARCH_LEVELS = 4;

/**
 * A single file may be a chapter of a project whose root sits beside it or one folder up;
 * loading the documents there (not recursively) lets roots and labels resolve as in the
 * editor, where the whole workspace is scanned. A parent's `%!TEX root` is followed by the
 * workspace itself. When that finds no root with `\documentclass`, the folders further up (up
 * to ROOT_SEARCH_LEVELS above the file's, and not above the one holding `.git`) are searched
 * for one: only their files with `\documentclass` are loaded, until one compiles the file.
 */
function loadProjectSiblings(ws: Workspace, file: string): void {
  const dir = path.dirname(file);
  for (const d of [dir, path.dirname(dir)]) {
    for (const f of texFiles(d)) ws.loadFile(f);
  }
  const doc = ws.get(pathToUri(file));
  if (!doc) return;
  const compiled = (): boolean => ws.isCompiled(doc);
  if (compiled()) return;
  let d = dir;
  for (let up = 0; up <= ROOT_SEARCH_LEVELS; up++) {
    if (up >= 2) {
      for (const f of texFiles(d)) {
        if (ws.get(pathToUri(f)) || !hasDocumentClass(f)) continue;
        ws.loadFile(f);
        if (compiled()) return;
      }
    }
    if (fs.existsSync(path.join(d, '.git'))) return;
    const parent = path.dirname(d);
    if (parent === d) return;
    d = parent;
  }
}

/** The .tex/.ltx files of a folder (not recursive), at most 500, none over SIBLING_MAX_BYTES. */
function texFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names.filter((x) => /\.(tex|ltx)$/i.test(x)).slice(0, 500)) {
    const f = path.join(dir, n);
    try { const st = fs.statSync(f); if (st.isFile() && st.size <= SIBLING_MAX_BYTES) out.push(f); } catch { /* unreadable: skipped */ }
  }
  return out;
}

/** Whether a file (read raw, comments aside) has `\documentclass`: only such files are roots worth loading. */
function hasDocumentClass(f: string): boolean {
  try {
    return /^[^%\n]*\\documentclass\b/m.test(fs.readFileSync(f, 'utf8'));
  } catch {
    return false;
  }
}
