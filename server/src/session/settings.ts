// The `mathsense` settings section as the server reads it: parsed once per answer of
// workspace/configuration (missing or malformed values take their defaults), for the workspace
// and for each workspace folder (a paper and lecture notes in one workspace may differ).
import * as path from 'node:path';
import type { Doc } from '../project/workspace.js';
import { uriToPath } from '../project/files.js';
import { defaultDiagnosticSettings, type DiagnosticSettings } from '../features/diagnostics/documentDiagnostics.js';
import { defaultDerivationSettings, type DerivationSettings } from '../features/derivation.js';
import { LENS_MODES, type LensMode } from '../features/equationLenses.js';
import type { FeatureSettings } from '../features/context.js';
import { embeddingSettings, type EmbeddingSettings } from '../embeddings/serverEmbeddings.js';
import { indexSettings, type IndexSettings } from '../index/serverIndex.js';

export interface ServerSettings extends FeatureSettings { embeddings: EmbeddingSettings; index: IndexSettings }

export function parseSettings(raw: unknown): ServerSettings {
  const r = (raw ?? {}) as {
    diagnostics?: Partial<DiagnosticSettings>; derivations?: Partial<DerivationSettings>; relatedEquations?: { codeLens?: unknown; lens?: unknown };
    hover?: { references?: unknown; citations?: unknown; candidateProofs?: unknown; terms?: unknown }; completion?: { labels?: unknown; citations?: unknown }; outline?: { enabled?: unknown };
  };
  const lens = r.relatedEquations?.lens;
  return {
    diagnostics: { ...defaultDiagnosticSettings, ...(r.diagnostics ?? {}) },
    derivations: { ...defaultDerivationSettings, ...(r.derivations ?? {}) },
    embeddings: embeddingSettings(raw),
    index: indexSettings(raw),
    // `codeLens: false` (the older switch) still turns lenses off
    equations: { lens: r.relatedEquations?.codeLens === false ? 'off' : LENS_MODES.includes(lens as LensMode) ? (lens as LensMode) : 'matches' },
    providers: {
      referenceHover: r.hover?.references !== false, citationHover: r.hover?.citations !== false,
      candidateProofHover: r.hover?.candidateProofs !== false, termHover: r.hover?.terms !== false,
      labelCompletion: r.completion?.labels !== false, citationCompletion: r.completion?.citations !== false, outline: r.outline?.enabled !== false,
    },
  };
}

/** The workspace's settings and each folder's, deepest folder first. */
export class SettingsStore {
  private workspace: ServerSettings = parseSettings(undefined);
  private folders: Array<{ folder: string; settings: ServerSettings }> = [];

  /** The workspace's settings (services that are not per folder: the encoder, the index). */
  get current(): ServerSettings {
    return this.workspace;
  }

  /** New settings for the whole workspace (a client that pushes them, initialization options). */
  set(raw: unknown): void {
    this.workspace = parseSettings(raw);
  }

  /** An answer of workspace/configuration: the workspace's section, then one per folder (absent: the workspace's). */
  setAll(workspace: unknown, perFolder: Array<{ folder: string; raw: unknown }>): void {
    this.workspace = parseSettings(workspace);
    this.folders = perFolder.map((f) => ({ folder: f.folder, settings: parseSettings(f.raw ?? workspace) })).sort((a, b) => b.folder.length - a.folder.length);
  }

  /** The settings that apply to a document: its workspace folder's, else the workspace's. */
  for(doc: Doc): ServerSettings {
    const p = uriToPath(doc.uri);
    if (p) for (const f of this.folders) if (p === f.folder || p.startsWith(f.folder + path.sep)) return f.settings;
    return this.workspace;
  }
}
