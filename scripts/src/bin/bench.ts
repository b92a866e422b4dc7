// `npm run bench`: measures the language server against the Stacks project and compares it
// with a full unified-latex parse of the same file, timed in the same run. Scenarios: cold
// open of the whole project as a workspace folder (time to scan, RSS), then keystroke ->
// publishDiagnostics latency in algebra.tex, with the workspace and as a lone file. Wall-clock
// latency is reported as asked; server CPU time per keystroke is reported too because it
// stays meaningful on a machine where other processes compete for the CPU.
//
//   node scripts/out/bin/bench.js [--quick] [--rounds N] [--places N] [--verbose]
//
//   --quick     parse only the first 100 KB for the baseline and extrapolate linearly
//   --rounds N  passes over the typing places (default 3)
//   --places N  places typed at, spread through the file (default 20)
//   --only a,b  only these scenarios (workspace, singleFile, atOnce, refCompletion, baseline)
//   --sizes     cost against document size instead, 1 to 31 MB (benchSizes.ts; --mb 1,4 for other sizes)
//   --requests  every interactive request the server answers, p50 / p95 on the Stacks workspace with
//               the full index and SVG hovers (benchRequests.ts; MATHSENSE_BENCH_BASELINE as --burst)
//   --scale     the scaled library store (LanceDB) at 1M and 10M vectors: build time, query p95,
//               recall@10 against exact search, several reading processes (benchScale.ts; opt-in)
//   --burst     VS Code's burst of requests on opening a huge workspace file, and a hover elsewhere
//               meanwhile (benchBurst.ts; MATHSENSE_BENCH_BASELINE=bundle for the same run's baseline)
//
// Needs a built server (`npm run build`). Data: $MATHSENSE_DATA or ../shared/data.
// $MATHSENSE_BENCH_SERVER names another server bundle to measure (a base commit's build), for a
// before/after pair run one after the other on the same machine.
// $MATHSENSE_BENCH_NODE_ARGS adds Node options to the server processes, e.g.
// "--cpu-prof --cpu-prof-dir=test-output/prof" to profile them.
// Writes test-output/bench.json. Exit status: 0 ok, 1 error (timeout, crash, mismatch),
// 3 a hard target was missed (keystroke ratio < 300x or server RSS >= 300 MB).
import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type CompletionItem, type CompletionList, type Diagnostic, type ProtocolConnection, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import type { ServerStatus } from 'mathsense-server/protocol';
import { repoRoot } from '../lib/repo.js';
import { vmStatus } from 'mathsense-server/api/util';

const root = repoRoot;
if (isMainThread) process.chdir(root); // workers may not chdir

/** What VS Code declares it takes in a completion list's `itemDefaults`. */
const VSCODE_ITEM_DEFAULTS = ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'];

// ---- options ------------------------------------------------------------------------------

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string, dflt: number): number => {
  const i = argv.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(argv[i + 1]);
  if (!Number.isInteger(v) || v <= 0) die(`${name} needs a positive integer`);
  return v;
};
const QUICK = flag('--quick');
const VERBOSE = flag('--verbose');
const ROUNDS = option('--rounds', 3);
const PLACES = option('--places', 20);
const QUICK_BYTES = 100_000;
// --only workspace,singleFile,atOnce,baseline: run only these scenarios
const ONLY = argv.includes('--only') ? new Set(argv[argv.indexOf('--only') + 1].split(',')) : undefined;
const GAP_MS = 20; // pause between keystrokes, roughly a fast typist's rhythm
const TIMEOUT = { init: 30_000, scan: 180_000, open: 60_000, keystroke: 10_000, shutdown: 5_000, parse: 600_000 };
const TARGET = { ratioMin: 300, ratioAim: 1000, rssMaxBytes: 300 * 1024 * 1024 };

const DATA = path.resolve(process.env.MATHSENSE_DATA ?? path.join(root, '..', 'shared', 'data'));
const PROJECT = path.join(DATA, 'latex', 'stacks-project');
const FILE = path.join(PROJECT, 'algebra.tex');
// $MATHSENSE_BENCH_SERVER measures another bundle (a base commit's build) with the same scenarios
const SERVER = path.resolve(process.env.MATHSENSE_BENCH_SERVER ?? path.join(root, 'server', 'dist', 'mathsense.cjs'));
const SERVER_NODE_ARGS = (process.env.MATHSENSE_BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

function die(msg: string): never {
  process.stderr.write(`bench: ${msg}\n`);
  process.exit(1);
}
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

// server processes still running: killed on any way out, so that no server is left behind
const liveChildren = new Set<ChildProcess>();
process.on('exit', () => { for (const c of liveChildren) c.kill('SIGKILL'); });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { log(`${sig}: stopping`); process.exit(130); });

// ---- helpers ------------------------------------------------------------------------------

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

function summarize(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { n: s.length, p50: percentile(s, 0.5), p95: percentile(s, 0.95), max: s[s.length - 1], mean };
}

