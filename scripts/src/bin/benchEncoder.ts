// `npm run bench:encoder`: the text encoder's throughput on an accelerator against the CPU,
// measured in the same run, and how far the accelerator's vectors are from the CPU's.
//
//   node scripts/out/bin/benchEncoder.js [--accelerator auto|cuda|webgpu|cpu] [--models DIR] [--items N] [--json FILE]
//
// Texts: ProofWiki proofs from $MATHSENSE_DATA (default ../shared/data) when present, else the
// repository's own .tex files cut into paragraphs (so it also runs on a machine with the
// repository alone). Needs `npx tsc -b server scripts`. Exit status: 0 ok, 1 error, 2 the accelerator
// asked for could not be used (the CPU row is still printed, with the reason).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from '../lib/repo.js';
import { EncoderSession, GPU_MIN_BATCH } from 'mathsense-server/api/embeddings';
import { loadProofWiki } from '../data/proofwiki.js';

const root = repoRoot;
const { values: opt } = parseArgs({ options: {
  accelerator: { type: 'string', default: 'auto' }, models: { type: 'string' }, items: { type: 'string', default: '2048' },
  json: { type: 'string' },
} });
type Accelerator = NonNullable<NonNullable<Parameters<typeof EncoderSession.load>[1]>['accelerator']>;
const ACCELERATORS: readonly Accelerator[] = ['auto', 'cpu', 'cuda', 'webgpu'];
const modelsDir = path.resolve(opt.models ?? path.join(root, 'models'));
const n = Number(opt.items);

async function proofWikiTexts() {
  const dataDir = process.env.MATHSENSE_DATA ? path.resolve(process.env.MATHSENSE_DATA) : path.resolve(root, '..', 'shared', 'data');
  if (!fs.existsSync(path.join(dataDir, 'proofwiki', 'proofwiki_pages_rendered.jsonl'))) return [];
  return loadProofWiki(dataDir).flatMap((t) => t.proofs).filter((s) => s.length > 40);
}

function repoTexts(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(tex|md)$/.test(e.name)) out.push(...fs.readFileSync(p, 'utf8').split(/\n\s*\n/).filter((s) => s.length > 40));
    }
  };
  walk(root);
  return out;
}

let texts = await proofWikiTexts();
const source = texts.length ? 'ProofWiki proofs' : 'paragraphs of the repository\'s .tex and .md files';
if (!texts.length) texts = repoTexts();
texts = Array.from({ length: n }, (_, i) => texts[i % texts.length]);

async function measure(accelerator: Accelerator) {
  const enc = await EncoderSession.load(modelsDir, { accelerator, threads: 2 });
  const ids = texts.map((t) => enc.encode(t));
  await enc.embedIds(ids.slice(0, 64)); // first run compiles kernels / allocates: not timed
  let t0 = performance.now();
  const one = Math.min(256, ids.length);
  for (const x of ids.slice(0, one)) await enc.embedIds([x]);
  const batch1 = one / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  const vecs = [];
  for (let s = 0; s < ids.length; s += 64) vecs.push(...await enc.embedIds(ids.slice(s, s + 64)));
  const batch64 = ids.length / ((performance.now() - t0) / 1000);
  const info = enc.info;
  await enc.release();
  return { provider: info.provider, fallbacks: info.fallbacks, loadMs: info.loadMs, batch1, batch64, vecs };
}

const cpu = await measure('cpu');
// a name the encoder does not know runs its default provider order, as 'auto' does
const acc = opt.accelerator === 'cpu' ? undefined : await measure(ACCELERATORS.find((a) => a === opt.accelerator) ?? 'auto');
let maxDev = 0;
if (acc) {
  for (let i = 0; i < cpu.vecs.length; i++) {
    let dot = 0;
    for (let k = 0; k < cpu.vecs[i].length; k++) dot += cpu.vecs[i][k] * acc.vecs[i][k];
    maxDev = Math.max(maxDev, Math.abs(1 - dot));
  }
}
console.log(`Encoder ${modelsDir}; ${n} texts (${source}); CPU with 2 threads as the baseline, same run.`);
console.log('| provider | load ms | batch 1 items/s | batch 64 items/s | batch 64 vs CPU |');
console.log('|---|---|---|---|---|');
for (const r of acc ? [cpu, acc] : [cpu]) {
  console.log(`| ${r.provider} | ${r.loadMs.toFixed(0)} | ${r.batch1.toFixed(0)} | ${r.batch64.toFixed(0)} | ${(r.batch64 / cpu.batch64).toFixed(2)}x |`);
}
if (acc && acc.provider !== 'cpu') console.log(`(batches under ${GPU_MIN_BATCH} run on a CPU session beside the ${acc.provider} one: the batch 1 row measures that)`);
if (acc) {
  for (const f of acc.fallbacks) console.log(`fell back from ${f.provider}: ${f.error}`);
  console.log(`largest 1 - cosine between the ${acc.provider} and CPU vectors: ${maxDev.toExponential(2)}`);
}
if (opt.json) fs.writeFileSync(opt.json, JSON.stringify({ cpu: { ...cpu, vecs: undefined }, acc: acc && { ...acc, vecs: undefined }, maxDev }, null, 1));
const wanted = opt.accelerator;
process.exit(acc && wanted !== 'auto' && acc.provider !== wanted ? 2 : 0);
