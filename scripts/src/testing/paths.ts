// Where the offline package's tests find the repository, its committed models and the shared
// data (../shared/data beside the repo; MATHSENSE_DATA or MATHSENSE_SHARED override it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRepoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && /"name"\s*:\s*"mathsense"/.test(fs.readFileSync(pkg, 'utf8'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

function findSharedData(): string {
  if (process.env.MATHSENSE_DATA) return path.resolve(process.env.MATHSENSE_DATA);
  if (process.env.MATHSENSE_SHARED) {
    const s = path.resolve(process.env.MATHSENSE_SHARED);
    return fs.existsSync(path.join(s, 'data')) ? path.join(s, 'data') : s;
  }
  return path.resolve(repoRoot, '..', 'shared', 'data');
}

export const repoRoot = findRepoRoot();
export const sharedData = findSharedData();
export const modelsDir = path.join(repoRoot, 'models');
export const vocabFile = path.join(modelsDir, 'tokenizer', 'vocab.json');
export const hasSharedData = fs.existsSync(path.join(sharedData, 'proofwiki'));
