// Derivation checker benchmark (issue 3): steps checked per second over all display math in
// Stacks + HoTT (fresh checker, empty verdict cache), and the incremental re-check after an
// edit of one display in Stacks' algebra.tex (only the changed block is checked again; the
// other blocks' results come from the block cache), in process and through the worker thread.
// Needs `npm run build` (the worker bundle).
// Data: $MATHSENSE_SHARED/data, default ../shared/data. Prints a table; exit 0.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { table } from '../lib/table.js';
import { repoRoot } from '../lib/repo.js';
import { DerivationChecker, macroSignature, mathBlocks, scopeMacros, DerivationService, inProcessRunner, workerRunner } from 'mathsense-server/api/math';
import { Workspace } from 'mathsense-server/api/project';
import type { Doc } from '../lib/serverTypes.js';

const root = repoRoot;
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const data = path.join(shared, 'data');


function missing(what: string): never {
  console.error(`not found: ${what}`);
  process.exit(1);
}

const ws = new Workspace();
const files = ['stacks-project', 'hott-book'].flatMap((d) => fs.readdirSync(path.join(data, 'latex', d)).filter((f) => f.endsWith('.tex')).map((f) => path.join(data, 'latex', d, f)));
const docs = files.map((f) => ws.loadFile(f)).filter((d): d is Doc => d !== undefined);

// 1. throughput: every display-math block, fresh checker
const checker = new DerivationChecker();
let blocks = 0;
let steps = 0;
const t0 = performance.now();
for (const doc of docs) {
  const macros = scopeMacros(ws, doc);
  const sig = macroSignature(macros);
  checker.setMacros(macros, sig);
  for (const b of mathBlocks(doc, sig)) { blocks++; steps += checker.checkBlock(b).steps.length; }
}
const total = performance.now() - t0;
const evaluated = checker.checked;

// 2. incremental: edit one display of algebra.tex, re-check through the block cache
const algebra = docs.find((d) => d.uri.endsWith('/algebra.tex')) ?? missing('algebra.tex of the Stacks project');
async function incremental(runner: ConstructorParameters<typeof DerivationService>[0], label: string) {
  const service = new DerivationService(runner);
  const macros = scopeMacros(ws, algebra);
  const sig = macroSignature(macros);
  await service.steps(mathBlocks(algebra, sig), macros, sig);
  const times: Array<{ ms: number; missing: number }> = [];
  let version = 100;
  const all = mathBlocks(algebra, sig);
  for (let k = 0; k < 10; k++) {
    const target = all[Math.floor(((k + 0.5) / 10) * all.length)];
    const at = target.start + target.text.indexOf('=') + 1;
    const pos = algebra.positionAt(at);
    ws.change(algebra.uri, [{ range: { start: pos, end: pos }, text: ' + 0' }], ++version);
    const s = performance.now();
    const bl = mathBlocks(algebra, sig);
    const { missing } = service.current(bl);
    await service.check(missing, macros, sig);
    service.current(bl);
    times.push({ ms: performance.now() - s, missing: missing.length });
    // undo
    const end = algebra.positionAt(at + 4);
    ws.change(algebra.uri, [{ range: { start: pos, end }, text: '' }], ++version);
  }
  times.sort((a, b) => a.ms - b.ms);
  return [label, times[Math.floor(times.length / 2)].ms.toFixed(1), times[times.length - 1].ms.toFixed(1), Math.max(...times.map((t) => t.missing))];
}
const inc = [await incremental(inProcessRunner(), 'in process')];
const worker = workerRunner();
inc.push(await incremental(worker, 'worker thread'));

console.log('\n## Derivation checker: speed (Stacks + HoTT display math)\n');
console.log(table([
  ['documents', 'display blocks', 'steps', 'steps evaluated (cache misses)', 'total ms', 'steps / s'],
  [docs.length, blocks, steps, evaluated, total.toFixed(0), Math.round(steps / (total / 1000))],
]));
console.log('\nIncremental re-check after an edit of one display in algebra.tex (10 edits):\n');
console.log(table([['runner', 'median ms', 'max ms', 'blocks re-checked'], ...inc]));
process.exit(0);
