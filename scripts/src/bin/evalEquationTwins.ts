// `npm run eval` rows for related equations in another notation (issue 27): an equation of the
// workspace searched for from another notation, with the full bundled index (ProofWiki,
// PlanetMath, MathD2) loaded beside the workspace. "Twin first" when the search's first result
// is the workspace's own equation (or a display of the workspace with the same canonical text:
// the corpus writes some equations twice, and either is the twin). One row per kind of change, each with today's ranking beside
// it: the server of BASELINE (the commit before this work), compiled from git history into
// .cache/ with an index built by its own code, answers the same queries in the same run.
//
// The workspace: every project of ../shared/data/latex-wild, plus one file of well-known
// equations (test/fixtures/equation-twins/twins.json, written for this evaluation: `a` is in
// the workspace, `b` is the query). Queries come from both:
//   * the fixture's pairs, by class;
//   * real displays of latex-wild (seeded sample per class, unique in the workspace) changed by
//     a script: `functions` (a display applying f, g, h, …: every letter renamed, function
//     symbols included), `bound` (integrals and sums: the bound variable renamed with the rest),
//     `spellings` (`\exp(…)` ↔ `e^{…}`, `\Pr` ↔ `\mathbb{P}`, `\mathbb{E}` ↔ `\operatorname{E}`),
//     `series` (`\sum_{k=1}^\infty` ↔ `\sum_{k\ge1}`, `\frac{1}{k^n}` ↔ `k^{-n}`),
//     `constant-identity` (an identity with a constant side: its terms reordered, letters
//     renamed), `side-swap` (one `=`: sides swapped, letters renamed).
// Letters that are not variables (e, i, d, P, E) are never renamed.
//
// Options: --per-class N (real displays per class, default 60), --baseline COMMIT|none,
//          --models DIR, --misses (list them), --explain (first result and the twin's score). Internal: --impl DIR --index DIR --queries FILE --out FILE (one side).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from '../lib/table.js';
import { baselineServer } from '../lib/baselineServer.js';
import { repoRoot } from '../lib/repo.js';
import { treeImporter } from '../lib/compiledTree.js';
import { sharedDataDir, defaultIndexDir } from 'mathsense-server/api/index';
import { seededRandom } from 'mathsense-server/api/util';
import { applyRenaming, mathVariables } from '../training/symbolRenaming.js';
import { shownLatex, copyText, type documentEquations, type findRelatedEquations, type WorkspaceEquations } from 'mathsense-server/api/features';
import { analyseEquation } from 'mathsense-server/api/math';
import type { EncoderSession as Encoder } from 'mathsense-server/api/embeddings';
import type { Workspace } from 'mathsense-server/api/project';
import type { RelatedEquation } from 'mathsense-server/protocol';

