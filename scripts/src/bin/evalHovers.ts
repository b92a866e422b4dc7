// Hovers on real projects (issue 28): what the server shows over a seeded sample of positions
// in every project of ../shared/data/latex-wild, through the bundled server over stdio, as an
// editor would ask. Two samples per project: positions anywhere in its files, and positions on
// a word (letters: prose, math, command names, labels alike). Prints the share of positions that
// show something, by what they show; every term hover ("Which …?") is listed with its first
// reading, and compared with the hand judgements in test/real-world/hover-judgements.json:
// precision = hovers judged about a mathematical term whose first reading is right / judged.
//
//   node scripts/out/bin/evalHovers.js [--per-project N] [--words N] [--seed S] [--out FILE] [--only NAME]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StdioServer } from '../lib/lspServer.js';
import { repoRoot } from '../lib/repo.js';

const root = repoRoot;

const arg = <T>(name: string, dflt: T): string | T => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const PER_PROJECT = Number(arg('per-project', 40));
const WORDS = Number(arg('words', 200));
const SEED = Number(arg('seed', 28));
const OUT = arg('out', path.join(root, 'test-output', 'hover-sample.json'));
const ONLY = arg('only', '');
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const wild = path.join(shared, 'data', 'latex-wild');
const bundle = path.join(root, 'server', 'dist', 'mathsense.cjs');
const judgementsFile = path.join(root, 'test', 'real-world', 'hover-judgements.json');

if (!fs.existsSync(bundle)) { console.error(`${bundle} missing: npm run build`); process.exit(1); }
if (!fs.existsSync(wild)) { console.log(`eval-hovers: ${wild} missing, skipped`); process.exit(0); }

/** mulberry32: the same positions on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

function texFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.tex$/.test(e.name)) out.push(full);
    }
  };
  walk(dir);
  return out;
}

/** `n` offsets drawn over the files' characters (weighted by size); `word`: only on letters. */
function sample(files: string[], texts: string[], n: number, rand: () => number, word: boolean): Array<{ file: string; offset: number }> {
  const total = texts.reduce((s, t) => s + t.length, 0);
  const out: Array<{ file: string; offset: number }> = [];
  for (let tries = 0; out.length < n && tries < n * 50; tries++) {
    let at = Math.floor(rand() * total);
    let f = 0;
    while (at >= texts[f].length) { at -= texts[f].length; f++; }
    if (word && !/[A-Za-z]/.test(texts[f][at])) continue;
    out.push({ file: files[f], offset: at });
  }
  return out;
}

