// Where the index lives and where the shared data is read from. The index is derived from
// ../shared/data, so it sits in a gitignored folder (build/index/ at the repository root) unless
// the setting `mathsense.index.path` / `--index DIR` names another one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { moduleDir } from '../embeddings/modelFiles.js';

export const INDEX_DIRNAME = path.join('build', 'index');

/** The repository (or installed extension) root: the first folder above this module with a package.json that has `models/`. */
let cachedRoot: string | undefined;

export function packageRoot(from?: string): string {
  if (!from && cachedRoot) return cachedRoot;
  const found = findRoot(from ?? moduleDir());
  if (!from) cachedRoot = found;
  return found;
}

function findRoot(from: string): string {
  for (let d = from, i = 0; i < 6; i++, d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'models')) && fs.existsSync(path.join(d, 'package.json')) && !fs.existsSync(path.join(d, 'src'))) return d;
  }
  return path.resolve(from, '..', '..', '..');
}

/** The index folder: an explicit setting, else `build/index` under the package root. */
export function defaultIndexDir(explicit?: string): string {
  if (explicit && explicit.trim()) return path.resolve(explicit.trim());
  return path.join(packageRoot(), INDEX_DIRNAME);
}

/** `../shared/data` beside the repository; MATHSENSE_SHARED overrides the shared checkout. */
export function sharedDataDir(): string {
  if (process.env.MATHSENSE_SHARED) return path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data');
  return path.resolve(packageRoot(), '..', 'shared', 'data');
}
