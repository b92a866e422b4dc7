// `npm run bench -- --sizes`: cost against document size. A generated document of many small
// theorems with proofs and numbered aligns, each referring to the one before (the shape that
// once grew faster than the file), at 1, 4, 16 and 31 MB (under the server's 32 MB limit):
//  * `mathsense check` on it: wall time and peak RSS;
//  * the server over stdio: time from didOpen to the first diagnostics; how long a hover on a
//    theorem head sent right after the didOpen waits, and the median and longest waits of the
//    hovers sent every 50 ms after it until the first diagnostics; peak RSS.
// The slope is the exponent of a power law fitted to time against size (1 = linear). Prints a
// table and writes test-output/bench-sizes.json. Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HoverRequest, PublishDiagnosticsNotification } from 'vscode-languageserver-protocol/node';
import { LspClient } from 'mathsense-server/api/cli';
import { table } from '../lib/table.js';
import { repoRoot } from '../lib/repo.js';
import { vmStatus } from 'mathsense-server/api/util';

const SERVER = path.resolve(process.env.MATHSENSE_BENCH_SERVER ?? path.join(repoRoot, 'server', 'dist', 'mathsense.cjs'));
const argv = process.argv.slice(2);
const SIZES = argv.includes('--mb') ? argv[argv.indexOf('--mb') + 1].split(',').map(Number) : [1, 4, 16, 31];

/** The generated document, `mb` megabytes. */
export function sizedDocument(mb: number): string {
  const parts = ['\\documentclass{article}\n\\usepackage{amsmath,amsthm}\n\\newtheorem{theorem}{Theorem}\n\\begin{document}\n'];
  let size = parts[0].length;
  for (let i = 0; size < mb * 1_000_000; i++) {
    const s = `\\begin{theorem}\\label{thm:${i}}\nFor every $x > 0$, by Theorem~\\ref{thm:${Math.max(i - 1, 0)}} we have $x^2 + ${i} \\ge ${i}$.\n\\end{theorem}\n`
      + `\\begin{proof}\nWe compute\n\\begin{align}\n(x+1)^2 &= x^2 + 2x + 1 \\label{eq:${i}}\\\\\n&\\ge ${i % 7} + 1 - ${i % 7}\n\\end{align}\nwhich proves it.\n\\end{proof}\n\n`;
    parts.push(s);
    size += s.length;
  }
  parts.push('\\end{document}\n');
  return parts.join('');
}

/** Peak resident memory of a live process (Linux), MB. */
function peakMb(pid: number): number | undefined {
  const b = vmStatus(pid).vmHwmBytes;
  return b === null ? undefined : Math.round(b / (1024 * 1024));
}

function checkRun(file: string): { ms: number; peakMb?: number } {
  const started = performance.now();
  // GNU time reports the peak RSS of a finished process where it is installed
  const timed = fs.existsSync('/usr/bin/time');
  const r = timed
    ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, SERVER, 'check', '--format', 'json', file], { encoding: 'utf8', maxBuffer: 1 << 30 })
    : spawnSync(process.execPath, [SERVER, 'check', '--format', 'json', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - started;
  const kb = timed ? Number(/(\d+)\s*$/.exec(r.stderr.trim())?.[1]) : NaN;
  return { ms, ...(Number.isFinite(kb) ? { peakMb: Math.round(kb / 1024) } : {}) };
}

/** Hovers are sent this often while the document is analysed, each after the last was answered. */
const HOVER_EVERY_MS = 50;

async function serverRun(file: string, text: string): Promise<{ diagnosticsMs: number; hoverMs: number; hoverMedianMs: number; hoverMaxMs: number; hovers: number; peakMb?: number }> {
  const client = new LspClient({ bundle: SERVER });
  const conn = client.conn;
  let diagnosticsAt: number | undefined;
  // the arrival time of the first diagnostics (kept apart from the client's list)
  conn.onNotification(PublishDiagnosticsNotification.type, () => { diagnosticsAt ??= performance.now(); });
  try {
    await client.initialize(undefined);
    const uri = pathToFileURL(file).href;
    const opened = performance.now();
    client.open(uri, text);
    // a theorem head in the middle of the document, asked for again and again until the first diagnostics
    const lines = text.split('\n');
    let line = Math.floor(lines.length / 2);
    while (line < lines.length - 1 && !lines[line].startsWith('\\begin{theorem}')) line++;
    const waits: number[] = [];
    do {
      const asked = performance.now();
      await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character: 2 } });
      waits.push(performance.now() - asked);
      await new Promise((r) => setTimeout(r, HOVER_EVERY_MS));
    } while (diagnosticsAt === undefined && performance.now() - opened < 600_000);
    const sorted = [...waits].sort((a, b) => a - b);
    return {
      diagnosticsMs: (diagnosticsAt ?? NaN) - opened, hoverMs: waits[0], hoverMedianMs: sorted[Math.floor(sorted.length / 2)], hoverMaxMs: sorted.at(-1)!,
      hovers: waits.length, peakMb: peakMb(client.child.pid!),
    };
  } finally {
    client.kill();
  }
}

