// The `mathsense` settings section as the server reads it: parsed once per answer of
// workspace/configuration (missing or malformed values take their defaults), for the workspace
// and for each workspace folder (a paper and lecture notes in one workspace may differ).
import * as os from 'node:os';
import * as path from 'node:path';
import type { Doc } from '../project/workspace.js';
import { uriToPath } from '../project/files.js';
import { diagnosticSettings } from '../features/diagnostics/checkContext.js';
import { derivationSettings } from '../features/equations/derivation.js';
import { readSetting } from '../ext/settings.js';
import type { FeatureSettings } from '../features/context.js';
import { embeddingSettings, type EmbeddingSettings } from '../embeddings/serverEmbeddings.js';
import { indexSettings, type IndexSettings } from '../index/serverIndex.js';

export interface ServerSettings extends FeatureSettings { embeddings: EmbeddingSettings; index: IndexSettings }

/** The settings section as the server uses it; each value as ext/settings.ts declares it (a malformed one takes its default). */
export function parseSettings(raw: unknown, base?: string): ServerSettings {
  return {
    library: { folders: libraryFolders(readSetting(raw, 'library'), base) },
    diagnostics: diagnosticSettings(raw),
    derivations: derivationSettings(raw),
    embeddings: embeddingSettings(raw),
    index: indexSettings(raw),
    // `codeLens: false` (the older switch) still turns lenses off
    equations: { lens: readSetting(raw, 'relatedEquations.codeLens') ? readSetting(raw, 'relatedEquations.lens') : 'off' },
    dependencies: { lens: readSetting(raw, 'lens.dependencies') },
    providers: {
      referenceHover: readSetting(raw, 'hover.references'), citationHover: readSetting(raw, 'hover.citations'),
      candidateProofHover: readSetting(raw, 'hover.candidateProofs'), termHover: readSetting(raw, 'hover.terms'),
      labelCompletion: readSetting(raw, 'completion.labels'), citationCompletion: readSetting(raw, 'completion.citations'),
      outline: readSetting(raw, 'outline.enabled'),
    },
  };
}

/** The library's folders as absolute paths: `~/` from the home folder, relative ones from the workspace folder. */
export function libraryFolders(folders: readonly string[], base: string | undefined): string[] {
  return folders.filter((f) => f.trim()).map((f) => {
    const t = f.trim();
    // a scaled store a group shares, by its path or URI (index/library/lanceStore.ts)
    if (t.startsWith('lancedb:')) return t;
    if (t === '~' || t.startsWith('~/')) return path.join(os.homedir(), t.slice(1));
    return path.isAbsolute(t) || !base ? path.resolve(t) : path.resolve(base, t);
  });
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
    this.workspace = parseSettings(workspace, perFolder[0]?.folder);
    this.folders = perFolder.map((f) => ({ folder: f.folder, settings: parseSettings(f.raw ?? workspace, f.folder) })).sort((a, b) => b.folder.length - a.folder.length);
  }

  /** Every library folder some scope names. */
  libraryFolders(): string[] {
    return [...new Set([this.workspace, ...this.folders.map((f) => f.settings)].flatMap((s) => s.library.folders))];
  }

  /** The settings that apply to a document: its workspace folder's, else the workspace's. */
  for(doc: Doc): ServerSettings {
    const p = uriToPath(doc.uri);
    if (p) for (const f of this.folders) if (p === f.folder || p.startsWith(f.folder + path.sep)) return f.settings;
    return this.workspace;
  }
}