const root = repoRoot;
const argv = process.argv.slice(2);
const opt = (n: string, d?: string | number): any => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : d; };
/** The commit whose ranking is "today's" for issue 27. */
const BASELINE = opt('--baseline', '4913751');
const PER_CLASS = Number(opt('--per-class', 60));
const t0 = Date.now();
const log = (m: string) => console.error(`[eval-equation-twins ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);
const CLASSES = ['functions', 'bound', 'spellings', 'series', 'constant-identity', 'side-swap'] as const;
type TwinClass = typeof CLASSES[number];
const FIXTURE = path.join(root, 'test', 'fixtures', 'equation-twins', 'twins.json');
const TWINS_URI = 'file:///mathsense-eval/well-known-equations.tex';

/** A pair of twins.json: `a` is in the workspace, `b` is the query. */
interface TwinPair { class: TwinClass; a: string; b: string }

/** A query and the display it should find (`line` 0-based); both sides rank the same list. */
interface Query { class: TwinClass; source: 'well-known' | 'latex-wild'; query: string; uri: string; line: number }

/** What the related-equations search reads: a workspace, its equations, the index, the encoder. */
type RelatedContext = Parameters<typeof findRelatedEquations>[0];

/** The workspace as one server build searches it (a commit's compiled tree: no declared API, but today's shapes). */
interface SearchSide {
  ws: Workspace;
  ctx: RelatedContext;
  equations: WorkspaceEquations;
  findRelatedEquations: typeof findRelatedEquations;
  documentEquations: typeof documentEquations;
  close(): Promise<void>;
}

/** The workspace of the evaluation, searched by the server code in `out` with the index in `indexDir`. */
async function openWorkspace(out: string, indexDir: string, dataDir: string): Promise<SearchSide> {
  const m = treeImporter(out);
  const { Workspace } = await m('project/workspace.js');
  const { findDocumentFiles } = await m('project/files.js');
  const { EquationAnalyses } = await m('index/equationAnalyses.js', 'features/equationAnalyses.js');
  const { WorkspaceEquations } = await m('index/workspaceEquations.js', 'features/workspaceEquations.js');
  const { findRelatedEquations } = await m('features/equations/relatedEquations.js', 'features/relatedEquations.js');
  const { documentEquations } = await m('analysis/equationSites.js', 'features/equationSites.js');
  const { LoadedIndex } = await m('index/store.js');
  const { IndexEquations } = await m('index/equationStore.js');
  const { formulaEncoderInput } = await m('index/equationFeatures.js');
  const { EncoderSession } = await m('embeddings/encoderSession.js');
  const { FORMULA_ENCODER_DIR, findModelsDir } = await m('embeddings/modelFiles.js');
  const { EmbeddingCache, embedThroughCache } = await m('embeddings/embeddingCache.js');
  const ws: SearchSide['ws'] = new Workspace();
  const wild = path.join(dataDir, 'latex-wild');
  for (const d of fs.readdirSync(wild).sort()) {
    const dir = path.join(wild, d);
    if (fs.statSync(dir).isDirectory()) for (const f of findDocumentFiles(dir)) ws.loadFile(f);
  }
  const pairs: TwinPair[] = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')).pairs;
  ws.open(TWINS_URI, 'latex', 1, pairs.map((p) => `\\begin{equation*}\n${p.a}\n\\end{equation*}\n`).join('\n'));
  const li = LoadedIndex.load(indexDir);
  const index = { index: li, equations: IndexEquations.load(li.dir, li.header.equations) };
  const analyses = new EquationAnalyses();
  const byText = new Map<string, Float32Array>();
  const vectors = { generation: 0, get: (t: string) => byText.get(t) };
  const equations: SearchSide['equations'] = new WorkspaceEquations(analyses, vectors);
  equations.snapshot(ws);
  await analyses.whenIdle();
  const ctx: RelatedContext = { ws, equations, index };
  let enc: Encoder | undefined;
  try {
    const session: Encoder = await EncoderSession.load(findModelsDir(opt('--models')), { model: FORMULA_ENCODER_DIR, accelerator: 'cpu', threads: 2 });
    enc = session;
    const cache = new EmbeddingCache(session.info.version, session.info.dim, path.join(root, '.cache', 'eval-embeddings'));
    const embed = async (canonicals: string[]): Promise<Float32Array[]> => { const texts: string[] = canonicals.map(formulaEncoderInput); const v = await embedThroughCache(cache, texts, (part: number[]) => session.embedTexts(part.map((i) => texts[i]))); cache.flush?.(); return v; };
    const snap = equations.snapshot(ws);
    const texts = [...new Set(snap.features.flatMap((f) => (f ? [f.canonical] : [])))];
    const vs = await embed(texts);
    texts.forEach((t, i) => byText.set(t, vs[i]));
    vectors.generation++;
    ctx.queryVector = async (t) => (await embed([t]))[0];
    ctx.indexVectorsMatch = () => index.equations.header.modelVersion === session.info.version;
  } catch (e) {
    log(`formula encoder unavailable (${(e as Error).message}): fingerprints and structure only`);
  }
  return { ws, ctx, equations, findRelatedEquations, documentEquations, close: async () => { await enc?.release(); } };
}

/**
 * Rank (0-based) of the target among the first 10 results, or -1. A display of the workspace
 * with the target's canonical text (the same equation up to renaming, written twice in the
 * corpus) is as good a twin as the target: the first such counts.
 */
async function rankAll(w: SearchSide, queries: Query[]): Promise<number[]> {
  const snap = w.equations.snapshot(w.ws);
  const canonical = new Map(snap.sites.map((s, i) => [`${s.doc.uri}#${s.line + 1}`, snap.features[i]?.canonical]));
  const out: number[] = [];
  for (const q of queries) {
    const doc = w.ws.get(q.uri);
    const macros = doc ? w.equations.macros.of(w.ws, doc).defs : [];
    const r = await w.findRelatedEquations(w.ctx, { latex: q.query, macros }, { limit: 10 });
    const want = canonical.get(`${q.uri}#${q.line + 1}`);
    out.push(r.results.findIndex((x) => (x.uri === q.uri && x.line === q.line + 1) || (x.source === 'workspace' && want !== undefined && canonical.get(`${x.uri}#${x.line}`) === want)));
  }
  return out;
}

