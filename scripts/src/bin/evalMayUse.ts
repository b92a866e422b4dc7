// "May use" suggestions on real books, over stdio: for a seeded sample of proved statements of
// each book, the graph view's neighbourhood request with every suggestion shown (threshold 0),
// asked again until the vectors are in. Writes the suggestions to judge (--out), or, given the
// judgements (--judged), the precision and coverage of each threshold and the lowest one whose
// shown suggestions are judged plausible at least 70% of the time.
//
//   node scripts/out/bin/evalMayUse.js --sample [--out test-output/may-use-sample.json] [--per-book 25]
//   node scripts/out/bin/evalMayUse.js [--judged test/real-world/may-use-judgements.json]   (the default)
//
// Data: $MATHSENSE_SHARED/data or ../shared/data (latex-wild and the HoTT book: evaluation only).
import * as fs from 'node:fs';
import * as path from 'node:path';

import { LspClient } from 'mathsense-server/api/cli';
import { DEPENDENCY_GRAPH_REQUEST, type DependencyGraphResponse } from 'mathsense-server/protocol';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => { const i = argv.indexOf(name); return i < 0 ? undefined : argv[i + 1]; };
const data = process.env.MATHSENSE_SHARED ? path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data') : path.resolve(repoRoot, '..', 'shared', 'data');
const PER_BOOK = Number(arg('--per-book') ?? 25);
const TARGET = 0.7;
/** A threshold below any ranker score: every suggestion, for judging. */
const SHOW_ALL = -1e9;
/** Suggestions a threshold must show for its precision to count. */
const MIN_SHOWN = 10;

const BOOKS = [
  { book: 'lebl-basic-analysis', folder: path.join(data, 'latex-wild', 'lebl-basic-analysis'), root: 'realanal.tex' },
  { book: 'hott-book', folder: path.join(data, 'latex', 'hott-book'), root: 'main.tex' },
];

export interface SampleItem {
  book: string; statement: string; file: string; line: number;
  suggestions: Array<{ to: string; file: string; line: number; score: number }>;
}
interface Judged extends SampleItem { judgements: Array<{ to: string; plausible: boolean }> }

/** A seeded pseudo-random order (mulberry32). */
function shuffled<T>(xs: T[], seed: number): T[] {
  let a = seed >>> 0;
  const rand = () => { a |= 0; a = (a + 0x6d2b79f5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [out[i], out[j]] = [out[j], out[i]]; }
  return out;
}

async function sample(): Promise<SampleItem[]> {
  const out: SampleItem[] = [];
  for (const b of BOOKS) {
    const client = new LspClient({ bundle: path.join(repoRoot, 'server', 'dist', 'mathsense.cjs'), settings: () => ({ derivations: { enabled: false }, relatedEquations: { lens: 'off' } }) });
    try {
      await client.initialize(b.folder, { workspace: { configuration: true } });
      const rootFile = path.join(b.folder, b.root);
      const rootUri = client.open(rootFile, fs.readFileSync(rootFile, 'utf8'));
      await client.conn.sendRequest('mathsense/status');
      const whole = await client.conn.sendRequest<DependencyGraphResponse>(DEPENDENCY_GRAPH_REQUEST, { uri: rootUri, scope: 'whole' });
      const proved = shuffled(whole.nodes.filter((n) => n.status === 'proved' && !n.external), 40 + b.book.length);
      const opened = new Set<string>();
      for (const n of proved.slice(0, PER_BOOK)) {
        if (!opened.has(n.uri)) { client.open(n.uri, fs.readFileSync(new URL(n.uri), 'utf8')); opened.add(n.uri); }
        let r: DependencyGraphResponse | undefined;
        for (let tries = 0; tries < 120; tries++) {
          r = await client.conn.sendRequest<DependencyGraphResponse>(DEPENDENCY_GRAPH_REQUEST, { uri: n.uri, position: n.range.start, scope: 'neighbourhood', depth: 1, mayUseThreshold: SHOW_ALL });
          if (!r.suggestionsPending) break;
          await new Promise((res) => setTimeout(res, 500));
        }
        const byId = new Map(r!.nodes.map((x) => [x.id, x]));
        const rel = (uri: string) => path.relative(b.folder, new URL(uri).pathname);
        out.push({
          book: b.book, statement: n.id, file: rel(n.uri), line: n.range.start.line + 1,
          suggestions: r!.edges.filter((e) => e.kind === 'suggested').map((e) => { const t = byId.get(e.to)!; return { to: t.id, file: rel(t.uri), line: t.range.start.line + 1, score: e.score ?? 0 }; }),
        });
        process.stderr.write(`${b.book}: ${out.filter((x) => x.book === b.book).length}/${PER_BOOK}\r`);
      }
      await client.end();
    } finally {
      client.kill();
    }
  }
  return out;
}

function thresholds(judged: Judged[]): void {
  const all = judged.flatMap((j) => j.suggestions.map((s) => ({ s, plausible: j.judgements.find((x) => x.to === s.to)?.plausible ?? false })));
  const shown = (t: number) => all.filter((x) => x.s.score >= t);
  const rows: string[][] = [['threshold (ranker score)', 'shown', 'judged plausible', 'precision', 'statements with a suggestion']];
  // every score a suggestion has is a cut; the table shows ten of them, the choice looks at all
  const cuts = [...new Set(all.map((x) => x.s.score))].sort((a, b) => a - b);
  let chosen: number | undefined;
  const row = (t: number) => {
    const s = shown(t);
    const p = s.length ? s.filter((x) => x.plausible).length / s.length : NaN;
    const cover = judged.filter((j) => j.suggestions.some((x) => x.score >= t)).length;
    return { s, p, cover, cells: [t.toFixed(3), String(s.length), String(s.filter((x) => x.plausible).length), Number.isFinite(p) ? `${(100 * p).toFixed(0)}%` : '-', `${cover} of ${judged.length}`] };
  };
  for (const t of cuts) { const r = row(t); if (chosen === undefined && r.s.length >= MIN_SHOWN && r.p >= TARGET) chosen = t; }
  for (let k = 0; k < 10 && cuts.length; k++) rows.push(row(cuts[Math.floor((k / 10) * cuts.length)]).cells);
  if (chosen !== undefined) rows.push(row(chosen).cells);
  console.log(table(rows));
  console.log(chosen === undefined ? `\nno threshold reaches ${100 * TARGET}% precision with ${MIN_SHOWN} or more shown` : `\nlowest threshold with precision >= ${100 * TARGET}% and ${MIN_SHOWN} or more shown: ${chosen.toFixed(3)}`);
}

const judgedPath = argv.includes('--sample') ? undefined : arg('--judged') ?? path.join(repoRoot, 'test', 'real-world', 'may-use-judgements.json');
if (judgedPath && fs.existsSync(judgedPath)) thresholds(JSON.parse(fs.readFileSync(judgedPath, 'utf8')).items as Judged[]);
else {
  const items = await sample();
  const outPath = arg('--out') ?? path.join(repoRoot, 'test-output', 'may-use-sample.json');
  fs.mkdirSync(path.dirname(outPath), { recursive: true });
  fs.writeFileSync(outPath, JSON.stringify({ items }, null, 1) + '\n');
  console.log(`\n${items.length} statements, ${items.reduce((a, x) => a + x.suggestions.length, 0)} suggestions: ${path.relative(process.cwd(), outPath)}`);
}

