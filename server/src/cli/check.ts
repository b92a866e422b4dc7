// `mathsense check`: analyses files or folders the way the server does (following includes)
// and prints diagnostics as text or JSON.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { Doc } from '../project/workspace.js';
import { uriToPath } from '../project/files.js';
import { loadDocuments } from './loadDocuments.js';
import { defaultDiagnosticSettings, type DiagnosticSettings } from '../features/diagnostics/documentDiagnostics.js';
import { DiagnosticsManager } from '../session/diagnosticsManager.js';
import { ImmediateDerivations } from '../session/derivationSources.js';
import { DerivationChecker } from '../math/checker.js';
import { guards } from '../util/guard.js';
import { displayPath } from './options.js';
import { dependencyIndex } from '../analysis/dependencies/dependencyGraph.js';
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
  const loaded = loadDocuments(opts.paths, err, 'check');
  if (!loaded) return 2;
  const { ws, targets, failed } = loaded;
  // the dependency graph's checks (cycles, order, blueprint marks) read the whole project's graph
  dependencyIndex(ws);
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
