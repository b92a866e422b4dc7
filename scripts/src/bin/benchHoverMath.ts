// Hover with typeset math (`hoverMath: "svg"`) over stdio on a real book: hovers on every
// `\ref` of lebl-basic-analysis/ch-seq-ser.tex (statements full of formulas), first with the
// formulas not yet typeset, then again (rendered once: the cache), against the same hovers in
// the "source" mode measured in the same run (two servers, same requests). Targets (issue 26):
// first render p95 under 150 ms, rendered p95 under 50 ms.
//
//   node scripts/out/bin/benchHoverMath.js      (needs `npm run build`; data: ../shared/data)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { LspClient } from 'mathsense-server/api/cli';
import { table } from '../lib/table.js';
import { repoRoot } from '../lib/repo.js';

const root = repoRoot;
const data = process.env.MATHSENSE_SHARED ? path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data') : path.resolve(root, '..', 'shared', 'data');
const book = path.join(data, 'latex-wild', 'lebl-basic-analysis');
const file = path.join(book, 'ch-seq-ser.tex');
const bundle = path.join(root, 'server', 'dist', 'mathsense.cjs');
if (!fs.existsSync(file)) { console.error(`no ${file}`); process.exit(1); }
if (!fs.existsSync(bundle)) { console.error(`${bundle} missing: npm run build`); process.exit(1); }
const text = fs.readFileSync(file, 'utf8');
const uri = pathToFileURL(file).href;

async function server(hoverMath: 'source' | 'svg'): Promise<LspClient> {
  const client = new LspClient({ bundle, settings: () => ({ index: { path: path.join(root, 'no-index') } }) });
  await client.initialize(book, { workspace: { configuration: true } }, { initializationOptions: { mathsense: { hoverMath, hoverMathColor: '#cccccc' } } });
  await client.conn.sendRequest('mathsense/status');
  client.open(uri, text);
  return client;
}

// every \ref-like command's argument
const places: Array<{ line: number; character: number }> = [];
const lines = text.split('\n');
lines.forEach((l, line) => { for (const m of l.matchAll(/\\(?:ref|eqref|cref|Cref|autoref)\{([^{}]+)\}/g)) places.push({ line, character: m.index! + m[0].indexOf('{') + 2 }); }); // matchAll's matches have an index
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, p50: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), max: +s[s.length - 1].toFixed(1) };
};
async function hovers(conn: ProtocolConnection) {
  const ms: number[] = [];
  let images = 0;
  for (const position of places) {
    const t0 = performance.now();
    const h = await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position });
    ms.push(performance.now() - t0);
    images += (JSON.stringify(h ?? '').match(/data:image\/svg\+xml/g) ?? []).length;
  }
  return { ms, images };
}

const src = await server('source');
const svg = await server('svg');
const source = await hovers(src.conn);
const first = await hovers(svg.conn);
const again = await hovers(svg.conn);
for (const s of [src, svg]) { try { await s.stop(); } finally { s.kill(); } }
const a = stats(source.ms), b = stats(first.ms), c = stats(again.ms);
const rows = [['Hover on \\ref', 'p50 ms', 'p95 ms', 'max ms', 'formulas typeset'],
  ['source (baseline, same run)', a.p50, a.p95, a.max, 0],
  ['svg, first render', b.p50, b.p95, b.max, first.images],
  ['svg, rendered before', c.p50, c.p95, c.max, again.images]];
console.log(`\nHover math — ${places.length} \\ref hovers in lebl-basic-analysis/ch-seq-ser.tex\n`);
console.log(table(rows));
console.log(`\nsvg over source, p95: first ${(b.p95 / Math.max(0.1, a.p95)).toFixed(1)}x, rendered ${(c.p95 / Math.max(0.1, a.p95)).toFixed(1)}x. Targets: first p95 < 150 ms ${b.p95 < 150 ? 'met' : 'MISSED'}, rendered p95 < 50 ms ${c.p95 < 50 ? 'met' : 'MISSED'}.`);
fs.mkdirSync(path.join(root, 'test-output'), { recursive: true });
fs.writeFileSync(path.join(root, 'test-output', 'bench-hover-math.json'), JSON.stringify({ places: places.length, source: a, first: b, again: c, images: first.images }, null, 2));
process.exit(b.p95 < 150 && c.p95 < 50 ? 0 : 3);
