// Paths the model and data tests share: the repository's committed models and the shared data.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { repoRoot, sharedData } from './paths.js';

export { repoRoot, sharedData };
export const modelsDir = path.join(repoRoot, 'models');
export const vocabFile = path.join(modelsDir, 'tokenizer', 'vocab.json');
export const hasSharedData = fs.existsSync(path.join(sharedData, 'proofwiki'));
