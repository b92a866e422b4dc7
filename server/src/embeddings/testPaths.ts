// Paths the embedding tests share: the repository's committed models and the shared data.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (tests run from server/out/embeddings). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const modelsDir = path.join(repoRoot, 'models');
export const vocabFile = path.join(modelsDir, 'tokenizer', 'vocab.json');
export const sharedData = process.env.MATHSENSE_SHARED
  ? path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data')
  : path.resolve(repoRoot, '..', 'shared', 'data');
export const hasSharedData = fs.existsSync(path.join(sharedData, 'proofwiki'));
