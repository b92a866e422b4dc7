// The dependency graph over real stdio: on the Stacks workspace (algebra.tex) and on the largest
// blueprint in latex-wild, after the project is read: time until the graph's lenses appear
// (the graph built in turns), then keystrokes typed into a proof, each followed by the
// call-hierarchy requests on that proof's statement (what an edit's graph update costs, since
// each request brings the graph up to date first) and by its diagnostics, and the graph view's
// request (neighbourhood and whole compilation). The same keystrokes are sent to a baseline
// bundle (this base commit, built) in the same run: its keystroke → diagnostics time is
// the reference the graph's cost on diagnostics is read against.
//
//   node scripts/out/bin/benchDependencies.js [--baseline path/to/mathsense.cjs] [--keys N]
//
// $MATHSENSE_BENCH_BASELINE names the baseline bundle too. Data: $MATHSENSE_SHARED/data or ../shared/data.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from 'mathsense-server/api/cli';
import { DEPENDENCY_GRAPH_REQUEST, type DependencyGraphResponse } from 'mathsense-server/protocol';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => { const i = argv.indexOf(name); return i < 0 ? undefined : argv[i + 1]; };
const data = process.env.MATHSENSE_SHARED ? path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data') : path.resolve(repoRoot, '..', 'shared', 'data');
const KEYS = Number(arg('--keys') ?? 30);
const BASELINE = arg('--baseline') ?? process.env.MATHSENSE_BENCH_BASELINE;

interface Project { name: string; folder: string; file: string }
const PROJECTS: Project[] = [
  { name: 'Stacks algebra.tex', folder: path.join(data, 'latex', 'stacks-project'), file: 'algebra.tex' },
  { name: 'testing-lower-bounds blueprint', folder: path.join(data, 'latex-wild', 'testing-lower-bounds-blueprint', 'blueprint', 'src'), file: 'sections/f_divergence.tex' },
];

/** The pause before the second run of keystrokes. */
const SETTLE_MS = 3000;

interface Run {
  server: string; project: string;
  /** Project read → first code-lens list holding the graph's lenses. */
  firstGraphMs?: number;
  keystrokeDiagnostics: number[];
  /** The same, typed after a pause of SETTLE_MS (the graph's first build and what follows it are over). */
  keystrokeSettled: number[];
  /** Keystroke → prepareCallHierarchy sent at once (the graph's update in it). */
  update: number[];
  prepare: number[]; incoming: number[]; outgoing: number[];
  neighbourhoodMs?: number; wholeMs?: number; wholeNodes?: number;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return { p50: q(0.5), p95: q(0.95) };
};

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
}

