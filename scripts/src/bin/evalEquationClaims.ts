// `npm run eval` rows for the related-equations lens on real projects (issue 27): every display
// of every ../shared/data/latex-wild project (each project its own workspace, the full bundled
// index beside it), searched as the lens searches.
//   * Lenses: how many displays get one in the `matches` mode (`all` puts one on every display).
//   * "Same equation" claims: every hit the search calls the same as the display, checked again
//     by a stricter check: math/equations/equivalence.ts with 64 other points from a wider
//     range, in both directions. Target: every claim confirmed.
//   * Today's claims beside them: the server of BASELINE (compiled from git history into .cache/,
//     its own index) titled a lens "same equation found" when its first hit had an equal
//     fingerprint; the same stricter check is applied to those.
// Options: --baseline COMMIT|none, --extra DIR (one more project folder, e.g. a book checked
// out elsewhere), --list (print every claim the stricter check rejects), --dump FILE (every
// claim, today's and ours, as JSON lines: for reading them by hand).
// Internal: --impl DIR --index DIR --out FILE (today's claims, in a child process).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from '../lib/table.js';
import { baselineServer } from '../lib/baselineServer.js';
import { repoRoot } from '../lib/repo.js';
import { treeImporter } from '../lib/compiledTree.js';
import { defaultIndexDir, sharedDataDir, expandProofWikiMacros } from 'mathsense-server/api/index';
import { documentEquations, matchLenses, MatchCache, findRelatedEquations } from 'mathsense-server/api/features';
import { displayRelations, confirmSameDisplay } from 'mathsense-server/api/math';
import type { RelatedEquation } from 'mathsense-server/protocol';
import type { Doc } from '../lib/serverTypes.js';

/** What the related-equations search reads: a workspace, its equations, the index. */
type RelatedContext = Parameters<typeof findRelatedEquations>[0];

/** A lens claim of the baseline's server, as its child process writes them: the display and its first hit. */
interface Claim {
  project: string;
  uri: string;
  line: number;
  hit: { uri: string; line: number; latex?: undefined; title?: undefined } | { latex: string; title: string; uri?: undefined; line?: undefined };
}

const root = repoRoot;
const argv = process.argv.slice(2);
const opt = (n: string, d?: string | number): any => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : d; };
const BASELINE = opt('--baseline', '4913751');
const t0 = Date.now();
const log = (m: string) => console.error(`[eval-equation-claims ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);

function projects(dataDir: string): string[] {
  const wild = path.join(dataDir, 'latex-wild');
  const out = fs.readdirSync(wild).sort().map((d) => path.join(wild, d)).filter((d) => fs.statSync(d).isDirectory());
  if (opt('--extra')) out.push(path.resolve(opt('--extra')));
  return out;
}

/**
 * A project's workspace searched by the server code in `out` (a commit's compiled tree: it has no
 * declared API, but the shape of today's), without the encoder (as lenses rank).
 */
async function openProject(out: string, indexDir: string, dir: string): Promise<RelatedContext> {
  const m = treeImporter(out);
  const { Workspace } = await m('project/workspace.js');
  const { findDocumentFiles } = await m('project/files.js');
  const { EquationAnalyses } = await m('index/equationAnalyses.js', 'features/equationAnalyses.js');
  const { WorkspaceEquations } = await m('index/workspaceEquations.js', 'features/workspaceEquations.js');
  const { LoadedIndex } = await m('index/store.js');
  const { IndexEquations } = await m('index/equationStore.js');
  const ws = new Workspace();
  for (const f of findDocumentFiles(dir)) ws.loadFile(f);
  const li = LoadedIndex.load(indexDir);
  const index = { index: li, equations: IndexEquations.load(li.dir, li.header.equations) };
  const analyses = new EquationAnalyses();
  const equations = new WorkspaceEquations(analyses);
  equations.snapshot(ws);
  await analyses.whenIdle();
  return { ws, equations, index };
}

// ---------- today's claims (child process): the first hit of each display, when its fingerprint was equal
if (opt('--impl')) {
  const out = opt('--impl');
  const m = treeImporter(out);
  const { findRelatedEquations } = await m('features/equations/relatedEquations.js', 'features/relatedEquations.js');
  const { documentEquations } = await m('analysis/equationSites.js', 'features/equationSites.js');
  const claims: Claim[] = [];
  for (const dir of projects(opt('--data'))) {
    const ctx = await openProject(out, opt('--index'), dir);
    for (const doc of ctx.ws.all()) for (const site of documentEquations(doc)) {
      const r = await findRelatedEquations(ctx, { doc, site }, { limit: 10 });
      const top = r.results[0];
      if (!top || (top.why.fingerprint !== 'equation' && top.why.fingerprint !== 'identity')) continue;
      claims.push({ project: path.basename(dir), uri: doc.uri, line: site.line, hit: top.source === 'workspace' ? { uri: top.uri, line: top.line } : { latex: top.latex, title: top.title } });
    }
  }
  fs.writeFileSync(opt('--out'), JSON.stringify(claims));
  process.exit(0);
}

// today's claims are made by today's compiled server, loaded by path like the baseline commit's
// (openProject), so that both sides run the same code
const out = path.join(root, 'server', 'out');
const dataDir = sharedDataDir();
const indexDir = defaultIndexDir();
const STRICT = { points: 64, seed: 0x2f1e9d, range: [0.05, 3] as [number, number] };

/** The stricter check, both ways; texts read with their documents' macros. */
function strictlySame(ctx: RelatedContext, q: { doc?: Doc; latex: string }, hit: { doc?: Doc; latex: string }) {
  const read = (latex: string, doc: Doc | undefined) => (doc ? ctx.equations.displayOf(ctx.ws, { doc, latex }) : displayRelations(expandProofWikiMacros(latex)));
  const a = read(q.latex, q.doc);
  const b = read(hit.latex, hit.doc);
  return !!a && !!b && confirmSameDisplay(a, b, STRICT) && confirmSameDisplay(b, a, STRICT);
}

/** Where a hit is: an index hit's page; a workspace hit's file and line (workspace hits always carry their uri). */
const place = (x: RelatedEquation) => (x.source === 'index' ? x.title : `${path.basename(x.uri!)}:${x.line}`);

// ---------- today's claims
let today: Claim[] | undefined;
if (BASELINE !== 'none') {
  const base = baselineServer(root, BASELINE, dataDir, log);
  if (base) {
    const of = path.join(root, '.cache', 'eval-claims-baseline.json');
    fs.mkdirSync(path.dirname(of), { recursive: true });
    log(`claims of ${BASELINE}'s lenses`);
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--impl', base.out, '--index', base.index, '--data', dataDir, '--out', of, ...(opt('--extra') ? ['--extra', opt('--extra')] : [])], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status === 0) today = JSON.parse(fs.readFileSync(of, 'utf8'));
    else log(`baseline run failed (${r.status ?? r.signal})`);
  }
}

