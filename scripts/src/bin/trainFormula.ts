// `npm run train:formula`: reproduces models/formula-encoder from ../shared/data.
//   1. compiles the server (rewrite engine, canonical formulas, tokenizer) and exports token-id
//      clusters to .cache/train-formula (scripts/src/bin/exportFormulaData.ts)
//   2. trains with /usr/bin/python3 models/training/train_formula.py (CUDA when present, else 2 CPU threads)
//   3. writes config.json (model version = hash of the .onnx) next to the .onnx, in the text
//      encoder's format, so the same loader reads it
// Needs: apt-get install -y --no-install-recommends python3-torch python3-onnx python3-numpy libopenblas0-pthread
// Options: --steps N, --out DIR (default models/formula-encoder), --skip-export, --finalize-only
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { run, writeEncoderConfig } from '../lib/encoderTraining.js';
import { repoRoot } from '../lib/repo.js';

const root = repoRoot;
process.chdir(root);
const { values: opt } = parseArgs({ options: {
  steps: { type: 'string' }, out: { type: 'string', default: 'models/formula-encoder' },
  data: { type: 'string', default: '.cache/train-formula' },
  'skip-export': { type: 'boolean', default: false }, 'finalize-only': { type: 'boolean', default: false },
  python: { type: 'string', default: '/usr/bin/python3' },
} });

const t0 = Date.now();
if (!opt['finalize-only']) {
  run('npx', ['tsc', '-b', 'server', 'scripts']);
  if (!opt['skip-export']) run(process.execPath, ['scripts/out/bin/exportFormulaData.js', '--out', opt.data]);
  run(opt.python, ['models/training/train_formula.py', '--data', opt.data, '--out', opt.out, ...(opt.steps ? ['--steps', opt.steps] : [])]);
}

const config = await writeEncoderConfig(root, opt.out, opt.data, 'clusters');
console.log(`wrote ${path.join(opt.out, 'config.json')} (version ${config.version}); ${((Date.now() - t0) / 60000).toFixed(1)} min`);