/** LSP position (UTF-16 code units, as JS strings are) of `offset` in `text`. */
function positionAt(text: string, offset: number) {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}

/**
 * `n` typing places spread through the text: the end of the first word of a prose line
 * (letters and punctuation only, so not math, a command or a comment) at or after each
 * i*len/n. Strictly increasing and on distinct lines.
 */
function pickPlaces(text: string, n: number): number[] {
  const prose = /^[A-Za-z][A-Za-z ,.;:'()-]{30,}$/gm;
  const places: number[] = [];
  for (let i = 0; i < n; i++) {
    prose.lastIndex = Math.max(Math.floor((i * text.length) / n), places.length ? places[places.length - 1] + 1 : 0);
    const m = prose.exec(text);
    if (!m) throw new Error(`found only ${places.length} of ${n} prose lines to type in`);
    const space = m[0].indexOf(' ');
    places.push(m.index + (space > 0 ? space : m[0].length));
    prose.lastIndex = m.index + m[0].length;
  }
  return places;
}


/** CPU time (user + system, all threads) a process has used so far, in ms; null if unknown. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // comm may contain spaces
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK; // utime, stime
  } catch {
    return null;
  }
}
const CLK_TCK = 100; // USER_HZ, 100 on every mainstream Linux architecture

const fmtMs = (ms: number | null | undefined) => (ms == null ? 'n/a' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(2)} ms`);
const fmtMB = (b: number | null | undefined) => (b == null ? 'n/a' : `${(b / 2 ** 20).toFixed(0)} MB`);
const fmtX = (x: number) => (x >= 100 ? `${Math.round(x).toLocaleString('en-US')}×` : `${x.toFixed(1)}×`);

// ---- LSP client -----------------------------------------------------------------------------

/** Diagnostics the server published, and when they came. */
interface Published { at: number; params: PublishDiagnosticsParams }

/** One server process with a minimal client around it. */
class Session {
  name: string;
  stderr: string;
  logs: string[];
  waiters: Map<string, { resolve: (v: Published) => void; reject: (e: Error) => void }>;
  latest: Map<string, Published>;
  dead: Error | undefined;
  // set by start(), which every scenario calls before anything else
  child!: ChildProcessWithoutNullStreams;
  exited!: Promise<void>;
  conn!: ProtocolConnection;

  server: string;

  /** `server`: the bundle to run (another build's, for a baseline in the same run). */
  constructor(name: string, server = SERVER) {
    this.name = name;
    this.server = server;
    this.stderr = '';
    this.logs = [];
    this.waiters = new Map(); // `${uri}#${version}` -> { resolve, reject }
    this.latest = new Map(); // uri -> last publishDiagnostics params and when it came
    this.dead = undefined;
  }

  start() {
    this.child = spawn(process.execPath, [...SERVER_NODE_ARGS, this.server, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    liveChildren.add(this.child);
    this.child.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-4000); });
    this.exited = new Promise<void>((resolve) => this.child.on('exit', (code, signal) => {
      liveChildren.delete(this.child);
      this.fail(new Error(`server exited (code ${code}, signal ${signal})${this.stderr ? `; stderr:\n${this.stderr}` : ''}`));
      resolve();
    }));
    this.child.on('error', (e) => this.fail(new Error(`cannot start server: ${e.message}`)));
    const conn = createProtocolConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    // the server blocks its workspace scan on this request: it must be answered
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest('client/registerCapability', () => null);
    conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => null));
    conn.onNotification('window/logMessage', (m: { type: number; message: string }) => {
      this.logs.push(m.message);
      if (VERBOSE || m.type === 1) log(`${this.name} server: ${m.message}`);
    });
    conn.onNotification('$/progress', (p: { value: unknown }) => { if (VERBOSE) log(`${this.name} progress: ${JSON.stringify(p.value)}`); });
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      const at = performance.now(); // before anything else so the handler's cost is not counted
      this.latest.set(p.uri, { at, params: p });
      const w = this.waiters.get(`${p.uri}#${p.version}`);
      if (w) { this.waiters.delete(`${p.uri}#${p.version}`); w.resolve({ at, params: p }); }
    });
    conn.onError(([e]) => this.fail(new Error(`protocol error: ${e?.message ?? e}`)));
    conn.listen();
    this.conn = conn;
  }

  fail(err: Error) {
    if (this.dead) return;
    this.dead = err;
    for (const w of this.waiters.values()) w.reject(err);
    this.waiters.clear();
  }

  /** Resolves when diagnostics for exactly this version arrive. Register before sending. */
  diagnosticsFor(uri: string, version: number, ms: number): Promise<Published> {
    if (this.dead) return Promise.reject(this.dead);
    const p = new Promise<Published>((resolve, reject) => this.waiters.set(`${uri}#${version}`, { resolve, reject }));
    return withTimeout(p, ms, `diagnostics for ${path.basename(uri)} version ${version}`);
  }

  /**
   * The diagnostics of `uri` once the server has published nothing for it for `quietMs`
   * (a server may publish a version again when background checks finish).
   */
  async settled(uri: string, quietMs = 750, ms = TIMEOUT.open): Promise<PublishDiagnosticsParams | undefined> {
    const deadline = performance.now() + ms;
    for (;;) {
      if (this.dead) throw this.dead;
      const last = this.latest.get(uri);
      const idle = last ? performance.now() - last.at : quietMs;
      if (idle >= quietMs) return last?.params;
      if (performance.now() > deadline) throw new Error(`diagnostics for ${path.basename(uri)} still changing after ${ms} ms`);
      await sleep(quietMs - idle + 1);
    }
  }

  /** `R`: what the server answers `method` with. */
  request<R>(method: string, params: unknown, ms: number): Promise<R> {
    if (this.dead) return Promise.reject(this.dead);
    const died = new Promise<never>((_, reject) => this.exited.then(() => reject(this.dead)));
    return withTimeout(Promise.race([this.conn.sendRequest<R>(method, params), died]), ms, method);
  }

  notify(method: string, params?: unknown) {
    if (this.dead) throw this.dead;
    this.conn.sendNotification(method, params).catch((e) => this.fail(new Error(`cannot send ${method}: ${e.message}`)));
  }

  async initialize(folders: string[]) {
    const t0 = performance.now();
    await this.request('initialize', {
      processId: process.pid,
      rootUri: folders[0] ? pathToFileURL(folders[0]).href : null,
      workspaceFolders: folders.length ? folders.map((f) => ({ uri: pathToFileURL(f).href, name: path.basename(f) })) : null,
      // no workspace.configuration: the server then starts its scan synchronously in
      // `initialized`, so a following mathsense/status reliably waits for it
      capabilities: {
        window: { workDoneProgress: true },
        // completion lists as VS Code takes them: a range given once for all items
        textDocument: { publishDiagnostics: { versionSupport: true }, synchronization: { dynamicRegistration: false }, completion: { completionList: { itemDefaults: VSCODE_ITEM_DEFAULTS } } },
        workspace: { workspaceFolders: true },
      },
    }, TIMEOUT.init);
    this.notify('initialized', {});
    return t0;
  }

  async close() {
    if (!this.child) return;
    if (!this.dead) {
      try {
        await this.request('shutdown', undefined, TIMEOUT.shutdown);
        this.notify('exit');
      } catch { /* killed below */ }
    }
    const exited = await Promise.race([this.exited.then(() => true), sleep(2000).then(() => false)]);
    if (!exited) this.child.kill('SIGKILL');
    this.conn.dispose();
  }
}

