// `npm run train`: reproduces models/mathsense-encoder from ../shared/data.
//   1. compiles the server (the tokenizer lives there) and exports token-id pairs to .cache/train
//   2. trains with /usr/bin/python3 models/training/train.py (CUDA when present, else 2 CPU threads)
//   3. writes config.json (model version = hash of the .onnx) next to the .onnx
// Needs: apt-get install -y --no-install-recommends python3-torch python3-onnx python3-numpy libopenblas0-pthread
// Options: --steps N, --seconds S (fit the run into S seconds: steps from the measured speed),
// --small (the earlier CPU-sized model: 2 layers, d = 128, 64 tokens, batch 64, 3,500 steps,
// about 76 min on 2 cores), --out DIR (default models/mathsense-encoder), --skip-export, --finalize-only
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { run, writeEncoderConfig } from '../lib/encoderTraining.js';
import { repoRoot } from '../lib/repo.js';

const root = repoRoot;
process.chdir(root);
const { values: opt } = parseArgs({ options: {
  steps: { type: 'string' }, seconds: { type: 'string' }, small: { type: 'boolean', default: false }, out: { type: 'string', default: 'models/mathsense-encoder' },
  'skip-export': { type: 'boolean', default: false }, 'finalize-only': { type: 'boolean', default: false },
  python: { type: 'string', default: '/usr/bin/python3' },
} });

const t0 = Date.now();
if (!opt['finalize-only']) {
  run('npx', ['tsc', '-b', 'server', 'scripts']);
  if (!opt['skip-export']) run(process.execPath, ['scripts/out/bin/exportTrainingData.js']);
  const small = opt.small ? ['--layers', '2', '--d', '128', '--batch', '64', '--max-len-a', '64', '--max-len-b', '64', '--steps', '3500'] : [];
  run(opt.python, ['models/training/train.py', '--data', '.cache/train', '--out', opt.out, ...small,
    ...(opt.steps ? ['--steps', opt.steps] : []), ...(opt.seconds ? ['--seconds', opt.seconds] : [])]);
}

const config = await writeEncoderConfig(root, opt.out, '.cache/train', 'pairs');
console.log(`wrote ${path.join(opt.out, 'config.json')} (version ${config.version}); ${((Date.now() - t0) / 60000).toFixed(1)} min`);
// the results-to-cite rankers read this encoder's scores: refit them for the new model
if (path.resolve(opt.out) === path.resolve(root, 'models/mathsense-encoder')) run(process.execPath, ['scripts/out/bin/trainRankers.js']);