// ---------- one side (the baseline runs here in a child process)
if (opt('--impl')) {
  const w = await openWorkspace(opt('--impl'), opt('--index'), opt('--data'));
  const queries: Query[] = JSON.parse(fs.readFileSync(opt('--queries'), 'utf8'));
  fs.writeFileSync(opt('--out'), JSON.stringify(await rankAll(w, queries)));
  await w.close();
  process.exit(0);
}

// ---------- the queries
// today's answers come from today's compiled server, loaded by path like the baseline commit's
// (openWorkspace), so that both sides run the same code
const out = path.join(root, 'server', 'out');
const dataDir = sharedDataDir();
const indexDir = defaultIndexDir();
log('opening the workspace (latex-wild + well-known equations) with the full index');
const current = await openWorkspace(out, indexDir, dataDir);
const snap = current.equations.snapshot(current.ws);
log(`${snap.sites.length} workspace equations, ${current.ctx.index?.equations.size} index equations`);

const rnd = seededRandom(27);
const NOT_VARIABLES = new Set(['e', 'i', 'd', 'P', 'E']);
/** Every letter renamed within its case (not e, i, d, P, E). */
function renameAll(latex: string): string {
  const used = [...mathVariables(`$ ${latex} $`)].filter((v) => !NOT_VARIABLES.has(v));
  const pool = (upper: boolean) => [...'abcfghjklmnpqrstuvwxyz'].map((l) => (upper ? l.toUpperCase() : l)).filter((l) => !used.includes(l) && !NOT_VARIABLES.has(l)).map((l) => [rnd(), l] as [number, string]).sort((a, b) => a[0] - b[0]).map((x) => x[1]);
  const lower = pool(false), upper = pool(true);
  let nl = 0, nu = 0;
  const mapping = new Map(used.map((v) => [v, v === v.toLowerCase() ? lower[nl++ % lower.length] : upper[nu++ % upper.length]]));
  return applyRenaming(`$ ${latex} $`, mapping).slice(2, -2);
}

/** Top-level `=` positions (outside groups). */
function topLevel(t: string, chars: string): number[] {
  const at: number[] = [];
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '\\') { i++; while (i + 1 < t.length && /[A-Za-z]/.test(t[i + 1])) i++; continue; }
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    else if (depth === 0 && chars.includes(c)) at.push(i);
  }
  return at;
}

function swapSides(t: string): string | undefined {
  const eq = topLevel(t, '=');
  if (eq.length !== 1 || /[<>]|\\(le|ge|neq|to|subset|in)\b/.test(t)) return undefined;
  const [l, r] = [t.slice(0, eq[0]).trim(), t.slice(eq[0] + 1).trim()];
  return l && r ? `${r} = ${l}` : undefined;
}

/** The terms of the non-constant side reordered (signs kept), or undefined. */
function reorderTerms(t: string): string | undefined {
  const eq = topLevel(t, '=');
  if (eq.length !== 1) return undefined;
  const sides = [t.slice(0, eq[0]).trim(), t.slice(eq[0] + 1).trim()];
  const k = /^-?\d+$/.test(sides[1]) ? 0 : /^-?\d+$/.test(sides[0]) ? 1 : -1;
  if (k < 0) return undefined;
  const s = sides[k];
  const cuts = topLevel(s, '+-').filter((i) => i > 0 && !/[\^_]$/.test(s.slice(0, i).trimEnd()));
  if (cuts.length === 0) return undefined;
  const terms: string[] = [];
  let from = 0;
  for (const c of [...cuts, s.length]) { let term = s.slice(from, c).trim(); if (!/^[+-]/.test(term)) term = `+ ${term}`; terms.push(term); from = c; }
  const order = terms.map((x, i): [number, number] => [rnd(), i]).sort((a, b) => a[0] - b[0]).map((x) => x[1]);
  if (order.every((o, i) => o === i)) order.reverse();
  const joined = order.map((i) => terms[i]).join(' ').replace(/^\+\s*/, '');
  sides[k] = joined;
  return `${sides[0]} = ${sides[1]}`;
}

