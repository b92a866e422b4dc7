// `npm run train:formula`: reproduces models/formula-encoder from ../shared/data.
//   1. compiles the server (rewrite engine, canonical formulas, tokenizer) and exports token-id
//      clusters to .cache/train-formula (scripts/export-formula-data.mjs)
//   2. trains with /usr/bin/python3 models/training/train_formula.py (CUDA when present, else 2 CPU threads)
//   3. writes config.json (model version = hash of the .onnx) next to the .onnx, in the text
//      encoder's format, so the same loader reads it
// Needs: apt-get install -y --no-install-recommends python3-torch python3-onnx python3-numpy libopenblas0-pthread
// Options: --steps N, --out DIR (default models/formula-encoder), --skip-export, --finalize-only
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const { values: opt } = parseArgs({ options: {
  steps: { type: 'string' }, out: { type: 'string', default: 'models/formula-encoder' },
  data: { type: 'string', default: '.cache/train-formula' },
  'skip-export': { type: 'boolean', default: false }, 'finalize-only': { type: 'boolean', default: false },
  python: { type: 'string', default: '/usr/bin/python3' },
} });

function run(cmd, args) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  // passive OpenMP waiting: on a shared 2-core machine spinning threads only slow everyone down
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { OMP_WAIT_POLICY: 'PASSIVE', ...process.env } });
  if (r.status !== 0) { console.error(`${cmd} failed (${r.status ?? r.signal})`); process.exit(1); }
}

const t0 = Date.now();
if (!opt['finalize-only']) {
  run('npx', ['tsc', '-b', 'server']);
  if (!opt['skip-export']) run(process.execPath, ['scripts/export-formula-data.mjs', '--out', opt.data]);
  run(opt.python, ['models/training/train_formula.py', '--data', opt.data, '--out', opt.out, ...(opt.steps ? ['--steps', opt.steps] : [])]);
}

// config.json: what the runtime needs to load the model and to key its cache
const onnx = path.join(opt.out, 'encoder.onnx');
const sha = createHash('sha256').update(fs.readFileSync(onnx)).digest('hex');
const meta = JSON.parse(fs.readFileSync(path.join(opt.data, 'meta.json'), 'utf8'));
const { Vocabulary } = await import(path.join(root, 'server/out/embeddings/vocabulary.js'));
const vocabPath = path.relative(opt.out, 'models/tokenizer/vocab.json');
const vocab = Vocabulary.load('models/tokenizer/vocab.json');
if (vocab.hash !== meta.vocabHash) { console.error('the exported clusters were made with another vocabulary: run without --skip-export'); process.exit(1); }
const training = JSON.parse(fs.readFileSync(path.join(opt.out, 'training.json'), 'utf8'));
const config = { format: 'mathsense-encoder', version: sha.slice(0, 12), onnx: 'encoder.onnx', onnxSha256: sha, vocab: vocabPath, vocabHash: vocab.hash, dim: training.dim ?? training.d, maxTokens: training.maxTokens };
fs.writeFileSync(path.join(opt.out, 'config.json'), `${JSON.stringify(config, null, 1)}\n`);
console.log(`wrote ${path.join(opt.out, 'config.json')} (version ${config.version}); ${((Date.now() - t0) / 60000).toFixed(1)} min`);
