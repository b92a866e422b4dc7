// Shared by the index tests: paths, and a small index built once per test file from a slice of
// the real shared data.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIndex, type BuildResult } from '../indexBuild/builder.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const modelsDir = path.join(repoRoot, 'models');
export const serverBundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');
/** The offline package's `index build` entry. */
export const indexBin = path.join(repoRoot, 'scripts', 'out', 'bin', 'index.js');
export const dataDir = process.env.MATHSENSE_SHARED
  ? path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data')
  : path.resolve(repoRoot, '..', 'shared', 'data');
export const hasData = fs.existsSync(path.join(dataDir, 'proofwiki')) && fs.existsSync(path.join(modelsDir, 'mathsense-encoder', 'config.json'));

export async function buildSlice(slice = 40): Promise<BuildResult & { tmp: string }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-index-'));
  const r = await buildIndex({ dataDir, outDir: path.join(tmp, 'index'), modelsDir, sources: ['proofwiki', 'mathd2', 'planetmath'], slice, cacheDir: null });
  return { ...r, tmp };
}
