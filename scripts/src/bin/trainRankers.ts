// Fits the rankers on train splits and writes them with their dev figures: first the proof
// ranker (server/src/index/proofRanker.ts) into models/proof-ranker/ranker.json, then the
// results-to-cite rankers (server/src/index/referenceRanker.ts), whose voting neighbours are
// found by the proof ranker's similarity, into models/reference-ranker/ranker.json. Needs `npx
// tsc -b server scripts` and the text encoder in models/ (its vectors are cached under .cache/eval-embeddings).
//   node scripts/out/bin/trainRankers.js [--slice N] [--models DIR] [--out DIR]
// --models: where the encoder and tokenizer are read (default models/); --out defaults to it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from '../lib/repo.js';
import { createContext } from '../eval/scorer.js';
import { trainReferenceRankers } from '../eval/referenceTraining.js';
import { trainProofRanker } from '../eval/proofRankerTraining.js';
import type { ProofRankerModel, ReferenceRankers } from 'mathsense-server/api/index';

const root = repoRoot;
const { values: opt } = parseArgs({ options: { slice: { type: 'string' }, models: { type: 'string' }, out: { type: 'string' } } });
const modelsDir = path.resolve(opt.models ?? path.join(root, 'models'));
const outDir = path.resolve(opt.out ?? modelsDir);
const out = path.join(outDir, 'reference-ranker', 'ranker.json');
const proofOut = path.join(outDir, 'proof-ranker', 'ranker.json');
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const t0 = Date.now();
const log = (m: string) => console.error(`[train-rankers ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);
const ctx = await createContext({ modelsDir, cacheDir: opt.slice ? undefined : path.join(root, '.cache', 'eval-embeddings'), log });
const dataDir = path.join(shared, 'data');
const slice = opt.slice ? Number(opt.slice) : undefined;
const write = (file: string, json: unknown) => { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, `${JSON.stringify(json, null, 1)}\n`); };

const proof: ProofRankerModel & { encoder?: string; seconds?: number } = await trainProofRanker(ctx, dataDir, slice);
proof.encoder = ctx.enc.info.version;
proof.seconds = Math.round((Date.now() - t0) / 1000);
write(proofOut, proof);
console.log(`| proof ranker feature | weight |\n|---|---|`);
proof.features.forEach((f, i) => console.log(`| ${f} | ${proof.weights[i].toFixed(3)} |`));
console.log(`\n| dev figure | % |\n|---|---|`);
for (const [k, v] of Object.entries(proof.dev)) console.log(`| ${k} | ${v} |`);
log(`wrote ${path.relative(root, proofOut)}`);

const t1 = Date.now();
const rankers: ReferenceRankers & { encoder?: string; seconds?: number } = await trainReferenceRankers(ctx, dataDir, slice, proof);
await ctx.enc.release();
rankers.encoder = ctx.enc.info.version;
rankers.seconds = Math.round((Date.now() - t1) / 1000);
write(out, rankers);
const { text, position } = rankers;
console.log(`\n| model | reads |\n|---|---|`);
console.log(`| text | network (${text.shared.out.length} tanh units) over ${text.shared.features.join(', ')}; plus ${text.names.map((w, i) => `${text.features[text.shared.features.length + i]} ${w.toFixed(3)}`).join(', ')} |`);
console.log(`| position | network (${position.out.length} tanh units) over ${position.features.join(', ')} |`);
console.log(`\n| dev figure | % |\n|---|---|`);
for (const [k, v] of Object.entries(rankers.dev)) console.log(`| ${k} | ${v} |`);
log(`wrote ${path.relative(root, out)}`);