// ---- scenarios ----------------------------------------------------------------------------

/**
 * Opens algebra.tex, then types at spread-out places, timing didChange -> diagnostics. With
 * `atOnce`, typing starts right after the first diagnostics, while the server still embeds the
 * chapter's statements and analyses its equations in the background (as a user who opens a
 * file and starts typing); otherwise once the project has settled.
 */
async function typingScenario(s: Session, original: string, { atOnce = false } = {}) {
  const uri = pathToFileURL(FILE).href;
  let text = original;
  let version = 1;

  let wait = s.diagnosticsFor(uri, version, TIMEOUT.open);
  const tOpen = performance.now();
  s.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'latex', version, text } });
  const opened = await wait;
  const openMs = opened.at - tOpen;
  const openDiagnostics = countCodes(opened.params.diagnostics);
  log(`${s.name}: didOpen -> diagnostics ${fmtMs(openMs)} (${opened.params.diagnostics.length} diagnostics)`);
  // the server then reads included / xr-external files in the background; status answers once
  // they are in, so typing is measured on the settled project (as a user would type)
  let settleMs: number | null = null;
  if (!atOnce) {
    const tSettle = performance.now();
    const settled = await s.request<ServerStatus>('mathsense/status', undefined, TIMEOUT.scan);
    settleMs = performance.now() - tSettle;
    log(`${s.name}: project settled after ${fmtMs(settleMs)} (${settled.documents} documents)`);
    await sleep(500);
  }

  const places = pickPlaces(text, PLACES);
  const typed = places.map(() => 0);
  const samples: number[] = [];
  // wall-clock latency suffers when other processes compete for the CPU; the server's own
  // CPU time per keystroke does not, so it is recorded as well
  const cpu0 = cpuMs(s.child.pid);
  for (let round = 0; round < ROUNDS; round++) {
    // a different letter per round so each edit yields block text the cache has not seen
    const ch = String.fromCharCode(0x71 + (round % 10));
    for (let k = 0; k < places.length; k++) {
      const offset = places[k] + typed[k];
      const pos = positionAt(text, offset);
      text = text.slice(0, offset) + ch + text.slice(offset);
      typed[k]++;
      for (let j = k + 1; j < places.length; j++) places[j]++;
      version++;
      wait = s.diagnosticsFor(uri, version, TIMEOUT.keystroke);
      const t0 = performance.now();
      s.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range: { start: pos, end: pos }, text: ch }] });
      samples.push((await wait).at - t0);
      await sleep(GAP_MS);
    }
    log(`${s.name}: round ${round + 1}/${ROUNDS}: ${summarizeLine(summarize(samples.slice(-places.length)))}`);
  }

  const cpu1 = cpuMs(s.child.pid);
  const cpuPerKeystrokeMs = cpu0 == null || cpu1 == null ? null : (cpu1 - cpu0) / samples.length;

  // Consistency check: a full-text replacement must give the same diagnostics as the
  // incremental edits did, otherwise our text copy or the server's re-splitting diverged.
  const incremental = await s.settled(uri);
  version++;
  wait = s.diagnosticsFor(uri, version, TIMEOUT.open);
  s.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
  await wait;
  const full = await s.settled(uri);
  if (incremental?.version !== version - 1 || full?.version !== version) throw new Error('diagnostics published for an unexpected version');
  const consistent = JSON.stringify(full.diagnostics) === JSON.stringify(incremental.diagnostics);
  if (!consistent) throw new Error(`diagnostics after incremental edits differ from a full-text update`);

  return { openMs, settleMs, openDiagnostics, keystrokes: { ...summarize(samples), cpuPerKeystrokeMs, samples }, consistent };
}