// ---------- ours
const rows: Array<Array<string | number>> = [['Project', 'Displays', 'Lenses (matches)', 'Claims today', 'Confirmed today', 'Claims now', 'Confirmed now']];
const rejected = [];
const dump = [];
const totals = [0, 0, 0, 0, 0, 0];
for (const dir of projects(dataDir)) {
  const name = path.basename(dir);
  const ctx = await openProject(out, indexDir, dir);
  const siteAt = (uri: string, line: number) => { const doc = ctx.ws.get(uri); const s = doc && documentEquations(doc).find((x) => x.line + 1 === line || x.line === line); return s && { doc, latex: s.latex }; };
  let displays = 0, lenses = 0, claims = 0, confirmed = 0;
  const cache = new MatchCache();
  for (const doc of ctx.ws.all()) {
    const sites = documentEquations(doc);
    displays += sites.length;
    const got = await matchLenses(ctx, doc, cache);
    lenses += got.lenses.length;
    for (const l of got.lenses) {
      // the lens carries only its place: the search behind its title, again
      // every `matches` lens has its command, and it is on one of the document's displays
      const site = sites.find((s) => s.line + 1 === l.command!.arguments![0].query.line)!;
      const r = await findRelatedEquations(ctx, { doc, site }, { limit: 10, quick: true });
      for (const x of r.results) {
        if (!x.same || x.copy) continue;
        claims++;
        const hit = x.source === 'workspace' ? { doc: ctx.ws.get(x.uri!), latex: siteAt(x.uri!, x.line!)?.latex ?? x.latex } : { latex: x.latex };
        const ok = strictlySame(ctx, { doc, latex: site.latex }, hit);
        dump.push({ who: 'now', project: name, query: site.latex, hit: hit.latex, where: place(x), strict: ok });
        if (ok) confirmed++;
        else rejected.push(`${name} ${path.basename(doc.uri)}:${site.line + 1}  ${site.latex.replace(/\s+/g, ' ').slice(0, 80)}  ~  ${place(x)}  ${x.latex.replace(/\s+/g, ' ').slice(0, 80)}`);
      }
    }
  }
  let tClaims = 0, tConfirmed = 0;
  if (today) {
    for (const c of today.filter((c) => c.project === name)) {
      tClaims++;
      const doc = ctx.ws.get(c.uri);
      const site = doc && documentEquations(doc).find((s) => s.line === c.line);
      if (!site) continue;
      const hit = c.hit.uri !== undefined ? siteAt(c.hit.uri, c.hit.line) : { latex: c.hit.latex };
      const ok = !!hit && strictlySame(ctx, { doc, latex: site.latex }, hit);
      if (hit) dump.push({ who: 'today', project: name, query: site.latex, hit: hit.latex, where: c.hit.uri === undefined ? c.hit.title : `${path.basename(c.hit.uri)}:${c.hit.line}`, strict: ok });
      if (ok) tConfirmed++;
    }
  }
  const pct = (a: number, n: number) => (n ? `${a} (${((100 * a) / n).toFixed(1)}%)` : '0');
  rows.push([name, displays, lenses, today ? tClaims : 'n/a', today ? pct(tConfirmed, tClaims) : 'n/a', claims, pct(confirmed, claims)]);
  [displays, lenses, tClaims, tConfirmed, claims, confirmed].forEach((v, i) => { totals[i] += v; });
  log(`${name}: ${displays} displays, ${lenses} lenses, ${claims} claims`);
}
const pct = (a: number, n: number) => (n ? `${a} (${((100 * a) / n).toFixed(1)}%)` : '0');
rows.push(['all', totals[0], `${totals[1]} (${((100 * totals[1]) / Math.max(1, totals[0])).toFixed(1)}%)`, today ? totals[2] : 'n/a', today ? pct(totals[3], totals[2]) : 'n/a', totals[4], pct(totals[5], totals[4])]);
console.log(table(rows));
console.log(`\nIndex: ${indexDir}. Stricter check: ${STRICT.points} points in [${STRICT.range.join(', ')}), both directions. Today = ${BASELINE}: a lens said "same equation found" when its first hit had an equal fingerprint.`);
if (opt('--dump')) fs.writeFileSync(opt('--dump'), dump.map((d) => JSON.stringify(d)).join('\n') + '\n');
if (argv.includes('--list') && rejected.length) console.log(`\nClaims the stricter check rejects:\n${rejected.join('\n')}`);
