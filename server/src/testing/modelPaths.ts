// Paths the model and data tests share: the repository's committed models and the shared data.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { repoRoot, sharedData } from './paths.js';

export { repoRoot, sharedData };
export const modelsDir = path.join(repoRoot, 'models');
export const vocabFile = path.join(modelsDir, 'tokenizer', 'vocab.json');
export const hasSharedData = fs.existsSync(path.join(sharedData, 'proofwiki'));
export const hasTextEncoder = fs.existsSync(path.join(modelsDir, 'mathsense-encoder', 'config.json'));

/**
 * A temporary models folder for the formula encoder: the tokenizer, the text encoder, and
 * models/formula-encoder once it has been trained (until then the text encoder's files stand in
 * for it under that name). The caller removes the folder.
 */
export function stageFormulaModels(): string {
  const models = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-fmodels-'));
  fs.cpSync(path.join(modelsDir, 'tokenizer'), path.join(models, 'tokenizer'), { recursive: true });
  fs.cpSync(path.join(modelsDir, 'mathsense-encoder'), path.join(models, 'mathsense-encoder'), { recursive: true });
  const trained = path.join(modelsDir, 'formula-encoder');
  fs.cpSync(fs.existsSync(path.join(trained, 'config.json')) ? trained : path.join(modelsDir, 'mathsense-encoder'), path.join(models, 'formula-encoder'), { recursive: true });
  return models;
}