function countCodes(diags: Diagnostic[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of diags) out[String(d.code)] = (out[String(d.code)] ?? 0) + 1;
  return out;
}

const summarizeLine = (k: ReturnType<typeof summarize>) => `p50 ${fmtMs(k.p50)}, p95 ${fmtMs(k.p95)}, max ${fmtMs(k.max)}`;

async function workspaceScenario(text: string) {
  const s = new Session('workspace');
  try {
    s.start();
    const t0 = await s.initialize([PROJECT]);
    log('workspace: scanning the Stacks project...');
    const status = await s.request<ServerStatus>('mathsense/status', undefined, TIMEOUT.scan);
    const coldOpenMs = performance.now() - t0;
    const mem = vmStatus(s.child.pid!); // it answered, so it was spawned
    log(`workspace: scan complete in ${fmtMs(coldOpenMs)}: ${status.documents} documents, ${status.blocks} blocks, RSS ${fmtMB(mem.vmRssBytes)}`);
    // a status answered before the scan ran would make every number below meaningless
    const onDisk = fs.readdirSync(PROJECT).filter((f) => /\.(tex|sty|cls)$/.test(f)).length;
    if (status.documents < onDisk) throw new Error(`status reports ${status.documents} documents, the folder has ${onDisk}`);
    const typing = await typingScenario(s, text);
    const after = await s.request<ServerStatus>('mathsense/status', undefined, TIMEOUT.init);
    return {
      coldOpenMs, serverScanLog: s.logs.find((l) => l.startsWith('indexed')), status, rssAfterScan: { ...mem, reportedRssBytes: status.rssBytes },
      ...typing, rssAfterTyping: { ...vmStatus(s.child.pid!), reportedRssBytes: after.rssBytes }, cacheAfterTyping: after.cache,
    };
  } finally {
    await s.close();
  }
}

async function singleFileScenario(text: string) {
  const s = new Session('single-file');
  try {
    s.start();
    await s.initialize([]);
    const typing = await typingScenario(s, text);
    const after = await s.request<ServerStatus>('mathsense/status', undefined, TIMEOUT.init);
    return { ...typing, documentsLoaded: after.documents, rssAfterTyping: { ...vmStatus(s.child.pid!), reportedRssBytes: after.rssBytes } };
  } finally {
    await s.close();
  }
}

/**
 * Typing from the first diagnostics on, while the chapter's statements are embedded and its
 * equations analysed in the background; compared with typing on the settled single file.
 */
async function atOnceScenario(text: string) {
  const s = new Session('typing-at-once');
  try {
    s.start();
    await s.initialize([]);
    const t0 = performance.now();
    const typing = await typingScenario(s, text, { atOnce: true });
    const typedMs = performance.now() - t0;
    const after = await s.request<ServerStatus>('mathsense/status', undefined, TIMEOUT.init);
    return { ...typing, typedMs, embeddings: after.embeddings };
  } finally {
    await s.close();
  }
}

/**
 * `\ref{` completion inside a proof of algebra.tex, with the Stacks project as the workspace:
 * the first request after a pause in typing, then two more in a row (the same run's baseline:
 * what the ranking costs once everything it reads is cached).
 */
/** The same for the bundle MATHSENSE_BENCH_BASELINE names (a base commit's build), in this run. */
async function refCompletionBaseline(text: string) {
  const bundle = process.env.MATHSENSE_BENCH_BASELINE;
  if (!bundle) return undefined;
  return { ...(await refCompletionScenario(text, path.resolve(bundle))), bundle, label: process.env.MATHSENSE_BENCH_BASELINE_LABEL };
}

