// Every `mathsense.*` setting, declared once: its type, default, allowed values, whether it may
// differ per workspace folder, and whether it is a neighbour switch (off where LaTeX Workshop or
// texlab already does the same). The server reads the settings section through `readSetting`, so
// a missing or malformed value takes the default declared here; package.json's
// `contributes.configuration` must say the same (session/settings.test.ts checks it). Imports
// nothing, so every layer may read it.

interface Declared {
  type: 'boolean' | 'string' | 'array';
  default: boolean | string | readonly string[];
  /** The values a string may take. */
  enum?: readonly string[];
  /** `resource`: may differ per workspace folder; `window`: one value for the workspace. */
  scope: 'resource' | 'window';
  /** Off beside a neighbour extension that does the same (hover, completion, outline, duplicates). */
  neighbour?: true;
  /** Read by the VS Code client only. */
  client?: true;
  /** Kept for older settings files; a newer setting says the same. */
  deprecated?: true;
}

export const SETTINGS = {
  'diagnostics.unusedLabels': { type: 'boolean', default: false, scope: 'resource' },
  'diagnostics.structure': { type: 'boolean', default: true, scope: 'resource' },
  'diagnostics.duplicateLabels': { type: 'boolean', default: true, scope: 'resource', neighbour: true },
  'accelerator': { type: 'string', default: 'auto', enum: ['auto', 'cpu', 'cuda', 'webgpu'], scope: 'window' },
  'models.path': { type: 'string', default: '', scope: 'window' },
  'derivations.enabled': { type: 'boolean', default: true, scope: 'resource' },
  'derivations.showUnknown': { type: 'boolean', default: false, scope: 'resource' },
  'index.path': { type: 'string', default: '', scope: 'window' },
  'index.sources': { type: 'array', default: [], scope: 'window' },
  'relatedEquations.lens': { type: 'string', default: 'matches', enum: ['matches', 'all', 'off'], scope: 'resource' },
  'lens.dependencies': { type: 'boolean', default: true, scope: 'resource' },
  'diagnostics.unusedStatements': { type: 'boolean', default: false, scope: 'resource' },
  'relatedEquations.codeLens': { type: 'boolean', default: true, scope: 'resource', deprecated: true },
  'trace.server': { type: 'string', default: 'off', enum: ['off', 'messages', 'verbose'], scope: 'window', client: true },
  'hover.references': { type: 'boolean', default: true, scope: 'resource', neighbour: true },
  'hover.citations': { type: 'boolean', default: true, scope: 'resource', neighbour: true },
  'hover.candidateProofs': { type: 'boolean', default: true, scope: 'resource' },
  'hover.terms': { type: 'boolean', default: true, scope: 'resource' },
  'completion.labels': { type: 'boolean', default: true, scope: 'resource', neighbour: true },
  'completion.citations': { type: 'boolean', default: true, scope: 'resource', neighbour: true },
  'outline.enabled': { type: 'boolean', default: true, scope: 'resource', neighbour: true },
  'library': { type: 'array', default: [], scope: 'resource' },
} as const satisfies Record<string, Declared>;

export type SettingKey = keyof typeof SETTINGS;

type ValueOf<K extends SettingKey> =
  (typeof SETTINGS)[K] extends { enum: readonly (infer E)[] } ? E
    : (typeof SETTINGS)[K]['type'] extends 'boolean' ? boolean
      : (typeof SETTINGS)[K]['type'] extends 'array' ? readonly string[] : string;

/** Whether the settings section `raw` holds a value for `key` at all (`{diagnostics: {structure: …}}`). */
export function hasSetting(raw: unknown, key: SettingKey): boolean {
  return valueAt(raw, key) !== undefined;
}

/** `key`'s value in the settings section `raw`; its declared default when missing or malformed. */
export function readSetting<K extends SettingKey>(raw: unknown, key: K): ValueOf<K> {
  const decl: Declared = SETTINGS[key];
  const v = valueAt(raw, key);
  const ok = decl.type === 'boolean' ? typeof v === 'boolean'
    : decl.type === 'array' ? Array.isArray(v) && v.every((x) => typeof x === 'string')
      : typeof v === 'string' && (!decl.enum || decl.enum.includes(v));
  return (ok ? v : decl.default) as ValueOf<K>;
}

function valueAt(raw: unknown, key: string): unknown {
  let v: unknown = raw;
  for (const part of key.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}
