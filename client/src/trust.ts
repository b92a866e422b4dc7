// Workspace trust for settings that name files: in an untrusted workspace, a setting that points
// at model or index files outside the extension is dropped before the server sees it (the
// server then uses the models/index shipped with the extension). Pure: no `vscode` import, so
// it is unit-tested directly (test/client/trust.test.mjs).
import * as path from 'node:path';

/**
 * Dotted keys under `mathsense` that hold paths to model or index files. Keep in sync with
 * `capabilities.untrustedWorkspaces.restrictedConfigurations` in package.json.
 */
export const PATH_SETTINGS = ['models.path', 'index.path'] as const;

export interface TrustContext {
  trusted: boolean;
  /** The extension's install folder: paths inside it are always allowed. */
  extensionPath: string;
}

export interface Dropped { key: string; value: unknown }

/** Is the absolute path `p` inside `root`? (Relative paths are not: the server resolves them elsewhere.) */
export function isInside(p: string, root: string): boolean {
  if (!path.isAbsolute(p)) return false;
  const rel = path.relative(path.resolve(root), path.resolve(p));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function getPath(obj: Record<string, unknown>, dotted: string): unknown {
  let cur: unknown = obj;
  for (const k of dotted.split('.')) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

function deletePath(obj: Record<string, unknown>, dotted: string): void {
  const keys = dotted.split('.');
  let cur: unknown = obj;
  for (const k of keys.slice(0, -1)) {
    if (!cur || typeof cur !== 'object') return;
    cur = (cur as Record<string, unknown>)[k];
  }
  if (cur && typeof cur === 'object') delete (cur as Record<string, unknown>)[keys[keys.length - 1]];
}

const allowed = (v: unknown, root: string): boolean => {
  if (v === undefined || v === null || v === '') return true;
  if (typeof v === 'string') return v.trim() === '' || isInside(v.trim(), root);
  if (Array.isArray(v)) return v.every((x) => allowed(x, root));
  return false;
};

/**
 * Returns a copy of the `mathsense` settings object that is safe to hand to the server, and
 * the settings that were dropped. In a trusted workspace nothing changes.
 */
export function sanitizeSettings(settings: unknown, ctx: TrustContext): { settings: unknown; dropped: Dropped[] } {
  if (ctx.trusted || !settings || typeof settings !== 'object') return { settings, dropped: [] };
  const copy = structuredClone(settings) as Record<string, unknown>;
  const dropped: Dropped[] = [];
  for (const key of PATH_SETTINGS) {
    const v = getPath(copy, key);
    if (!allowed(v, ctx.extensionPath)) {
      dropped.push({ key: `mathsense.${key}`, value: v });
      deletePath(copy, key);
    }
  }
  return { settings: copy, dropped };
}