/** Where in algebra.tex's proofs the completion is asked (shares of the way through them). */
const REF_PLACES = [0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85];

async function refCompletionScenario(text: string, server = SERVER) {
  const s = new Session('ref-completion', server);
  try {
    s.start();
    await s.initialize([PROJECT]);
    await s.request('mathsense/status', undefined, TIMEOUT.scan);
    const uri = pathToFileURL(FILE).href;
    const opened = s.diagnosticsFor(uri, 1, TIMEOUT.open);
    s.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'latex', version: 1, text } });
    await opened;
    await s.settled(uri);
    // in proofs spread over the chapter, as a user starting to cite: at each, the first request
    // after a pause in typing (the statement is new to the ranking), then two more in a row
    const proofs = [...text.matchAll(/\\begin\{proof\}/g)].map((m) => m.index! + m[0].length); // matchAll's matches have an index
    const first: number[] = [], next: number[] = [];
    let items = 0;
    for (const [k, share] of REF_PLACES.entries()) {
      const at = proofs[Math.floor(proofs.length * share)];
      const typed = `${text.slice(0, at)} By \\ref{${text.slice(at)}`;
      const changed = s.diagnosticsFor(uri, 2 + k, TIMEOUT.open);
      s.notify('textDocument/didChange', { textDocument: { uri, version: 2 + k }, contentChanges: [{ text: typed }] });
      await changed;
      await sleep(1500); // a pause in typing: the server's background work after an edit runs
      const before = typed.slice(0, at + ' By \\ref{'.length).split('\n');
      const position = { line: before.length - 1, character: before[before.length - 1].length };
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        const r = await s.request<CompletionItem[] | CompletionList>('textDocument/completion', { textDocument: { uri }, position }, TIMEOUT.init);
        times.push(performance.now() - t);
        items = (Array.isArray(r) ? r : r.items).length;
      }
      first.push(times[0]);
      next.push(times[1], times[2]);
    }
    log(`ref-completion${server === SERVER ? '' : ` (${path.relative(root, server)})`}: ${items} labels; first ${first.map(fmtMs).join(', ')}; repeated ${next.map(fmtMs).join(', ')}`);
    first.sort((a, b) => a - b);
    next.sort((a, b) => a - b);
    return { items, places: first.length, firstMs: percentile(first, 0.5), firstP95Ms: percentile(first, 0.95), nextMs: percentile(next, 0.5), nextP95Ms: percentile(next, 0.95) };
  } finally {
    await s.close();
  }
}

/**
 * unified-latex parse of the whole file (or, with --quick, of its first 100 KB, scaled).
 * Runs in a worker thread of this process so that the main thread can show progress during
 * the ~40 s parse, and so that the parse gets the ~3 GB heap it needs whatever V8's default.
 */
/** What the parse worker posts back. */
type ParseResult = { error: string; ms?: undefined } | { ms: number; cpuMs: number; nodes: number; error?: undefined };

async function baseline(text: string) {
  let input = text;
  if (QUICK) {
    const cut = text.lastIndexOf('\n\n', QUICK_BYTES); // whole paragraphs
    input = text.slice(0, cut > 0 ? cut : QUICK_BYTES);
  }
  log(`baseline: parsing ${(input.length / 1e6).toFixed(2)} MB with unified-latex${QUICK ? ' (--quick)' : ' (expect ~40 s)'}...`);
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { input, warmUp: QUICK }, resourceLimits: { maxOldGenerationSizeMb: 8192 },
  });
  const started = performance.now();
  const ticker = setInterval(() => log(`baseline: still parsing (${Math.round((performance.now() - started) / 1000)} s)`), 10_000);
  try {
    const r = await withTimeout(new Promise<ParseResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`parse worker exited with code ${code}`)));
    }), TIMEOUT.parse, 'the unified-latex parse');
    if (r.error !== undefined) throw new Error(`unified-latex failed: ${r.error}`);
    const fullMs = (r.ms * text.length) / input.length;
    log(`baseline: ${fmtMs(r.ms)}${QUICK ? ` for ${input.length} chars, ${fmtMs(fullMs)} extrapolated to ${text.length}` : ''}`);
    return {
      parsedChars: input.length, totalChars: text.length, ms: r.ms, fullMs, extrapolated: QUICK,
      cpuMs: r.cpuMs, fullCpuMs: (r.cpuMs * text.length) / input.length, topLevelNodes: r.nodes,
    };
  } finally {
    clearInterval(ticker);
    await worker.terminate();
  }
}