async function measure(server: string, bundle: string, p: Project, graph: boolean): Promise<Run> {
  const client = new LspClient({ bundle, settings: () => ({ relatedEquations: { lens: 'off' }, derivations: { enabled: false } }) });
  const conn = client.conn;
  const run: Run = { server, project: p.name, keystrokeDiagnostics: [], keystrokeSettled: [], update: [], prepare: [], incoming: [], outgoing: [] };
  try {
    await client.initialize(p.folder, { workspace: { configuration: true } });
    const file = path.join(p.folder, p.file);
    let text = fs.readFileSync(file, 'utf8');
    const uri = client.open(file, text);
    await conn.sendRequest('mathsense/status');
    if (graph) {
      // the graph is built in turns after the project is read: its lenses appear then
      const [, ms] = await timed(async () => {
        for (;;) {
          const lenses = await conn.sendRequest<Array<{ command?: { title: string } }>>('textDocument/codeLens', { textDocument: { uri } });
          if (lenses?.some((l) => l.command?.title.startsWith('uses '))) return;
          await new Promise((r) => setTimeout(r, 20));
        }
      });
      run.firstGraphMs = ms;
    }
    await client.diagnostics(uri, () => true, 60_000);
    // a proof in the middle of the file: type into it
    let at = text.indexOf('\\begin{proof}', Math.floor(text.length / 2));
    at = text.indexOf('\n', at) + 1;
    // the typing place moves one character per keystroke on its line: counted once, outside what is timed
    // (counting the lines of a large chapter per request would be timed as the server's)
    const position = (o: number) => { const b = text.slice(0, o); return { line: (b.match(/\n/g) ?? []).length, character: o - b.lastIndexOf('\n') - 1 }; };
    let cursor = position(at);
    const here = () => cursor;
    let version = 1;
    const type = () => {
      const pos = cursor;
      client.change(uri, ++version, [{ range: { start: pos, end: pos }, text: 'x' }]);
      text = text.slice(0, at) + 'x' + text.slice(at);
      at++;
      cursor = { line: pos.line, character: pos.character + 1 };
      return version;
    };
    /** Keystroke → its diagnostics, nothing else asked (both servers), KEYS times. */
    const typeInto = async (times: number[]) => {
      for (let k = 0; k < KEYS; k++) {
        const t0 = performance.now();
        const v = type();
        await client.diagnostics(uri, (d) => d.version === v, 30_000);
        times.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 30));
      }
    };
    await typeInto(run.keystrokeDiagnostics);
    // typing that starts a while after opening: what remains when the first build's work is over
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    await typeInto(run.keystrokeSettled);
    // keystroke → prepareCallHierarchy at once: the request brings the graph up to date first
    // (after the keystroke's diagnostics, which the server computes first)
    for (let k = 0; graph && k < KEYS; k++) {
      const v = type();
      run.update.push((await timed(() => conn.sendRequest<unknown[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: here() })))[1]);
      await client.diagnostics(uri, (d) => d.version === v, 30_000);
      await new Promise((r) => setTimeout(r, 30));
    }
    // call hierarchy as it is used: after a pause in typing
    for (let k = 0; graph && k < KEYS; k++) {
      const v = type();
      await client.diagnostics(uri, (d) => d.version === v, 30_000);
      await new Promise((r) => setTimeout(r, 400));
      const [items, a] = await timed(() => conn.sendRequest<unknown[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: here() }));
      run.prepare.push(a);
      if (items?.length) {
        run.incoming.push((await timed(() => conn.sendRequest('callHierarchy/incomingCalls', { item: items[0] })))[1]);
        run.outgoing.push((await timed(() => conn.sendRequest('callHierarchy/outgoingCalls', { item: items[0] })))[1]);
      }
    }
    if (graph) {
      const [, n] = await timed(() => conn.sendRequest<DependencyGraphResponse>(DEPENDENCY_GRAPH_REQUEST, { uri, position: here(), scope: 'neighbourhood', depth: 1 }));
      run.neighbourhoodMs = n;
      const [whole, w] = await timed(() => conn.sendRequest<DependencyGraphResponse>(DEPENDENCY_GRAPH_REQUEST, { uri, scope: 'whole' }));
      run.wholeMs = w;
      run.wholeNodes = whole.nodes.length;
    }
    await client.end();
    return run;
  } finally {
    client.kill();
  }
}

const runs: Run[] = [];
for (const p of PROJECTS) {
  if (!fs.existsSync(path.join(p.folder, p.file))) { console.error(`skipped ${p.name}: ${p.folder} missing`); continue; }
  if (BASELINE) runs.push(await measure('baseline', path.resolve(BASELINE), p, false));
  runs.push(await measure('this build', path.join(repoRoot, 'server', 'dist', 'mathsense.cjs'), p, true));
}
const f = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? `${x.toFixed(1)} ms` : '-');
const s = (xs: number[]) => { const q = stats(xs); return xs.length ? `${f(q.p50)} / ${f(q.p95)}` : '-'; };
console.log(`\n## The dependency graph over stdio (${KEYS} keystrokes in a proof; p50 / p95)\n`);
console.log(table([
  ['project', 'server', 'graph lenses after read', 'keystroke → diagnostics', `the same, ${SETTLE_MS / 1000} s later`, 'keystroke → graph updated (prepareCallHierarchy at once)', 'prepareCallHierarchy', 'incoming', 'outgoing', 'graph view: neighbourhood', 'whole compilation'],
  ...runs.map((r) => [r.project, r.server, f(r.firstGraphMs), s(r.keystrokeDiagnostics), s(r.keystrokeSettled), s(r.update), s(r.prepare), s(r.incoming), s(r.outgoing), f(r.neighbourhoodMs), r.wholeMs === undefined ? '-' : `${f(r.wholeMs)} (${r.wholeNodes} statements)`]),
]));
for (const p of PROJECTS) {
  const base = runs.find((r) => r.project === p.name && r.server === 'baseline');
  const mine = runs.find((r) => r.project === p.name && r.server === 'this build');
  const ratio = (k: 'keystrokeDiagnostics' | 'keystrokeSettled') => base && mine ? (stats(mine[k]).p95 / stats(base[k]).p95).toFixed(2) : '-';
  if (base && mine) console.log(`${p.name}: keystroke → diagnostics p95, this build / baseline: ${ratio('keystrokeDiagnostics')} right after the graph's first build, ${ratio('keystrokeSettled')} ${SETTLE_MS / 1000} s later`);
}
const hier = runs.filter((r) => r.prepare.length).map((r) => Math.max(stats(r.prepare).p95, stats(r.incoming).p95, stats(r.outgoing).p95));
if (hier.some((x) => x >= 30)) { console.log('\nTarget missed: call hierarchy p95 < 30 ms'); process.exit(3); }