/** Exponent b of time = a · size^b, least squares in logs. */
function slope(points: Array<[number, number]>): number {
  const xs = points.map(([x]) => Math.log(x));
  const ys = points.map(([, y]) => Math.log(y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) { num += (xs[i] - mx) * (ys[i] - my); den += (xs[i] - mx) ** 2; }
  return den ? num / den : NaN;
}

export async function benchSizes(): Promise<void> {
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} missing: run \`npm run build\` first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-sizes-'));
  const rows: Array<Record<string, number | undefined>> = [];
  try {
    for (const mb of SIZES) {
      const text = sizedDocument(mb);
      const file = path.join(dir, `doc${mb}.tex`);
      fs.writeFileSync(file, text);
      const check = checkRun(file);
      const server = await serverRun(file, text);
      rows.push({ mb: text.length / 1e6, checkMs: check.ms, checkPeakMb: check.peakMb, diagnosticsMs: server.diagnosticsMs, hoverMs: server.hoverMs, hoverMedianMs: server.hoverMedianMs, hoverMaxMs: server.hoverMaxMs, hovers: server.hovers, serverPeakMb: server.peakMb });
      process.stderr.write(`[sizes] ${mb} MB done\n`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const f = (x: number | undefined, unit: string) => (x === undefined || !Number.isFinite(x) ? '-' : `${Math.round(x)} ${unit}`);
  console.log('\n## Cost against document size (generated theorems, proofs and aligns)\n');
  console.log(table([
    ['MB', 'check', 'check peak RSS', 'server: didOpen → diagnostics', 'server: a hover sent after didOpen waits', 'hovers until then: median / max wait', 'server peak RSS'],
    ...rows.map((r) => [r.mb!.toFixed(1), f(r.checkMs, 'ms'), f(r.checkPeakMb, 'MB'), f(r.diagnosticsMs, 'ms'), f(r.hoverMs, 'ms'), `${f(r.hoverMedianMs, 'ms')} / ${f(r.hoverMaxMs, 'ms')} (${r.hovers})`, f(r.serverPeakMb, 'MB')]),
  ]));
  const s = { check: slope(rows.map((r) => [r.mb!, r.checkMs!])), diagnostics: slope(rows.map((r) => [r.mb!, r.diagnosticsMs!])) };
  console.log(`\nslope (time ∝ size^b): check b = ${s.check.toFixed(2)}, server to first diagnostics b = ${s.diagnostics.toFixed(2)} (1 = linear)`);
  fs.mkdirSync(path.join(repoRoot, 'test-output'), { recursive: true });
  fs.writeFileSync(path.join(repoRoot, 'test-output', 'bench-sizes.json'), `${JSON.stringify({ date: new Date().toISOString(), rows, slope: s }, null, 2)}\n`);
}
