// What a feature may use beyond the document model: the long-lived services of a running
// server (or of the CLI) and the settings that apply to a document. Features read it; the
// session (session/session.ts) provides it.
import type { Doc, Workspace } from '../project/workspace.js';
import type { AuxNumbers } from '../project/auxNumbers.js';
import type { DocStep } from '../math/service.js';
import type { ServerIndex } from '../index/serverIndex.js';
import type { Guard, GuardAsync } from '../util/guard.js';
import type { DiagnosticSettings } from './diagnostics/documentDiagnostics.js';
import type { DerivationSettings } from './equations/derivation.js';
import type { LensMode } from './equations/equationLenses.js';
import type { MatchCache } from '../index/matchCache.js';
import type { HoverMath } from './presentation/hoverMath.js';
import type { RelatedContext } from './equations/relatedEquations.js';
import type { ServerLibrary } from '../index/library/serverLibrary.js';
import type { WorkspaceEdit } from 'vscode-languageserver-types';

/**
 * Providers that overlap LaTeX Workshop's or texlab's, each of which can be switched off so two
 * extensions side by side do not answer twice.
 */
export interface ProviderSettings { referenceHover: boolean; citationHover: boolean; candidateProofHover: boolean; termHover: boolean; labelCompletion: boolean; citationCompletion: boolean; outline: boolean }
export interface EquationSettings { lens: LensMode }
export interface DependencySettings { lens: boolean }

/** The settings features read, per document (its workspace folder's). */
export interface FeatureSettings {
  /** The author's library folders this document reads (absolute), beside the user's recorded ones. */
  library: { folders: readonly string[] };
  diagnostics: DiagnosticSettings;
  derivations: DerivationSettings;
  equations: EquationSettings;
  dependencies: DependencySettings;
  providers: ProviderSettings;
}

export interface FeatureContext {
  readonly ws: Workspace;
  readonly index: ServerIndex;
  readonly guard: Guard;
  readonly guardAsync: GuardAsync;
  settingsFor(doc: Doc): FeatureSettings;
  /** Numbers of the last LaTeX run (`.aux`) for the document's project, when there is one. */
  numbers(doc: Doc): AuxNumbers | undefined;
  /** Derivation steps checked for the document's current version. */
  steps(doc: Doc): readonly DocStep[];
  /** How hovers show math (the client's choice and colour). */
  hoverMath(): HoverMath;
  /** The client shows result lists in a panel (the VS Code extension). */
  readonly resultsPanel: boolean;
  /** What a related-equations search uses (waits a little for the index's equations, by default). */
  related(equationsWaitMs?: number): Promise<RelatedContext>;
  /** Searches behind the `matches` lenses, per display text. */
  readonly lensMatches: MatchCache;
  /** The client asks for lenses again on `workspace/codeLens/refresh`: a list may answer with what is known. */
  readonly lensRefresh: boolean;
  /** The client takes versioned `documentChanges` in a workspace edit. */
  readonly versionedEdits: boolean;
  /** The client takes a completion list's `itemDefaults.editRange` (items then leave out their own). */
  readonly completionEditRange: boolean;
  /** Queues the analysis of the workspace's equations (shortly, never inside the request). */
  warmEquations(): void;
  /** The author's library (the folders loaded, indexing in the background). */
  readonly library: ServerLibrary;
  /** Asks the client to apply an edit (the author's explicit action only); whether it did. */
  applyEdit(edit: WorkspaceEdit, label: string): Promise<boolean>;
}

/** The library a document reads: the service and the folders its settings name. */
export function libraryScope(ctx: FeatureContext, doc: Doc | undefined) {
  return { lib: ctx.library, folders: doc ? ctx.settingsFor(doc).library.folders : [] };
}
