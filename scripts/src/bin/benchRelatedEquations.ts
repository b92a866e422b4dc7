// Related equations over stdio on the whole Stacks project as the workspace folder: the bundled
// server (`npm run build` first) with the bundled index (build/index, when built). Measures
//   * cold: from the first code-lens request to every workspace equation analysed,
//   * lens resolution latency (codeLens/resolve) for lenses spread over the chapters,
//   * search latency (workspace/executeCommand mathsense.findRelatedEquations at a position),
//   * the `matches` lens list per chapter (every display searched, encoder-free, a bounded time
//     per request and a refresh until done): first answer, time to complete, requests, a warm
//     request after, and how many lenses it shows,
// as p50/p95/max of the request round trip, plus the server's RSS. Resolution and search run
// the whole search (workspace + index, fused ranking) for every request: nothing is memoised
// per equation.
//
//   node scripts/out/bin/benchRelatedEquations.js [--samples N] [--chapters N]
//   MATHSENSE_MODELS=DIR   models folder to use (mathsense.models.path), e.g. with a formula encoder
//
// Data: $MATHSENSE_SHARED/data or ../shared/data. Writes test-output/bench-related-equations.json.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeLens } from 'vscode-languageserver-protocol/node';
import { LspClient } from 'mathsense-server/api/cli';
import type { ServerStatus } from 'mathsense-server/protocol';
import { repoRoot } from '../lib/repo.js';

const root = repoRoot;
const argv = process.argv.slice(2);
const option = (name: string, dflt: number) => { const i = argv.indexOf(name); return i < 0 ? dflt : Number(argv[i + 1]); };
const SAMPLES = option('--samples', 200);
const CHAPTERS = option('--chapters', 20);
const data = process.env.MATHSENSE_SHARED ? path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data') : path.resolve(root, '..', 'shared', 'data');
const stacks = path.join(data, 'latex', 'stacks-project');
const bundle = path.join(root, 'server', 'dist', 'mathsense.cjs');
if (!fs.existsSync(stacks)) { console.error(`no Stacks project at ${stacks}`); process.exit(1); }
if (!fs.existsSync(bundle)) { console.error(`${bundle} missing: npm run build`); process.exit(1); }

// MATHSENSE_MODELS: a models folder (mathsense.models.path), e.g. one with a formula-encoder
// lenses on every display first (`all`: list, then resolve); the `matches` mode is measured after
const settings = { relatedEquations: { lens: 'all' }, ...(process.env.MATHSENSE_MODELS ? { models: { path: path.resolve(process.env.MATHSENSE_MODELS) } } : {}) };
let configAnswers = 0;
const client = new LspClient({ bundle, nodeArgs: process.env.MATHSENSE_BENCH_NODE_ARGS?.split(' ').filter(Boolean), settings: () => { configAnswers++; return settings; } });
const conn = client.conn;
let refreshes = 0;
conn.onRequest('workspace/codeLens/refresh', () => { refreshes++; return null; });
conn.onNotification('window/logMessage', (m: { type: number; message: string }) => { if (process.env.VERBOSE || m.type === 1) console.error(`[server] ${m.message}`); });

const seeded = (seed: number) => () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const rnd = seeded(42);
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, p50: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), max: +s[s.length - 1].toFixed(1), mean: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(1) };
};
const time = async <T>(f: () => Promise<T>): Promise<[number, T]> => { const t0 = performance.now(); const r = await f(); return [performance.now() - t0, r]; };

await client.initialize(stacks, { workspace: { configuration: true, codeLens: { refreshSupport: true } }, window: { workDoneProgress: true } });
const [scanMs, scanned] = await time(() => conn.sendRequest<ServerStatus>('mathsense/status'));
console.log(`workspace scanned in ${(scanMs / 1000).toFixed(1)} s, RSS ${Math.round(scanned.rssBytes / 1e6)} MB`);