async function parseWorker() {
  const { parse } = await import('@unified-latex/unified-latex-util-parse');
  const { input, warmUp }: { input: string; warmUp: boolean } = workerData;
  const post = (r: ParseResult) => parentPort!.postMessage(r); // a worker always has its parent port
  try {
    // a short sample is dominated by JIT warm-up, which a full parse amortises: warm up first
    if (warmUp) parse(input.slice(0, 20_000));
    const t0 = performance.now();
    const cpu0 = process.cpuUsage(); // process-wide, but the main thread idles meanwhile
    const ast = parse(input);
    const cpu = process.cpuUsage(cpu0);
    const ms = performance.now() - t0;
    post({ ms, cpuMs: (cpu.user + cpu.system) / 1000, nodes: ast?.content?.length ?? 0 });
  } catch (e) {
    post({ error: String((e as Error)?.stack ?? e) });
  }
}

// ---- report -------------------------------------------------------------------------------

/** test-output/bench.json: the run, each scenario's result (absent when skipped or failed), the targets. */
interface BenchResults {
  date: string; node: string; cpus: number; platform: string;
  quick: boolean; rounds: number; places: number; file: string; fileChars: number;
  loadAvgAtStart: number; loadAvgAtEnd?: number; errors: string[];
  workspace?: Awaited<ReturnType<typeof workspaceScenario>>;
  singleFile?: Awaited<ReturnType<typeof singleFileScenario>>;
  atOnce?: Awaited<ReturnType<typeof atOnceScenario>>;
  refCompletion?: Awaited<ReturnType<typeof refCompletionScenario>>;
  refCompletionBaseline?: Awaited<ReturnType<typeof refCompletionBaseline>>;
  baseline?: Awaited<ReturnType<typeof baseline>>;
  ratios?: Record<string, number | null>;
  targetsMissed?: string[];
}

function report(r: BenchResults) {
  const base = r.baseline?.fullMs;
  const baseCell = base == null ? 'n/a' : `${fmtMs(base)}${r.baseline?.extrapolated ? ' (extrapolated)' : ''}`;
  const ratio = (ms: number | null | undefined) => (base == null || ms == null ? 'n/a' : fmtX(base / ms));
  const pass = (ok: boolean | null) => (ok == null ? '' : ok ? ' ✅' : ' ❌');
  const rows: string[][] = [];
  const file = `${path.basename(FILE)}, ${(r.fileChars / 1e6).toFixed(2)} MB`;
  if (r.baseline) {
    const b = r.baseline;
    rows.push(b.extrapolated
      ? [`Full unified-latex parse (${file})`, `${fmtMs(b.ms)} for first ${Math.round(b.parsedChars / 1000)} KB`, baseCell, 'baseline, **linear extrapolation (--quick)**']
      : [`Full unified-latex parse (${file})`, fmtMs(b.ms), '(this row)', 'baseline']);
  }
  for (const [key, label] of [['workspace', 'workspace'], ['singleFile', 'single file']] as const) {
    const sc = r[key];
    if (!sc) continue;
    const k = sc.keystrokes;
    const ok = base == null ? null : base / k.p95 >= TARGET.ratioMin;
    rows.push([`Keystroke → diagnostics p50 (${label}, n=${k.n})`, fmtMs(k.p50), baseCell, ratio(k.p50)]);
    rows.push([`Keystroke → diagnostics **p95** (${label})`, fmtMs(k.p95), baseCell,
      `${ratio(k.p95)} (target ≥ ${TARGET.ratioMin}×, aim ${TARGET.ratioAim}×)${pass(ok)}`]);
    rows.push([`Keystroke → diagnostics max (${label})`, fmtMs(k.max), baseCell, ratio(k.max)]);
    if (k.cpuPerKeystrokeMs != null && r.baseline?.fullCpuMs != null) {
      rows.push([`Server CPU time per keystroke, mean, all threads (${label})`, fmtMs(k.cpuPerKeystrokeMs), `${fmtMs(r.baseline.fullCpuMs)} CPU`,
        fmtX(r.baseline.fullCpuMs / k.cpuPerKeystrokeMs)]);
    }
    const loaded = 'documentsLoaded' in sc && sc.documentsLoaded ? `; server loaded ${sc.documentsLoaded} docs via \\input/\\externaldocument` : '';
    rows.push([`didOpen → first diagnostics (${label}${loaded})`, fmtMs(sc.openMs), baseCell, ratio(sc.openMs)]);
  }
  const a = r.atOnce, settledP50 = r.singleFile?.keystrokes.p50;
  if (a) {
    // baseline: the same keystrokes on the settled single file, same run
    const vs = (ms: number) => (settledP50 == null ? 'n/a' : `${fmtX(ms / settledP50)} the settled p50`);
    rows.push([`Keystroke → diagnostics p50 typing from the first diagnostics on (single file, n=${a.keystrokes.n}, ${fmtMs(a.typedMs)} after didOpen)`, fmtMs(a.keystrokes.p50), settledP50 == null ? 'n/a' : `${fmtMs(settledP50)} settled`, vs(a.keystrokes.p50)]);
    rows.push(['Keystroke → diagnostics p95 typing from the first diagnostics on', fmtMs(a.keystrokes.p95), r.singleFile ? `${fmtMs(r.singleFile.keystrokes.p95)} settled` : 'n/a', r.singleFile ? `${fmtX(a.keystrokes.p95 / r.singleFile.keystrokes.p95)} the settled p95` : 'n/a']);
  }
  const rc = r.refCompletion;
  if (rc) {
    rows.push([`\\ref{ completion in a proof, first request after a pause, p50 / p95 over ${rc.places} proofs (Stacks workspace, ${rc.items} labels ranked)`, `${fmtMs(rc.firstMs)} / ${fmtMs(rc.firstP95Ms)}`, `${fmtMs(rc.nextMs)} / ${fmtMs(rc.nextP95Ms)} repeated`, `p95 < 30 ms${pass(rc.firstP95Ms < 30 && rc.nextP95Ms < 30)}`]);
    const rb = r.refCompletionBaseline;
    if (rb) rows.push([`the same with ${rb.label ?? path.basename(rb.bundle)} (baseline, same run)`, `${fmtMs(rb.firstMs)} / ${fmtMs(rb.firstP95Ms)}`, `${fmtMs(rb.nextMs)} / ${fmtMs(rb.nextP95Ms)} repeated`, `p95 now ${fmtX(rb.firstP95Ms / rc.firstP95Ms)} / ${fmtX(rb.nextP95Ms / rc.nextP95Ms)} faster`]);
  }
  const ws = r.workspace;
  if (ws) {
    rows.push([`Cold open: initialize → scan complete (${ws.status.documents} docs, ${ws.status.blocks} blocks)`, fmtMs(ws.coldOpenMs), '—', '—']);
    rows.push(['Server RSS after scan (/proc VmRSS)', fmtMB(ws.rssAfterScan.vmRssBytes), '—',
      `< ${fmtMB(TARGET.rssMaxBytes)}${pass(ws.rssAfterScan.vmRssBytes == null ? null : ws.rssAfterScan.vmRssBytes < TARGET.rssMaxBytes)}`]);
    rows.push(['Server RSS after scan (server-reported rssBytes)', fmtMB(ws.rssAfterScan.reportedRssBytes), '—', `< ${fmtMB(TARGET.rssMaxBytes)}`]);
    rows.push(['Server peak RSS during scan (VmHWM)', fmtMB(ws.rssAfterScan.vmHwmBytes), '—', '—']);
    rows.push([`Server RSS after ${ws.keystrokes.n} keystrokes (VmRSS)`, fmtMB(ws.rssAfterTyping.vmRssBytes), '—', '—']);
  }
  const lines = [
    '| metric | value | baseline (same run) | ratio/target |',
    '|---|---|---|---|',
    ...rows.map((c) => `| ${c.join(' | ')} |`),
  ];
  return lines.join('\n');
}

