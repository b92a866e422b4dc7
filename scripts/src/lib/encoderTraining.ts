// What `npm run train` and `npm run train:formula` share: running a pipeline step, and writing
// config.json next to a trained encoder.onnx (the one format both encoders load through).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Vocabulary } from 'mathsense-server/api/embeddings';

export function run(cmd: string, args: string[]): void {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  // passive OpenMP waiting: on a shared 2-core machine spinning threads only slow everyone down
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { OMP_WAIT_POLICY: 'PASSIVE', ...process.env } });
  if (r.status !== 0) { console.error(`${cmd} failed (${r.status ?? r.signal})`); process.exit(1); }
}

/** The fields read here of the exported data's meta.json (exportTrainingData.ts, exportFormulaData.ts). */
interface ExportMeta { vocabHash: string }
/** The fields read here of training.json, which models/training/*.py write (`d`: the dimension's older name). */
interface TrainingInfo { dim?: number; d?: number; maxTokens: number; weights?: string }

/**
 * config.json: what the runtime needs to load the model and to key its cache (model version =
 * start of the .onnx SHA-256). Refuses when the exported data (`dataDir`/meta.json) was made
 * with another vocabulary than models/tokenizer/vocab.json. Run from the repository root.
 */
export async function writeEncoderConfig(root: string, outDir: string, dataDir: string, exported: string) {
  const onnx = path.join(outDir, 'encoder.onnx');
  const sha = createHash('sha256').update(fs.readFileSync(onnx)).digest('hex');
  const meta: ExportMeta = JSON.parse(fs.readFileSync(path.join(dataDir, 'meta.json'), 'utf8'));
  const vocabPath = path.relative(outDir, 'models/tokenizer/vocab.json');
  const vocab = Vocabulary.load('models/tokenizer/vocab.json');
  if (vocab.hash !== meta.vocabHash) { console.error(`the exported ${exported} were made with another vocabulary: run without --skip-export`); process.exit(1); }
  const training: TrainingInfo = JSON.parse(fs.readFileSync(path.join(outDir, 'training.json'), 'utf8'));
  const config = { format: 'mathsense-encoder', version: sha.slice(0, 12), onnx: 'encoder.onnx', onnxSha256: sha, vocab: vocabPath, vocabHash: vocab.hash, dim: training.dim ?? training.d, maxTokens: training.maxTokens, ...(training.weights ? { weights: training.weights } : {}) };
  fs.writeFileSync(path.join(outDir, 'config.json'), `${JSON.stringify(config, null, 1)}\n`);
  return config;
}
