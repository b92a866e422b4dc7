// Model evaluation (issue 4): BM25 (same tokenizer), the shipped encoder and their fusion on
// held-out data, with the published anchors, printed as one table. Needs `npx tsc -b server scripts`.
//   node scripts/out/bin/evalModels.js [--slice N] [--models DIR] [--json FILE]
// Data: $MATHSENSE_SHARED/data, default ../shared/data. Embeddings of a full run are cached
// under .cache/eval-embeddings (keyed by model version), so a second run is faster.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from '../lib/repo.js';
import { runModelEval, formatEvalTable } from '../eval/modelEval.js';

const root = repoRoot;
const { values: opt } = parseArgs({ options: { slice: { type: 'string' }, models: { type: 'string' }, json: { type: 'string' }, 'bm25-only': { type: 'boolean' } } });
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const t0 = Date.now();
const result = await runModelEval({
  dataDir: path.join(shared, 'data'),
  modelsDir: opt.models ? path.resolve(opt.models) : path.join(root, 'models'),
  bm25Only: opt['bm25-only'],
  slice: opt.slice ? Number(opt.slice) : undefined,
  cacheDir: opt.slice ? undefined : path.join(root, '.cache', 'eval-embeddings'),
  log: (m) => console.error(`[eval-models ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`),
});
console.log(`\n## Models (issue 4)${opt.slice ? ` — slice of ${opt.slice} queries per task` : ''}\n`);
console.log(formatEvalTable(result));
if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(result, null, 1));