// ---- main ---------------------------------------------------------------------------------

async function main() {
  // --scale: the scaled library store at 1M and 10M vectors (benchScale.ts; opt-in, needs npm run setup:scale)
  if (flag('--scale')) { process.exitCode = await (await import('./benchScale.js')).benchScale(argv); return; }
  // --sizes: cost against document size instead (benchSizes.ts)
  if (flag('--library-equations')) { process.exitCode = await (await import('./benchLibraryEquations.js')).benchLibraryEquations(); return; }
  if (flag('--sizes')) { await (await import('./benchSizes.js')).benchSizes(); return; }
  // --burst: the requests VS Code sends on opening a huge file (benchBurst.ts)
  if (flag('--burst')) { await (await import('./benchBurst.js')).benchBurst(); return; }
  // --requests: every interactive request on the Stacks workspace (benchRequests.ts)
  if (flag('--requests')) { process.exitCode = await (await import('./benchRequests.js')).benchRequests(); return; }
  if (!fs.existsSync(FILE)) die(`data not found: ${FILE} (set MATHSENSE_DATA)`);
  if (!fs.existsSync(SERVER)) die(`${path.relative(root, SERVER)} missing: run \`npm run build\` first`);
  const newest = newestMtime(path.join(root, 'server', 'src'));
  if (newest > fs.statSync(SERVER).mtimeMs) log(`warning: server/src is newer than ${path.relative(root, SERVER)}; run \`npm run build\``);

  const text = fs.readFileSync(FILE, 'utf8');
  const results: BenchResults = {
    date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, platform: `${os.platform()} ${os.arch()}`,
    quick: QUICK, rounds: ROUNDS, places: PLACES, file: path.relative(root, FILE), fileChars: text.length,
    loadAvgAtStart: os.loadavg()[0], errors: [],
  };
  // the LSP part first: it fails fast, the baseline takes ~40 s
  const run = async <T>(key: string, scenario: (text: string) => Promise<T>): Promise<T | undefined> => {
    if (ONLY && !ONLY.has(key) && !(key === 'refCompletionBaseline' && ONLY.has('refCompletion'))) return undefined;
    try {
      return await scenario(text);
    } catch (e) {
      results.errors.push(`${key}: ${(e as Error).message}`);
      log(`FAILED ${key}: ${(e as Error).message}`);
      return undefined;
    }
  };
  results.workspace = await run('workspace', workspaceScenario);
  results.singleFile = await run('singleFile', singleFileScenario);
  results.atOnce = await run('atOnce', atOnceScenario);
  results.refCompletion = await run('refCompletion', refCompletionScenario);
  results.refCompletionBaseline = await run('refCompletionBaseline', refCompletionBaseline);
  results.baseline = await run('baseline', baseline);

  const base = results.baseline?.fullMs;
  const p95 = results.workspace?.keystrokes.p95;
  results.ratios = {
    workspaceP95: base && p95 ? base / p95 : null,
    singleFileP95: base && results.singleFile ? base / results.singleFile.keystrokes.p95 : null,
  };
  const missed: string[] = [];
  for (const [name, ratio] of Object.entries(results.ratios)) {
    if (ratio != null && ratio < TARGET.ratioMin) missed.push(`${name} ratio ${fmtX(ratio)} < ${TARGET.ratioMin}×`);
  }
  const rss = results.workspace?.rssAfterScan.vmRssBytes;
  if (rss != null && rss >= TARGET.rssMaxBytes) missed.push(`RSS after scan ${fmtMB(rss)} >= ${fmtMB(TARGET.rssMaxBytes)}`);
  results.targetsMissed = missed;
  results.loadAvgAtEnd = os.loadavg()[0];

  fs.mkdirSync('test-output', { recursive: true });
  fs.writeFileSync('test-output/bench.json', JSON.stringify(results, null, 2) + '\n');

  console.log(`\nMathSense bench — ${results.date}, Node ${process.version}, ${results.cpus} CPUs${QUICK ? ', --quick' : ''}\n`);
  console.log(report(results));
  const busiest = Math.max(results.loadAvgAtStart, results.loadAvgAtEnd);
  if (busiest > results.cpus) {
    console.log(`\nNote: 1-min load average ${results.loadAvgAtStart.toFixed(1)} at start, ${results.loadAvgAtEnd.toFixed(1)} at end, on ${results.cpus} CPUs: other processes competed for the CPU, so absolute times are inflated (ratios less so).`);
  }
  if (QUICK) console.log('\nNote: --quick: the baseline is the first 100 KB parsed and scaled linearly to the whole file.');
  console.log('\nJSON: test-output/bench.json');
  // the derivation checker's own table (steps/s over Stacks + HoTT, incremental re-check)
  const derivations = spawnSync(process.execPath, [path.join(root, 'scripts', 'out', 'bin', 'benchDerivations.js')], { stdio: 'inherit' });
  if (derivations.status !== 0) results.errors.push(`bench-derivations exited with ${derivations.status ?? derivations.signal}`);
  // related equations over stdio on the Stacks project (lens resolution and search latency)
  const related = spawnSync(process.execPath, [path.join(root, 'scripts', 'out', 'bin', 'benchRelatedEquations.js')], { stdio: 'inherit' });
  if (related.status !== 0) results.errors.push(`bench-related-equations exited with ${related.status ?? related.signal}`);
  // hover with typeset math (MathJax SVG) against the source form, same run
  const hoverMath = spawnSync(process.execPath, [path.join(root, 'scripts', 'out', 'bin', 'benchHoverMath.js')], { stdio: 'inherit' });
  if (hoverMath.status === 3) missed.push('hover math: a p95 target (first render < 150 ms, rendered < 50 ms)');
  else if (hoverMath.status !== 0) results.errors.push(`bench-hover-math exited with ${hoverMath.status ?? hoverMath.signal}`);
  // the dependency graph: its update after a keystroke, call hierarchy, the graph view (against MATHSENSE_BENCH_BASELINE when set)
  const dependencies = spawnSync(process.execPath, [path.join(root, 'scripts', 'out', 'bin', 'benchDependencies.js')], { stdio: 'inherit' });
  if (dependencies.status === 3) missed.push('dependency graph: call hierarchy p95 < 30 ms');
  else if (dependencies.status !== 0) results.errors.push(`bench-dependencies exited with ${dependencies.status ?? dependencies.signal}`);
  if (results.errors.length) {
    console.log(`\nFAILED:\n${results.errors.map((e) => `  - ${e}`).join('\n')}`);
    process.exit(1);
  }
  if (missed.length) {
    console.log(`\nTargets missed:\n${missed.map((e) => `  - ${e}`).join('\n')}`);
    process.exit(3);
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, fs.statSync(path.join(e.parentPath ?? e.path, e.name)).mtimeMs);
  }
  return newest;
}

if (isMainThread) await main();
else await parseWorker();
