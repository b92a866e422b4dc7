// `npm run bench -- --burst`: what VS Code sends when a huge file of the workspace is opened, and
// what that costs a request elsewhere. A folder holds the generated document of `--sizes`
// (16 MB unless `--mb N`) and a small paper; once the folder is read, the big file is opened and
// VS Code's burst follows at once (outline, folding with its range limit, links, lenses, inlay
// hints); 300 ms later a hover on a `\ref` in the small paper. Prints each answer's wait and
// size, for this build and for the bundle named by MATHSENSE_BENCH_BASELINE (measured in the
// same run, one after the other), with the ratio of the hover's waits.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { table } from '../lib/table.js';
import { repoRoot } from '../lib/repo.js';
import { StdioServer } from '../lib/lspServer.js';
import { sizedDocument } from './benchSizes.js';

const CURRENT = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');
const BASELINE = process.env.MATHSENSE_BENCH_BASELINE ? path.resolve(process.env.MATHSENSE_BENCH_BASELINE) : undefined;
const argv = process.argv.slice(2);
const MB = argv.includes('--mb') ? Number(argv[argv.indexOf('--mb') + 1].split(',')[0]) : 16;
/** VS Code's `editor.foldingMaximumRegions` default, which it sends as `foldingRange.rangeLimit`. */
const VSCODE_RANGE_LIMIT = 5000;
/** Time for the server to read the folder before the file is opened. */
const SCAN_WAIT_MS = 4000;

const SMALL = '\\documentclass{article}\n\\begin{document}\n\\begin{theorem}\\label{thm:main}\nA.\n\\end{theorem}\nSee \\ref{thm:main}.\n\\end{document}\n';

interface Answer { request: string; ms: number; chars: number }

async function burst(bundle: string, dir: string, text: string): Promise<Answer[]> {
  const server = new StdioServer(bundle, dir);
  try {
    await server.start({ workspace: { codeLens: { refreshSupport: true } }, window: { workDoneProgress: true }, textDocument: { foldingRange: { rangeLimit: VSCODE_RANGE_LIMIT } } });
    await new Promise((r) => setTimeout(r, SCAN_WAIT_MS));
    const root = pathToFileURL(dir).href;
    const smallUri = `${root}/small.tex`;
    const bigUri = `${root}/big.tex`;
    const { conn } = server;
    await server.open(smallUri, SMALL);
    const answers: Answer[] = [];
    const timed = (request: string, p: Promise<unknown>): Promise<void> => {
      const asked = performance.now();
      return p.then((r) => { answers.push({ request, ms: performance.now() - asked, chars: JSON.stringify(r)?.length ?? 0 }); });
    };
    await server.open(bigUri, text);
    const td = { textDocument: { uri: bigUri } };
    const all = [
      timed('documentSymbol', conn.sendRequest('textDocument/documentSymbol', td)),
      timed('foldingRange', conn.sendRequest('textDocument/foldingRange', td)),
      timed('documentLink', conn.sendRequest('textDocument/documentLink', td)),
      timed('codeLens', conn.sendRequest('textDocument/codeLens', td)),
      timed('inlayHint', conn.sendRequest('textDocument/inlayHint', { ...td, range: { start: { line: 0, character: 0 }, end: { line: 60, character: 0 } } })),
    ];
    await new Promise((r) => setTimeout(r, 300));
    all.push(timed('hover in another file, 300 ms later', conn.sendRequest('textDocument/hover', { textDocument: { uri: smallUri }, position: { line: 5, character: 7 } })));
    await Promise.all(all);
    return answers;
  } finally {
    await server.end();
  }
}

export async function benchBurst(): Promise<void> {
  if (!fs.existsSync(CURRENT)) throw new Error(`${CURRENT} missing: run \`npm run build\` first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-burst-'));
  const text = sizedDocument(MB);
  fs.writeFileSync(path.join(dir, 'big.tex'), text);
  fs.writeFileSync(path.join(dir, 'small.tex'), SMALL);
  const runs: Array<[string, Answer[]]> = [];
  try {
    runs.push(['this build', await burst(CURRENT, dir, text)]);
    process.stderr.write('[burst] this build done\n');
    if (BASELINE) {
      runs.push([`baseline (${BASELINE})`, await burst(BASELINE, dir, text)]);
      process.stderr.write('[burst] baseline done\n');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const order = runs[0][1].map((a) => a.request);
  const cell = (a: Answer | undefined) => (a ? `${Math.round(a.ms)} ms, ${(a.chars / 1e6).toFixed(2)} MB` : '-');
  console.log(`\n## VS Code's burst on opening a ${(text.length / 1e6).toFixed(0)} MB file of the workspace\n`);
  console.log(table([
    ['request', ...runs.map(([name]) => name)],
    ...order.map((r) => [r, ...runs.map(([, answers]) => cell(answers.find((a) => a.request === r)))]),
  ]));
  const hover = (answers: Answer[]) => answers.find((a) => a.request.startsWith('hover'))!.ms;
  if (runs.length > 1) console.log(`\nhover elsewhere: ${(hover(runs[1][1]) / hover(runs[0][1])).toFixed(1)}× shorter wait than the baseline`);
  fs.mkdirSync(path.join(repoRoot, 'test-output'), { recursive: true });
  fs.writeFileSync(path.join(repoRoot, 'test-output', 'bench-burst.json'), `${JSON.stringify({ date: new Date().toISOString(), mb: text.length / 1e6, runs }, null, 2)}\n`);
}
