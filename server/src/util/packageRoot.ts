// Where this server runs from: its module folder, and the repository's or installed
// extension's root above it (the folder with package.json and models/).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** This module's folder: the bundle's (dist/) in the CommonJS bundle, out/util/ in the ESM build. */
export function moduleDir(): string {
  if (typeof __dirname !== 'undefined') return __dirname;
  try {
    return path.dirname(fileURLToPath(import.meta.url));
  } catch { /* bundled as CommonJS */ }
  return process.cwd();
}

let cachedRoot: string | undefined;

/** The repository (or installed extension) root: the first folder above this module with a package.json that has `models/`. */
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