// chapters with the most display equations
const files = fs.readdirSync(stacks).filter((f) => f.endsWith('.tex'));
const count = (t: string) => (t.match(/\\begin\{(equation|align|gather|multline|eqnarray)\*?\}|\\\[|\$\$/g) ?? []).length;
const chapters = files.map((f) => ({ f, text: fs.readFileSync(path.join(stacks, f), 'utf8') })).map((c) => ({ ...c, n: count(c.text) })).sort((a, b) => b.n - a.n).slice(0, CHAPTERS);
for (const c of chapters) client.open(path.join(stacks, c.f), c.text);

// the derivation checks of the opened chapters settle first (their memory is not this feature's)
await new Promise((r) => setTimeout(r, Number(process.env.SETTLE_MS ?? 20_000)));
const opened = await conn.sendRequest<{ rssBytes: number }>('mathsense/status');
console.log(`${chapters.length} chapters opened, RSS ${Math.round(opened.rssBytes / 1e6)} MB`);

// cold: the first lens request starts the background analysis of the workspace's equations
const t0 = performance.now();
const lenses: Array<CodeLens & { file: string; listMs: number }> = [];
for (const c of chapters) {
  const uri = pathToFileURL(path.join(stacks, c.f)).href;
  const [ms, ls] = await time(() => conn.sendRequest<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } }));
  lenses.push(...ls.map((l) => ({ ...l, file: c.f, listMs: ms })));
}
let status: ServerStatus;
for (;;) {
  status = await conn.sendRequest<ServerStatus>('mathsense/status');
  if (status.equations.sites > 0 && status.equations.pending === 0 && (status.equations.vectorsPending ?? 0) === 0) break;
  await new Promise((r) => setTimeout(r, 250));
}
const coldMs = performance.now() - t0;
const rssAnalysed = Math.round(status.rssBytes / 1e6);
console.log(`${status.equations.sites} workspace equations analysed${status.equations.encoder.state === 'ready' ? ' and embedded' : ''} in ${(coldMs / 1000).toFixed(1)} s (cold); index equations: ${status.equations.index}; formula encoder: ${status.equations.encoder.state}`);

const pick = <T>(xs: T[], n: number): T[] => { const a = [...xs]; const out: T[] = []; while (out.length < n && a.length) out.push(a.splice(Math.floor(rnd() * a.length), 1)[0]); return out; };
const lensSample = pick(lenses, SAMPLES);
const resolveMs: number[] = [];
let withResults = 0, sameEquation = 0;
for (const l of lensSample) {
  const { file, listMs, ...lens } = l;
  const [ms, r] = await time(() => conn.sendRequest<CodeLens>('codeLens/resolve', lens));
  resolveMs.push(ms);
  const res = r.command?.arguments?.[0];
  if (res?.results?.length) withResults++;
  if (/^Same as/.test(r.command?.title ?? '')) sameEquation++;
}
const searchMs: number[] = [];
for (const l of pick(lenses, SAMPLES)) {
  const [ms] = await time(() => conn.sendRequest('workspace/executeCommand', { command: 'mathsense.findRelatedEquations', arguments: [{ uri: l.data.uri, position: l.range.start }] }));
  searchMs.push(ms);
}
const listMs = stats(chapters.map((c) => lenses.find((l) => l.file === c.f)?.listMs ?? 0));
// `matches`: the lens list runs the (encoder-free) search of every display of the file; the
// searches are kept per display text, so a second request after an edit elsewhere is cheap
settings.relatedEquations.lens = 'matches';
const asked = configAnswers;
await conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
while (configAnswers === asked) await new Promise((r) => setTimeout(r, 20));
await new Promise((r) => setTimeout(r, 50));
// a request searches for a bounded time and asks for a refresh when displays are left: the
// bench answers refreshes as an editor does, until no refresh comes
const matchFirst: number[] = [], matchComplete: number[] = [], matchWarm: number[] = [], rounds: number[] = [];
let shown = 0, displays = 0;
for (const c of chapters) {
  const uri = pathToFileURL(path.join(stacks, c.f)).href;
  const start = performance.now();
  let ls: CodeLens[] = [], n = 0;
  for (;;) {
    const before = refreshes;
    const [ms, got] = await time(() => conn.sendRequest<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } }));
    if (n++ === 0) matchFirst.push(ms);
    ls = got;
    await new Promise((r) => setTimeout(r, 300));
    if (refreshes === before) break;
  }
  matchComplete.push(performance.now() - start - 300);
  rounds.push(n);
  const [warm] = await time(() => conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }));
  matchWarm.push(warm);
  shown += ls.length;
  displays += lenses.filter((l) => l.file === c.f).length;
}
status = await conn.sendRequest<ServerStatus>('mathsense/status');
const report = {
  workspace: { files: status.documents, equations: status.equations.sites, indexEquations: status.equations.index, encoder: status.equations.encoder.state },
  scanMs: Math.round(scanMs), coldAnalysisMs: Math.round(coldMs),
  codeLens: listMs, resolve: stats(resolveMs), search: stats(searchMs),
  matches: { firstAnswer: stats(matchFirst), complete: stats(matchComplete), requests: stats(rounds), listWarm: stats(matchWarm), lensesShown: shown, displays },
  resolvedWithResults: withResults, resolvedSameEquation: sameEquation,
  rssMB: { scanned: Math.round(scanned.rssBytes / 1e6), opened: Math.round(opened.rssBytes / 1e6), analysed: rssAnalysed, end: Math.round(status.rssBytes / 1e6) },
};
console.log(JSON.stringify(report, null, 2));
fs.mkdirSync(path.join(root, 'test-output'), { recursive: true });
fs.writeFileSync(path.join(root, 'test-output', 'bench-related-equations.json'), JSON.stringify(report, null, 2));
try { await client.stop(); } finally { client.kill(); }
