// Does anything wait behind a code lens? Over stdio, on the whole Stacks project as the
// workspace folder with the `matches` lens mode: `algebra.tex` is opened and its first code-lens
// list is asked for (cold: the workspace's equations are not analysed yet); while that request is
// in flight, a hover on a `\ref` is sent every 25 ms, and each hover's round trip is timed. Run
// against this build and, with --baseline, another server bundle in the same run (a worktree of
// an earlier commit, built): hover p50/p95/max during the list, and the list's own time.
//
//   node scripts/out/bin/benchLensWait.js [--baseline path/to/mathsense.cjs] [--file algebra.tex]
//
// Data: $MATHSENSE_SHARED/data or ../shared/data. $MATHSENSE_BENCH_NODE_ARGS adds Node options
// to the servers (`--cpu-prof --cpu-prof-dir=test-output/prof`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from 'mathsense-server/api/cli';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => { const i = argv.indexOf(name); return i < 0 ? undefined : argv[i + 1]; };
const data = process.env.MATHSENSE_SHARED ? path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data') : path.resolve(repoRoot, '..', 'shared', 'data');
const stacks = path.join(data, 'latex', 'stacks-project');
const FILE = arg('--file') ?? 'algebra.tex';
const HOVER_EVERY_MS = 25;

interface Run { name: string; hovers: number[]; lensMs: number; lenses: number }

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return { n: s.length, p50: q(0.5), p95: q(0.95), max: s[s.length - 1] ?? NaN };
};

async function measure(name: string, bundle: string): Promise<Run> {
  const nodeArgs = process.env.MATHSENSE_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const client = new LspClient({ bundle, nodeArgs, settings: () => ({ relatedEquations: { lens: 'matches' } }) });
  const conn = client.conn;
  try {
    await client.initialize(stacks, { workspace: { configuration: true, codeLens: { refreshSupport: true } }, window: { workDoneProgress: true } });
    await conn.sendRequest('mathsense/status');
    const file = path.join(stacks, FILE);
    const text = fs.readFileSync(file, 'utf8');
    const uri = pathToFileURL(file).href;
    client.open(uri, text);
    // the derivation checks of the opened file settle first
    await new Promise((r) => setTimeout(r, 5000));
    const at = text.indexOf('\\ref{', Math.floor(text.length / 2)) + 6;
    const before = text.slice(0, at);
    const position = { line: (before.match(/\n/g) ?? []).length, character: at - before.lastIndexOf('\n') - 1 };
    const hovers: number[] = [];
    let done = false;
    const t0 = performance.now();
    const lensP = conn.sendRequest<unknown[]>('textDocument/codeLens', { textDocument: { uri } }).then((ls) => { done = true; return ls; });
    while (!done) {
      const h0 = performance.now();
      await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position });
      hovers.push(performance.now() - h0);
      const wait = HOVER_EVERY_MS - (performance.now() - h0);
      if (wait > 0 && !done) await new Promise((r) => setTimeout(r, wait));
    }
    const lenses = await lensP;
    const lensMs = performance.now() - t0;
    await client.end();
    return { name, hovers, lensMs, lenses: lenses?.length ?? 0 };
  } finally {
    client.kill();
  }
}

const runs: Run[] = [];
const baseline = arg('--baseline');
if (baseline) runs.push(await measure(`baseline (${path.relative(repoRoot, baseline)})`, path.resolve(baseline)));
runs.push(await measure('this build', path.join(repoRoot, 'server', 'dist', 'mathsense.cjs')));
const f = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : '-');
console.log(`\n## Hovers during the first \`matches\` code-lens list of ${FILE} (Stacks workspace)\n`);
console.log(table([
  ['server', 'hovers sent', 'hover p50', 'hover p95', 'hover max', 'lens list', 'lenses'],
  ...runs.map((r) => { const s = stats(r.hovers); return [r.name, String(s.n), f(s.p50), f(s.p95), f(s.max), f(r.lensMs), String(r.lenses)]; }),
]));
