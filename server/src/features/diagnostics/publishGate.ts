// The one place that decides which diagnostics are published, shared by the server and
// `mathsense check`. Every check proposes candidates; what each code's truth rests on is in the
// table of codes (codes.ts), and the gate publishes a candidate only when those facts are known
// in full:
// * a package or class file is a macro source, never a document: nothing about it is published
//   but that it could not be read;
// * a file no root compiles (a draft, an old chapter, a snippet) has no knowable references or
//   structure: only what holds in its own text (a label defined twice in it) is published;
// * an undefined reference needs the project's whole label universe: not when a label's name
//   is computed and may produce the key, a file that may define it is missing, the key goes
//   through an xr prefix whose document is not here, or a variant of the project (an old
//   standalone chapter, another version of the course) defines it;
// * while the server is still reading the project, what needs all of it is held back and
//   published once it is complete.
import type { Diagnostic } from 'vscode-languageserver-types';
import { mayBeDefined, type LabelUniverse } from '../../project/labelUniverse.js';
import type { Workspace } from '../../project/workspace.js';
import { ruleOf } from './codes.js';

export type { Need } from './codes.js';

/** A diagnostic proposed by a check; what it rests on is its code's (codes.ts). */
export interface Candidate {
  diagnostic: Diagnostic;
  /** undefined-ref: the key, judged against the label universe. */
  key?: string;
}

export interface PublishFacts {
  /** A `.sty`/`.cls` file: read for its definitions only. */
  macroSource: boolean;
  /** LaTeX compiles the file as part of a document (Workspace#isCompiled). */
  compiled: boolean;
  /** The server is still reading files of the project (workspace scan, includes, bibliographies). */
  projectLoading: boolean;
  /** The labels the file's project can define (needed for undefined-ref candidates). */
  labels?: LabelUniverse;
  /** Where labels of variant projects are looked up. */
  workspace?: Workspace;
}

export interface Published {
  diagnostics: Diagnostic[];
  /** Something was held back until the project is read in full: publish again then. */
  heldBack: boolean;
}

export function publishable(candidates: readonly Candidate[], facts: PublishFacts): Published {
  const diagnostics: Diagnostic[] = [];
  let heldBack = false;
  for (const c of candidates) {
    const rule = ruleOf(c.diagnostic.code);
    // every producer's codes are in the table (the type of codes.ts's `diagnostic` says so)
    const needs = rule?.needs ?? [];
    if (facts.macroSource && !rule?.inMacroSources) continue;
    if (needs.includes('compiled') && !facts.compiled) continue;
    if (c.key !== undefined && (!facts.labels || mayBeDefined(facts.labels, c.key, facts.workspace))) continue;
    if (needs.includes('whole-project') && facts.projectLoading) { heldBack = true; continue; }
    diagnostics.push(c.diagnostic);
  }
  return { diagnostics, heldBack };
}
