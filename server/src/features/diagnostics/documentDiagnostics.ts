// A document's diagnostics: the candidates every check proposes (labelChecks, citations,
// includeChecks, structureChecks; the derivation steps come from the diagnostics manager),
// through the publish gate (publishGate.ts), which reads what each code rests on from codes.ts.
import type { Diagnostic } from 'vscode-languageserver-types';
import { isMacroSource, type Doc, type Workspace } from '../../project/workspace.js';
import { labelUniverse } from '../../project/labelUniverse.js';
import { citationDiagnostics } from '../citations/citations.js';
import { drain } from '../../util/turns.js';
import { diagnostic } from './codes.js';
import { publishable, type Candidate, type Published } from './publishGate.js';
import { CheckContext, defaultDiagnosticSettings, type DiagnosticSettings } from './checkContext.js';
import { labelChecks } from './labelChecks.js';
import { includeChecks } from './includeChecks.js';
import { structureChecks } from './structureChecks.js';
import { dependencyChecks } from './dependencyChecks.js';

export { defaultDiagnosticSettings, type DiagnosticSettings } from './checkContext.js';

export interface DocumentDiagnosticsOptions {
  settings?: DiagnosticSettings;
  /** Diagnostics computed elsewhere for this version (derivation steps), published through the same gate. */
  extra?: readonly Diagnostic[];
  /** The server is still reading the project: what needs all of it is held back. */
  projectLoading?: boolean;
  /** The candidates of this version, found already (`candidateSteps`, a slice at a time). */
  candidates?: Candidate[];
}

/** Everything published for `doc` (server and `mathsense check` alike). */
export function documentDiagnostics(ws: Workspace, doc: Doc, opts: DocumentDiagnosticsOptions = {}): Published {
  const candidates = opts.candidates ?? diagnosticCandidates(ws, doc, opts.settings ?? defaultDiagnosticSettings);
  for (const d of opts.extra ?? []) candidates.push({ diagnostic: d });
  const macroSource = isMacroSource(doc);
  const needsLabels = candidates.some((c) => c.key !== undefined);
  return publishable(candidates, {
    macroSource,
    compiled: !macroSource && ws.isCompiled(doc),
    projectLoading: !!opts.projectLoading,
    labels: needsLabels ? labelUniverse(ws, doc) : undefined,
    workspace: ws,
  });
}

/** The label and structure diagnostics of `doc` as the gate publishes them (no derivation steps, project read in full). */
export function computeDiagnostics(ws: Workspace, doc: Doc, settings: DiagnosticSettings = defaultDiagnosticSettings): Diagnostic[] {
  return documentDiagnostics(ws, doc, { settings }).diagnostics;
}

/** Every diagnostic of `doc` that holds if the facts it rests on are complete (codes.ts, publishGate.ts). */
export function diagnosticCandidates(ws: Workspace, doc: Doc, settings: DiagnosticSettings = defaultDiagnosticSettings): Candidate[] {
  return drain(candidateSteps(ws, doc, settings));
}

/**
 * diagnosticCandidates, pausing (`yield`) between stretches of work: the first diagnostics of a
 * document of tens of megabytes are found a slice at a time between requests.
 */
export function* candidateSteps(ws: Workspace, doc: Doc, settings: DiagnosticSettings = defaultDiagnosticSettings): Generator<void, Candidate[]> {
  const out: Candidate[] = [];
  const readError = ws.readError(doc.uri);
  if (readError) out.push({ diagnostic: diagnostic('unreadable', doc.range(0, 0), `Could not read this file: ${readError}`) });
  if (isMacroSource(doc)) return out;
  const cx = new CheckContext(ws, doc, settings, out);
  yield* labelChecks(cx);
  yield;
  // undefined-citation; a missing or unreadable .bib of this document (missing-include, unreadable)
  for (const d of citationDiagnostics(ws, doc, settings.structure)) out.push({ diagnostic: d });
  yield;
  yield* includeChecks(cx);
  yield;
  structureChecks(cx);
  yield;
  dependencyChecks(cx);
  return out;
}
