// `mathsense check`: analyses files or folders the way the server does (following includes)
// and prints diagnostics as text or JSON.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { Workspace, type Doc } from '../project/workspace.js';
import { DOCUMENT_EXTENSIONS, findDocumentFiles, isDocumentPath, pathToUri, uriToPath } from '../project/files.js';
import { defaultDiagnosticSettings, type DiagnosticSettings } from '../features/diagnostics/documentDiagnostics.js';
import { DiagnosticsManager } from '../session/diagnosticsManager.js';
import { ImmediateDerivations } from '../session/derivationSources.js';
import { DerivationChecker } from '../math/checker.js';
import { guards } from '../util/guard.js';
import { displayPath } from './options.js';
import type { ProgressFn } from './progress.js';

export interface CheckOptions {
  paths: string[];
  format: 'text' | 'json';
  settings?: Partial<DiagnosticSettings>;
  /** Check derivation steps in display math (default true). */
  derivations?: boolean;
  /** Also report steps that could not be checked (information). */
  showUnknown?: boolean;
  out?: (s: string) => void;
  err?: (s: string) => void;
  /** Progress of the checking (cli/progress.ts; the CLI gives one when stderr is a terminal). */
  progress?: ProgressFn;
}

export type FileDiagnostic = Diagnostic & { file: string };

const SEVERITY = ['', 'error', 'warning', 'information', 'hint'];

/** Returns the process exit code: 0 clean, 1 errors reported, 2 usage or internal failure. */
export function runCheck(opts: CheckOptions): number {
  const out = opts.out ?? ((s) => process.stdout.write(s));
  const err = opts.err ?? ((s) => process.stderr.write(s));
  if (opts.paths.length === 0) {
    err('mathsense check: no file or folder given\n');
    return 2;
  }
  const ws = new Workspace();
  const requested: Doc[] = [];
  let failed = false;
  let quiet = false; // documents loaded only as context are not reported when unreadable
  ws.onReadError = (uri, reason) => { if (!quiet) err(`mathsense check: cannot read ${uriToPath(uri) ?? uri}: ${reason}\n`); };
  for (const p of opts.paths) {
    const abs = path.resolve(p);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      err(`mathsense check: no such file or folder: ${p}\n`);
      failed = true;
      continue;
    }
    const files = stat.isDirectory() ? findDocumentFiles(abs) : [abs];
    // a file named explicitly is checked whatever its name; say how it was read
    if (!stat.isDirectory() && !isDocumentPath(abs)) err(`mathsense check: ${p} is not a ${DOCUMENT_EXTENSIONS.join(', ')} file; checking it as LaTeX\n`);
    if (stat.isDirectory() && files.length === 0) {
      err(`mathsense check: no documents (.tex, .ltx, .md) in ${p}\n`);
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
  if (requested.length === 0) return 2;
  // the requested documents and everything they include
  const targets = new Set<Doc>();
  const visit = (d: Doc): void => {
    if (targets.has(d)) return;
    targets.add(d);
    for (const k of ws.children(d)) visit(k);
  };
  for (const d of requested) visit(d);

  const settings = { ...defaultDiagnosticSettings, ...opts.settings };
  const derivationSettings = { enabled: opts.derivations !== false, showUnknown: !!opts.showUnknown };
  const results: FileDiagnostic[] = [];
  const progress = opts.progress;
  const docs = [...targets].sort((a, b) => a.uri.localeCompare(b.uri));
  // a single document: progress over its display-math blocks
  const blockProgress = (doc: Doc) => (progress && docs.length === 1 ? (done: number, total: number) => progress(`checking derivations in ${fileOf(doc)}`, done, total) : undefined);
  // the server's diagnostics, with every derivation checked at once; a failure is the run's (exit 2), not swallowed
  const diagnostics = new DiagnosticsManager(ws, {
    settingsFor: () => ({ diagnostics: settings, derivations: derivationSettings }),
    derivations: derivationSettings.enabled ? new ImmediateDerivations(new DerivationChecker(), blockProgress) : undefined,
    guard: guards(err, () => true).guard,
  });
  for (const [i, doc] of docs.entries()) {
    const file = fileOf(doc);
    // several documents: one step each
    progress?.(`checking ${file}`, i, docs.length);
    for (const d of diagnostics.diagnose(doc)) results.push({ ...d, file });
  }
  progress?.('', 1, 1);
  if (opts.format === 'json') {
    out(JSON.stringify(results, null, 2) + '\n');
  } else {
    for (const d of results) {
      out(`${d.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${SEVERITY[d.severity ?? 1]}: ${d.message} [${d.code}]\n`);
    }
  }
  // the summary goes to stderr in both formats (JSON on stdout stays parseable)
  const errors = results.filter((d) => d.severity === DiagnosticSeverity.Error).length;
  err(`${targets.size} document${targets.size === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${results.length - errors} other diagnostic${results.length - errors === 1 ? '' : 's'}\n`);
  // a path that could not be checked fails the run, even when others were fine
  if (failed) return 2;
  return results.some((d) => d.severity === DiagnosticSeverity.Error) ? 1 : 0;
}

function fileOf(doc: Doc): string {
  return displayPath(uriToPath(doc.uri) ?? doc.uri);
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