function position(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

function wordAt(text: string, offset: number): string {
  let a = offset, b = offset;
  while (a > 0 && /[A-Za-z\\:-]/.test(text[a - 1])) a--;
  while (b < text.length && /[A-Za-z:-]/.test(text[b])) b++;
  return text.slice(a, b);
}

/** What a hover shows, by its first line. */
function kindOf(md: string): string {
  if (!md) return 'nothing';
  if (/^\*\*Which “|^\*\*Definitions of “/.test(md)) return 'term';
  if (/^\*\*Candidate proofs/.test(md)) return 'proofs';
  if (/Candidate proofs/.test(md)) return 'label+proofs';
  if (/^\*\*Undefined reference/.test(md)) return 'undefined-ref';
  if (/Referenced \d+ times?/.test(md)) return 'label';
  if (/counterexample|does not follow|both sides/i.test(md)) return 'derivation';
  if (/^\*\*?\[?@|bibliography|\.bib/i.test(md)) return 'citation';
  return 'reference';
}

/** The server on one project, waiting for its index and the vectors the hovers asked for. */
class Server extends StdioServer {
  async ready() {
    for (let i = 0; i < 1200; i++) {
      const s = await this.status();
      if (s.index?.state === 'unavailable') throw new Error(`index unavailable: ${s.index.message}`);
      if (s.index?.state === 'ready' && s.index.semantic !== undefined) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('index not ready');
  }
  /** The vectors asked for are computed (hover contexts go first; the opened files' statements follow), or 5 minutes passed. */
  async settled() {
    for (let i = 0; i < 3000; i++) {
      const s = await this.status();
      if (!s.index?.pendingVectors) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A term hover read by hand: about a mathematical term there, and its first reading the sense meant. */
interface Judgement { key: string; term: boolean; reading: boolean; sample: string; why?: string }

const judgements: { hovers: Judgement[] } = fs.existsSync(judgementsFile) ? JSON.parse(fs.readFileSync(judgementsFile, 'utf8')) : { hovers: [] };
const judged = new Map(judgements.hovers.map((j) => [j.key, j]));

const projects = fs.readdirSync(wild, { withFileTypes: true }).filter((e) => e.isDirectory() && (!ONLY || e.name === ONLY)).map((e) => e.name).sort();
/** One hover of the sample, as written to the output file. */
interface HoverRow { project: string; file: string; line: number; character: number; sample: string; word: string; kind: string; first: string; md?: string; context: string }
const rows: HoverRow[] = [];
const terms: Array<{ key: string; term: string; reading: string; probability: number | undefined; line: string; judged: Judgement | undefined }> = [];
for (const [pi, name] of projects.entries()) {
  const dir = path.join(wild, name);
  const files = texFiles(dir);
  if (files.length === 0) continue;
  const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
  const rand = rng(SEED * 1000 + pi);
  const sites = [
    ...sample(files, texts, PER_PROJECT, rand, false).map((s) => ({ ...s, sample: 'anywhere' })),
    ...sample(files, texts, WORDS, rand, true).map((s) => ({ ...s, sample: 'word' })),
  ];
  const server = new Server(bundle, dir);
  await server.start();
  await server.ready();
  const opened = new Set<string>();
  for (const s of sites) if (!opened.has(s.file)) { opened.add(s.file); await server.open(pathToFileURL(s.file).href, texts[files.indexOf(s.file)]); }
  // first pass: every hover asks for what it needs (context vectors); the second reads it
  for (const s of sites) await server.hover(pathToFileURL(s.file).href, position(texts[files.indexOf(s.file)], s.offset));
  await server.settled();
  const counts: Record<string, Record<string, number>> = { anywhere: {}, word: {} };
  for (const s of sites) {
    const text = texts[files.indexOf(s.file)];
    const pos = position(text, s.offset);
    const md = await server.hover(pathToFileURL(s.file).href, pos);
    const kind = kindOf(md);
    counts[s.sample][kind] = (counts[s.sample][kind] ?? 0) + 1;
    const rel = path.relative(dir, s.file);
    const row: HoverRow = { project: name, file: rel, line: pos.line + 1, character: pos.character + 1, sample: s.sample, word: wordAt(text, s.offset), kind, first: md.split('\n').find((l) => l.trim()) ?? '', ...(md ? { md: md.slice(0, 3000) } : {}), context: text.split('\n')[pos.line].trim().slice(0, 200) };
    rows.push(row);
    if (kind === 'term') {
      const term = /“([^”]*)”/.exec(md)?.[1] ?? '';
      const reading = /Best match for this context(?: \(\d+%\))?: \*\*\[([^\]]*)\]/.exec(md)?.[1] ?? '';
      const sure = /Best match for this context \((\d+)%\)/.exec(md)?.[1];
      const key = `${name}/${rel}:${pos.line + 1}:${pos.character + 1} ${term} → ${reading}`;
      const lineText = text.split('\n')[pos.line];
      terms.push({ key, term, reading, probability: sure === undefined ? undefined : Number(sure) / 100, line: lineText.trim().slice(0, 200), judged: judged.get(key) });
    }
  }
  await server.end();
  const shown = (c: Record<string, number>, n: number) => n - (c.nothing ?? 0);
  console.log(`${name.padEnd(34)} anywhere: ${shown(counts.anywhere, PER_PROJECT)}/${PER_PROJECT} shown ${JSON.stringify(counts.anywhere)}  words: ${shown(counts.word, WORDS)}/${WORDS} ${JSON.stringify(counts.word)}`);
}

fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify({ seed: SEED, rows, terms }, null, 1));
const all = (sampleName: string) => rows.filter((r) => r.sample === sampleName);
const pct = (a: number, b: number) => (b ? `${(100 * a / b).toFixed(1)}%` : '—');
console.log('\n| sample | positions | hover shown | term hovers | candidate proofs | references/labels |');
console.log('|---|---|---|---|---|---|');
for (const s of ['anywhere', 'word']) {
  const r = all(s);
  const k = (p: (kind: string) => boolean) => r.filter((x) => p(x.kind)).length;
  console.log(`| ${s} | ${r.length} | ${k((x) => x !== 'nothing')} (${pct(k((x) => x !== 'nothing'), r.length)}) | ${k((x) => x === 'term')} | ${k((x) => /proofs/.test(x))} | ${k((x) => /reference|label|undefined-ref/.test(x))} |`);
}
const j = terms.filter((t): t is typeof t & { judged: Judgement } => t.judged !== undefined);
const right = j.filter((t) => t.judged.term && t.judged.reading).length;
console.log(`\nterm hovers: ${terms.length}; judged ${j.length}; about a term with the right first reading: ${right}/${j.length} (${pct(right, j.length)}); about a term: ${j.filter((t) => t.judged.term).length}/${j.length}`);
const unjudged = terms.filter((t) => !t.judged);
if (unjudged.length) {
  console.log(`${unjudged.length} term hovers not judged yet (read them and add to ${path.relative(root, judgementsFile)}):`);
  for (const t of unjudged.slice(0, 400)) console.log(`  ${t.key}${t.probability !== undefined ? ` (${Math.round(t.probability * 100)}%)` : ''}\n      ${t.line}`);
}
console.log(`\nrows written to ${path.relative(root, OUT)}`);