function respell(t: string): string | undefined {
  let s = t;
  if (/\\exp\s*\(/.test(s)) s = s.replace(/\\exp\s*\(([^()]*)\)/g, 'e^{$1}');
  else if (/\\exp\s*\\left\(/.test(s)) s = s.replace(/\\exp\s*\\left\(([^()]*)\\right\)/g, 'e^{$1}');
  else if (/(?<![A-Za-z\\])e\^\{/.test(s)) s = s.replace(/(?<![A-Za-z\\])e\^\{([^{}]*)\}/g, '\\exp($1)');
  s = s.replace(/\\mathbb\s*\{P\}/g, '\\Pr@').replace(/\\Pr(?!@)\b/g, '\\mathbb{P}').replace(/\\Pr@/g, '\\Pr');
  s = s.replace(/\\mathbb\s*\{E\}/g, '\\operatorname{E}@').replace(/\\operatorname\s*\{E\}(?!@)/g, '\\mathbb{E}').replace(/\\operatorname\{E\}@/g, '\\operatorname{E}');
  return s === t ? undefined : s;
}

function reseries(t: string): string | undefined {
  let s = t.replace(/\\sum_\{\s*([a-z])\s*=\s*(\d+)\s*\}\^\{?\\infty\}?/g, '\\sum_{$1 \\geq $2}');
  if (s === t) s = t.replace(/\\sum_\{\s*([a-z])\s*\\(?:geq|ge)\s*(\d+)\s*\}(?!\^)/g, '\\sum_{$1=$2}^{\\infty}');
  s = s.replace(/\\frac\{1\}\{([a-z])\^\{?(\d+|[a-z])\}?\}/g, '$1^{-$2}');
  return s === t ? undefined : s;
}

/** Whether a class's change applies to a display (`info`: its analysis, for constant-identity only). */
const APPLIES: Record<TwinClass, (t: string, info: ReturnType<typeof analyseEquation> | undefined) => boolean> = {
  functions: (t) => /(?<![\\A-Za-z])[fghFGH]\s*'*\s*\(/.test(t),
  bound: (t) => /\\int\b[\s\S]*\bd[a-z]\b|\\(?:sum|prod)_\{?\s*[a-z]\s*[=\\]/.test(t),
  spellings: (t) => /\\exp\b|(?<![A-Za-z\\])e\^\{|\\Pr\b|\\mathbb\s*\{[PE]\}|\\operatorname\s*\{E\}/.test(t),
  series: (t) => /\\sum_\{\s*[a-z]\s*=\s*\d+\s*\}\^\{?\\infty|\\sum_\{\s*[a-z]\s*\\(?:geq|ge)\s*\d+\s*\}|\\frac\{1\}\{[a-z]\^/.test(t),
  'constant-identity': (t, info) => info !== undefined && info.relations.length === 1 && info.relations[0] === '=' && info.sides.length === 2 && info.fingerprints && !info.fingerprints.difference && /=\s*-?\d+\s*$|^\s*-?\d+\s*=/.test(t),
  'side-swap': (t) => swapSides(t) !== undefined,
};
const CHANGE: Record<TwinClass, (t: string) => string | undefined> = {
  functions: renameAll,
  bound: renameAll,
  spellings: (t) => { const s = respell(t); return s && renameAll(s); },
  series: (t) => { const s = reseries(t); return s && renameAll(s); },
  'constant-identity': (t) => { const s = reorderTerms(t); return s && renameAll(s); },
  'side-swap': (t) => { const s = swapSides(t); return s && renameAll(s); },
};

const queries: Query[] = [];
// the fixture's pairs: the site of each `a` in the virtual file (openWorkspace opened it)
const pairs: TwinPair[] = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')).pairs;
const twinSites = current.documentEquations(current.ws.get(TWINS_URI)!);
pairs.forEach((p, i) => queries.push({ class: p.class, source: 'well-known', query: p.b, uri: TWINS_URI, line: twinSites[i].line }));
// real displays: single-row, unique in the workspace, changed by the class's script
const counts = new Map<string, number>();
for (const s of snap.sites) { const k = copyText(shownLatex(s)); counts.set(k, (counts.get(k) ?? 0) + 1); }
const real = snap.sites.filter((s) => s.doc.uri !== TWINS_URI && s.row === undefined && !/\\\\|(?<!\\)&/.test(shownLatex(s)) && counts.get(copyText(shownLatex(s))) === 1 && shownLatex(s).length >= 8 && shownLatex(s).length <= 300);
for (const cls of CLASSES) {
  const cands: Query[] = [];
  for (const s of real) {
    const t = shownLatex(s).replace(/[\s.,;]+$/, '');
    const info = cls === 'constant-identity' ? analyseEquation(t) : undefined;
    if (!APPLIES[cls](t, info)) continue;
    if (info && !(info.fingerprints.sides.length === 2)) continue; // info: constant-identity's
    const q = CHANGE[cls](t);
    if (!q || copyText(q) === copyText(t)) continue;
    cands.push({ class: cls, source: 'latex-wild', query: q, uri: s.doc.uri, line: s.line });
  }
  const picked = cands.map((c): [number, Query] => [rnd(), c]).sort((a, b) => a[0] - b[0]).slice(0, PER_CLASS).map((x) => x[1]);
  queries.push(...picked);
}
log(`${queries.length} queries (${pairs.length} well-known, ${queries.length - pairs.length} from latex-wild)`);

// ---------- today's ranking (child process) and ours
let before: number[] | undefined;
if (BASELINE !== 'none') {
  const base = baselineServer(root, BASELINE, dataDir, log);
  if (base) {
    const qf = path.join(root, '.cache', 'eval-twins-queries.json');
    const of = path.join(root, '.cache', 'eval-twins-baseline.json');
    fs.mkdirSync(path.dirname(qf), { recursive: true });
    fs.writeFileSync(qf, JSON.stringify(queries));
    log(`ranking with ${BASELINE}'s server and index`);
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--impl', base.out, '--index', base.index, '--data', dataDir, '--queries', qf, '--out', of, ...(opt('--models') ? ['--models', opt('--models')] : [])], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status === 0) before = JSON.parse(fs.readFileSync(of, 'utf8'));
    else log(`baseline run failed (${r.status ?? r.signal})`);
  }
}
log('ranking with this server');
const after = await rankAll(current, queries);
const explained: string[] = [];
if (argv.includes('--explain')) {
  // what came first, and how the twin scored
  for (const [i, q] of queries.entries()) {
    if (after[i] === 0) continue;
    const doc = current.ws.get(q.uri);
    const r = await current.findRelatedEquations(current.ctx, { latex: q.query, macros: doc ? current.equations.macros.of(current.ws, doc).defs : [] }, { limit: 50 });
    // workspace hits always carry their file
    const show = (x: RelatedEquation) => `${x.same ? 'same ' : ''}${x.score.toFixed(3)} ${x.source} fp=${x.why.fingerprint ?? '-'} enc=${x.why.encoder ?? '-'} st=${x.why.structure} ${x.source === 'index' ? x.title : `${path.basename(x.file!)}:${x.line}`} :: ${x.latex.replace(/\s+/g, ' ').slice(0, 90)}`;
    const t = r.results.find((x) => x.uri === q.uri && x.line === q.line + 1);
    explained.push(`${q.class}: ${q.query.replace(/\s+/g, ' ').slice(0, 100)}\n   first: ${r.results[0] ? show(r.results[0]) : '-'}\n   twin:  ${t ? show(t) : 'not in 50'}`);
  }
}
await current.close();

const pct = (a: number, n: number) => (n ? `${(Math.round((1000 * a) / n) / 10).toFixed(1)}%` : '—');
const rows: Array<Array<string | number>> = [['Class', 'Queries', 'Twin first (today)', 'Twin first (now)', 'Top 3 (now)', 'Misses (now)']];
const missed: string[] = [];
for (const cls of CLASSES) for (const src of ['well-known', 'latex-wild']) {
  const ids = queries.map((q, i) => i).filter((i) => queries[i].class === cls && queries[i].source === src);
  if (!ids.length) continue;
  const first = ids.filter((i) => after[i] === 0).length;
  const top3 = ids.filter((i) => after[i] >= 0 && after[i] < 3).length;
  const b = before ? pct(ids.filter((i) => before[i] === 0).length, ids.length) : 'n/a';
  rows.push([`${cls} (${src})`, ids.length, b, pct(first, ids.length), pct(top3, ids.length), ids.length - first]);
  for (const i of ids) if (after[i] !== 0) missed.push(`${cls}/${src}: rank ${after[i] < 0 ? '>10' : after[i] + 1}: ${queries[i].query.slice(0, 120)}`);
}
const all = queries.map((q, i) => i);
rows.push(['all', all.length, before ? pct(all.filter((i) => before[i] === 0).length, all.length) : 'n/a', pct(all.filter((i) => after[i] === 0).length, all.length), pct(all.filter((i) => after[i] >= 0 && after[i] < 3).length, all.length), all.filter((i) => after[i] !== 0).length]);
console.log(table(rows));
console.log(`\nWorkspace: latex-wild (${snap.sites.length} equations with the well-known file); index: ${indexDir}. Today = ${BASELINE} (its server and its index, same queries).`);
if (argv.includes('--misses')) console.log(`\nMisses:\n${missed.join('\n')}`);
if (explained.length) console.log(`\nMisses explained:\n${explained.join('\n')}`);
