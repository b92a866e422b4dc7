// Where the index lives and where the shared data is read from. The index is derived from
// ../shared/data, so it sits in a gitignored folder (build/index/ at the repository root) unless
// the setting `mathsense.index.path` / `--index DIR` names another one.
import * as path from 'node:path';
import { packageRoot } from '../util/packageRoot.js';
import { unpackedRoot } from '../util/packedFiles.js';

export const INDEX_DIRNAME = path.join('build', 'index');

/**
 * The index folder: an explicit setting, else `build/index` under the package root (or under
 * its unpacked mirror: util/packedFiles.ts; callers await ensureUnpacked before they read).
 */
export function defaultIndexDir(explicit?: string): string {
  if (explicit && explicit.trim()) return path.resolve(explicit.trim());
  return path.join(unpackedRoot(packageRoot()), INDEX_DIRNAME);
}

/** `../shared/data` beside the repository; MATHSENSE_SHARED overrides the shared checkout. */
export function sharedDataDir(): string {
  if (process.env.MATHSENSE_SHARED) return path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data');
  return path.resolve(packageRoot(), '..', 'shared', 'data');
}
