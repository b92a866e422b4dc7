// Finds and validates an encoder's files (models/<model>/config.json + models/tokenizer): the
// text encoder (mathsense-encoder) or the formula encoder (formula-encoder), which share one
// config format and one tokenizer. A missing or corrupt file is a ModelError with a message
// that says what to do; callers switch the model features off instead of failing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { within } from '../util/paths.js';
import { moduleDir } from '../util/packageRoot.js';

export const ENCODER_DIR = 'mathsense-encoder';
/** The formula encoder (related equations): same files and config format, another folder. */
export const FORMULA_ENCODER_DIR = 'formula-encoder';

export interface EncoderConfig {
  format: 'mathsense-encoder';
  /** Short hash of the .onnx bytes: part of every embedding cache key. */
  version: string;
  onnx: string;
  onnxSha256: string;
  vocab: string;
  vocabHash: string;
  dim: number;
  maxTokens: number;
  /** How the shipped weights are stored (absent: float32, as trained). */
  weights?: string;
}

export interface EncoderFiles {
  dir: string;
  config: EncoderConfig;
  onnxPath: string;
  vocabPath: string;
}

export class ModelError extends Error {
  override name = 'ModelError';
}

/** The `models` folder: an explicit setting, else the first `models/` above this module. */
export function findModelsDir(explicit?: string, from: string = moduleDir()): string | undefined {
  if (explicit) return path.resolve(explicit);
  for (let d = from, i = 0; i < 6; i++, d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'models', ENCODER_DIR, 'config.json'))) return path.join(d, 'models');
  }
  return undefined;
}

/** A model version: a prefix of its weights' hash. */
export const MODEL_VERSION = /^[0-9a-f]{6,64}$/;

/** Whether `p` lies within the folder `dir` (not the folder itself). */
function inside(dir: string, p: string): boolean {
  return within(dir, p) && path.resolve(p) !== path.resolve(dir);
}

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Reads config.json and checks that the .onnx and vocabulary are there and intact. */
export function loadEncoderFiles(modelsDir: string | undefined, opts: { verifyHash?: boolean; model?: string } = {}): EncoderFiles {
  if (!modelsDir) throw new ModelError('no models folder found: set mathsense.models.path or run `npm run train` to build models/');
  const dir = path.join(modelsDir, opts.model ?? ENCODER_DIR);
  const cfgPath = path.join(dir, 'config.json');
  if (!fs.existsSync(cfgPath)) throw new ModelError(`model config ${cfgPath} is missing${opts.model === FORMULA_ENCODER_DIR ? ' (`npm run train:formula` builds it)' : ''}`);
  let config: EncoderConfig;
  try {
    config = JSON.parse(fs.readFileSync(cfgPath, 'utf8'));
  } catch (e) {
    throw new ModelError(`model config ${cfgPath} is not valid JSON (${(e as Error).message})`);
  }
  if (config.format !== 'mathsense-encoder') throw new ModelError(`${cfgPath} is not a MathSense encoder config`);
  // a models folder may come from a workspace setting: what its config names must not lead outside it
  // (the version is part of the embedding cache's file name, the paths are read)
  if (typeof config.version !== 'string' || !MODEL_VERSION.test(config.version)) throw new ModelError(`${cfgPath}: "version" must be a hexadecimal hash (6 to 64 characters)`);
  if (!Number.isInteger(config.dim) || config.dim <= 0 || config.dim > 8192) throw new ModelError(`${cfgPath}: "dim" must be a positive whole number`);
  if (typeof config.onnx !== 'string' || typeof config.vocab !== 'string') throw new ModelError(`${cfgPath}: "onnx" and "vocab" must be file names`);
  const onnxPath = path.resolve(dir, config.onnx);
  const vocabPath = path.resolve(dir, config.vocab);
  if (!inside(dir, onnxPath)) throw new ModelError(`${cfgPath}: "onnx" must name a file in ${dir}`);
  if (!inside(modelsDir, vocabPath)) throw new ModelError(`${cfgPath}: "vocab" must name a file in ${modelsDir}`);
  for (const f of [onnxPath, vocabPath]) if (!fs.existsSync(f)) throw new ModelError(`model file ${f} is missing`);
  if (opts.verifyHash !== false && sha256(onnxPath) !== config.onnxSha256) {
    throw new ModelError(`model file ${onnxPath} is corrupt (its SHA-256 does not match config.json); restore it from git or run \`npm run train\``);
  }
  return { dir, config, onnxPath, vocabPath };
}
