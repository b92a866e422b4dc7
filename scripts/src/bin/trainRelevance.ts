// Fits the relevance model (server/src/index/relevance.ts) through the full index in build/index
// and writes models/relevance/relevance.json with its held-out reliability tables.
//   * Candidate proofs: ProofWiki statements outside the test split whose result has other pages
//     (a family: the pages whose titles share the part before the first '/', i.e. the result, its
//     formulations, special cases, general result, corollaries, each direction of an iff), each as
//     the query; a candidate is relevant when it proves a page of the query's family. Each query
//     is asked with its own page in the index (an author writing a known result as the index
//     words it), with its own page left out (the same result in other words or generality is
//     what a textbook's statement finds), and with its whole family taken out (nothing fits, as
//     for a research lemma).
//   * Results to cite: PS-ProofWiki dev statements with a premise on an indexed page, their own
//     page never a candidate; a result is relevant when it is a premise; asked with the premises
//     in the index and taken out.
// Each with and without its encoder vector (the lexical fallback). The split is by family (or
// query): half fit the logistic model, a quarter calibrates it (Platt) and chooses the threshold,
// a quarter is the reliability table's. Test splits are never read; the encoder was trained on
// these pages' statement→proof pairs, never on pairs of pages of one family.
//   node scripts/out/bin/trainRelevance.js [--slice N] [--precision-proof P] [--precision-cite P] [--out DIR]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';
import { candidateProofs, defaultIndexDir, indexLibrary, LoadedLibrary, type LibraryEntry, logisticProbability, expandProofWikiMacros, LoadedIndex, QUERY_TOKENS, RELEVANCE_FEATURES, RELEVANCE_FILE, RELEVANCE_TASKS, relevanceRows, suggestCitations, type Logistic, type RelevanceModel, type RelevanceTask, type RelevanceTaskModel } from 'mathsense-server/api/index';
import { EmbeddingCache, EncoderSession, embedThroughCache } from 'mathsense-server/api/embeddings';
import { seededSample } from 'mathsense-server/api/util';
import { loadPsProofWiki } from '../data/psProofwiki.js';
import { isHeldOut, textKey } from '../data/splits.js';
import { LIBRARY_BOOKS } from '../data/libraryBooks.js';
import { mapPsStatements } from '../indexBuild/builder.js';
import { calibrate, fitLogistic, reliability, scores, thresholdFor, type Example } from '../rankers/relevanceFit.js';

const root = repoRoot;
const { values: opt } = parseArgs({ options: { slice: { type: 'string' }, 'precision-proof': { type: 'string' }, 'precision-cite': { type: 'string' }, 'precision-library': { type: 'string' }, out: { type: 'string' }, index: { type: 'string' } } });
const slice = opt.slice ? Number(opt.slice) : undefined;
/**
 * The precision each task's threshold keeps on the calibration queries, on labels that count
 * only part of what is relevant: for candidate proofs the query's family of pages (another page
 * proving the same thing is counted wrong), for results to cite the premises the page's own proof
 * cites (a small part of what an author could cite; even the best-scored suggestions are such
 * premises under half the time). Both bars are set on those narrow measures; the hand-read
 * hovers of real projects (evalSuggestions) say what they mean there.
 */
const PRECISION: Record<RelevanceTask, number> = { proof: Number(opt['precision-proof'] ?? '0.6'), cite: Number(opt['precision-cite'] ?? '0.2'), library: Number(opt['precision-library'] ?? '0.8') };
const outFile = path.join(path.resolve(opt.out ?? path.join(root, 'models')), RELEVANCE_FILE);
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const dataDir = path.join(shared, 'data');
const t0 = Date.now();
const log = (m: string) => console.error(`[train-relevance ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);

const index = LoadedIndex.load(defaultIndexDir(opt.index));
const h = index.header;
const enc = await EncoderSession.load(path.join(root, 'models'), { accelerator: 'cpu', threads: 2 });
if (enc.info.version !== h.modelVersion) throw new Error(`index built with encoder ${h.modelVersion}, models/ has ${enc.info.version}: rebuild the index first`);
const cache = new EmbeddingCache(enc.info.version, enc.info.dim, path.join(root, '.cache', 'index-embeddings'));
const embed = (texts: string[]) => embedThroughCache(cache, texts, (part) => enc.embedTexts(part.map((i) => texts[i])));
const tok = enc.tokenizer;
const qtext = h.proofwikiMacrosExpanded ? expandProofWikiMacros : (t: string) => t;
const [sa, sb] = h.kinds.statement;
const byKey = new Map<string, number>();
for (let id = sa; id < sb; id++) { const e = index.entry(id); if (h.sources[e.source].id === 'proofwiki') { const k = textKey(e.text); if (k.length >= 20 && !byKey.has(k)) byKey.set(k, id); } }

/**
 * One query of a task: its text, its own indexed statement, the statements that are relevant
 * (for candidate proofs: their proofs are), what "its answers taken out" removes, and its group
 * (queries of one group land in the same part of the split).
 */
interface TaskQuery { text: string; name?: string; self: number; relevant: Set<number>; answers: number[]; group: number }

const ps = loadPsProofWiki(dataDir);
const proofQueries: TaskQuery[] = [];
{
  // a family: the ProofWiki pages of one result (its title before the first '/': the result,
  // its formulations, special cases, general result, corollaries, each direction of an iff)
  const families = new Map<string, number[]>();
  for (let id = sa; id < sb; id++) {
    const e = index.entry(id);
    if (h.sources[e.source].id !== 'proofwiki' || e.heldOut) continue;
    const base = e.title.split('/')[0].trim();
    families.set(base, [...families.get(base) ?? [], id]);
  }
  seededSample([...families.values()].filter((m) => m.length >= 2), families.size, 13).forEach((members, group) => {
    const answers = members.flatMap((m) => [m, ...index.entry(m).proofs ?? []]);
    for (const self of members) proofQueries.push({ text: index.entry(self).text, self, relevant: new Set(members), answers, group });
  });
}
const citeQueries: TaskQuery[] = [];
{
  const map = mapPsStatements(ps.texts, byKey);
  for (const q of ps.dev) {
    const self = map.get(q.id);
    const gold = q.premises.map((p) => map.get(p)).filter((x): x is number => x !== undefined && x !== self);
    if (self === undefined || gold.length === 0) continue;
    citeQueries.push({ text: q.text, name: index.entry(self).title, self, relevant: new Set(gold), answers: gold, group: citeQueries.length });
  }
}

/** Bumped when the rows' making changes (the cache of rows is keyed by it). */
const ROWS_VERSION = 4;

/** A query's rows under one condition: its group, features of each listed candidate and whether it is relevant. */
interface Rows { query: number; rows: Example[] }

/** The rows of a task, read from .cache/relevance when made before for this index, encoder and slice. */
async function rowsOf(task: RelevanceTask, queries: TaskQuery[]): Promise<{ semantic: Rows[]; lexical: Rows[] }> {
  const file = path.join(root, '.cache', 'relevance', `${task}-v${ROWS_VERSION}-${h.modelVersion}-${index.count}-${RELEVANCE_FEATURES.length}-${slice ?? 'all'}.json`);
  if (fs.existsSync(file)) { log(`${task}: rows from ${path.relative(root, file)}`); return JSON.parse(fs.readFileSync(file, 'utf8')) as { semantic: Rows[]; lexical: Rows[] }; }
  const made = await makeRows(task, queries);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(made));
  return made;
}

async function makeRows(task: RelevanceTask, queries: TaskQuery[]): Promise<{ semantic: Rows[]; lexical: Rows[] }> {
  const qs = seededSample(queries, queries.length, 11).slice(0, slice).sort((a, b) => a.group - b.group);
  const texts = qs.map((q) => qtext(q.text));
  const vecs = await embed(texts);
  const semantic: Rows[] = [], lexical: Rows[] = [];
  qs.forEach((q, qi) => {
    const ids = tok.encode(texts[qi], { maxTokens: QUERY_TOKENS });
    // candidate proofs: the query's own page in the index (an author writing a known result as the
    // index words it), left out (its family, i.e. the same result in other words or generality,
    // still there), and its whole family taken out (nothing fits). Results to cite: the query's
    // own page is never a candidate, its premises there or taken out.
    const conditions = task === 'proof' ? [[], [q.self], q.answers] : [[q.self], [q.self, ...q.answers]];
    for (const left of conditions) {
      for (const withVec of [true, false]) {
        const query = withVec ? { ids, vec: vecs[qi] } : { ids };
        const exclude = new Set(left);
        const hits = task === 'proof'
          ? candidateProofs(index, query, { limit: 10, exclude })
          : suggestCitations(index, query, { limit: 8, exclude, names: { tok, name: q.name } });
        const isRelevant = (id: number) => (task === 'proof' ? q.relevant.has(index.entry(id).statement ?? -1) : q.relevant.has(id));
        const xs = relevanceRows(hits, ids.length, withVec);
        (withVec ? semantic : lexical).push({ query: q.group, rows: xs.map((x, i) => ({ x, y: isRelevant(hits[i].id) ? 1 : 0 })) });
      }
    }
    if (qi % 100 === 99) log(`${task}: ${qi + 1}/${qs.length} queries`);
  });
  return { semantic, lexical };
}

/** Statements with a proof asked of each library, at most. */
const LIBRARY_QUERIES = 1200;

/**
 * Library rows: the Stacks project (each chapter a paper; statements outside its test split) and
 * the latex-wild books (each book a paper), indexed as `mathsense library index` indexes them
 * (stores shared with evalLibrary in .cache/eval-library). Each statement with a proof is the
 * query, asked with its own statement in the library (an author quoting a paper's words), with
 * it left out (its proof still there: the same result in the author's words finds the paper's
 * proof), and with its whole paper taken out (nothing fits); relevant = the statement or a proof
 * of it. Grouped by paper, so fit, calibration and report read different papers.
 */
async function libraryRows(): Promise<{ semantic: Rows[]; lexical: Rows[]; queries: number }> {
  const file = path.join(root, '.cache', 'relevance', `library-v3-${h.modelVersion}-${RELEVANCE_FEATURES.length}-${slice ?? 'all'}.json`);
  if (fs.existsSync(file)) { log(`library: rows from ${path.relative(root, file)}`); return JSON.parse(fs.readFileSync(file, 'utf8')) as { semantic: Rows[]; lexical: Rows[]; queries: number }; }
  const wild = path.join(dataDir, 'latex-wild');
  const booksDir = path.join(root, '.cache', 'eval-library', 'books-folder');
  if (!fs.existsSync(booksDir)) for (const b of LIBRARY_BOOKS) fs.cpSync(path.join(wild, b), path.join(booksDir, b), { recursive: true });
  const libs = [
    { name: 'stacks', folder: path.join(dataDir, 'latex', 'stacks-project'), query: (e: LibraryEntry) => !!e.label && !isHeldOut(`stacks:${path.basename(e.file, '.tex')}-${e.label}`) },
    { name: 'books', folder: booksDir, query: () => true },
  ];
  const semantic: Rows[] = [], lexical: Rows[] = [];
  let groupBase = 0, queries = 0;
  for (const l of libs) {
    const store = path.join(root, '.cache', 'eval-library', l.name);
    let lib = LoadedLibrary.load(store);
    if (!(lib instanceof LoadedLibrary) || lib.manifest.encoder !== enc.info.version) {
      log(`library: indexing ${l.folder}`);
      await indexLibrary(l.folder, store, tok, { version: enc.info.version, dim: enc.info.dim, embed });
      lib = LoadedLibrary.load(store);
      if (!(lib instanceof LoadedLibrary)) throw new Error(lib.problem);
    }
    const items = lib.items;
    const paperNo = new Map(lib.manifest.papers.map((p, i) => [p.id, i]));
    const first = new Map<string, number>();
    items.forEach((it, i) => { if (!first.has(it.paper.id)) first.set(it.paper.id, i); });
    const proofsOf = new Map<number, number[]>();
    items.forEach((it, i) => { if (it.entry.kind === 'proof' && it.entry.proves !== undefined) { const st = first.get(it.paper.id)! + it.entry.proves; proofsOf.set(st, [...proofsOf.get(st) ?? [], i]); } });
    const byPaper = new Map<string, number[]>();
    items.forEach((it, i) => byPaper.set(it.paper.id, [...byPaper.get(it.paper.id) ?? [], i]));
    // a file two roots include (a book and its slides) is one place: what is at the query's places
    // is the query's, wherever listed, and taking a paper out takes its places out of every root
    const place = (i: number) => `${items[i].entry.kind}\0${items[i].entry.file}\0${items[i].entry.line}`;
    const atPlace = new Map<string, number[]>();
    items.forEach((_, i) => atPlace.set(place(i), [...atPlace.get(place(i)) ?? [], i]));
    const samePlaces = (xs: Iterable<number>) => new Set([...xs].flatMap((i) => atPlace.get(place(i))!));
    const qs = seededSample([...proofsOf.keys()].filter((st) => items[st].entry.kind === 'statement' && l.query(items[st].entry)), LIBRARY_QUERIES, 17).slice(0, slice);
    const texts = qs.map((st) => items[st].entry.text);
    const vecs = await embed(texts);
    qs.forEach((st, qi) => {
      const ids = tok.encode(texts[qi], { maxTokens: QUERY_TOKENS });
      const gold = samePlaces([st, ...proofsOf.get(st)!]);
      const paper = items[st].paper.id;
      for (const left of [new Set<number>(), samePlaces([st]), samePlaces(byPaper.get(paper)!)]) {
        for (const withVec of [true, false]) {
          const hits = lib.search({ ids, ...(withVec ? { vec: vecs[qi], encoder: enc.info.version } : {}) }, { kinds: ['statement', 'proof'], limit: 12, exclude: left }).map((x, id) => ({ ...x, id }));
          const xs = relevanceRows(hits, ids.length, withVec);
          (withVec ? semantic : lexical).push({ query: groupBase + paperNo.get(paper)!, rows: xs.map((x, i) => ({ x, y: gold.has(hits[i].item) ? 1 : 0 })) });
        }
      }
    });
    log(`library: ${l.name}, ${qs.length} queries of ${lib.manifest.papers.length} papers`);
    groupBase += lib.manifest.papers.length;
    queries += qs.length;
  }
  const made = { semantic, lexical, queries };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(made));
  return made;
}

/** Splits by the queries' groups: fit (half), calibration (a quarter), report (a quarter). */
function split(rows: Rows[]) {
  const part = (r: Rows) => { const b = r.query % 4; return b < 2 ? 'fit' : b === 2 ? 'calibration' : 'report'; };
  const of = (p: string, shownOnly = false) => rows.filter((r) => part(r) === p).flatMap((r) => (shownOnly ? r.rows.slice(0, 3) : r.rows));
  return { fit: of('fit'), calibration: of('calibration', true), report: of('report', true) };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
let libraryQueries = 0;
const summary: string[][] = [];
const tasks = {} as Record<RelevanceTask, RelevanceTaskModel>;
for (const task of RELEVANCE_TASKS) {
  const queries = task === 'proof' ? proofQueries : citeQueries;
  const all: { semantic: Rows[]; lexical: Rows[]; queries?: number } = task === 'library' ? await libraryRows() : await rowsOf(task, queries);
  if (task === 'library') libraryQueries = all.queries ?? 0;
  log(`${task}: ${task === 'library' ? libraryQueries : queries.length} queries`);
  const fitted: Record<'semantic' | 'lexical', Logistic> = {} as never;
  const thresholds = { semantic: 1, lexical: 1 };
  let table10: RelevanceTaskModel['reliability'] = [];
  for (const mode of ['semantic', 'lexical'] as const) {
    const s = split(all[mode]);
    const l = calibrate(fitLogistic(s.fit), s.calibration);
    fitted[mode] = l;
    const pc = s.calibration.map((e) => logisticProbability(l, e.x)), yc = s.calibration.map((e) => e.y);
    const t = thresholdFor(pc, yc, PRECISION[task]);
    const pr = s.report.map((e) => logisticProbability(l, e.x)), yr = s.report.map((e) => e.y);
    const shown = pr.map((p, i) => i).filter((i) => pr[i] >= t);
    const relevant = yr.filter((y) => y).length;
    const sc = scores(pr, yr);
    summary.push([task, mode, String(s.fit.length), String(s.report.length), String(round(relevant / (yr.length || 1))), String(t), String(shown.length), String(round(shown.filter((i) => yr[i]).length / (shown.length || 1))), String(round(shown.filter((i) => yr[i]).length / (relevant || 1))), String(sc.brier), String(sc.logLoss)]);
    thresholds[mode] = t;
    if (mode === 'semantic') table10 = reliability(pr, yr);
  }
  tasks[task] = { semantic: fitted.semantic, lexical: fitted.lexical, threshold: thresholds.semantic, lexicalThreshold: thresholds.lexical, reliability: table10 };
  console.log(`\n### ${task}: reliability on the report queries (encoder vector present)\n`);
  console.log(table([['predicted', 'n', 'mean predicted', 'observed relevant'], ...table10.map((r) => [r.bin, r.n, r.predicted, r.observed])]));
}
console.log(`\n### Held-out figures (report quarter; candidates in the first three places; thresholds chosen on the calibration quarter for precision ${PRECISION.proof} (proofs), ${PRECISION.cite} (cite), ${PRECISION.library} (library))\n`);
console.log(table([['task', 'mode', 'fit rows', 'report rows', 'base rate', 'threshold', 'shown', 'precision', 'recall', 'Brier', 'log loss'], ...summary]));

const model: RelevanceModel & { seconds: number; precisionTarget: Record<RelevanceTask, number>; queries: Record<RelevanceTask, number> } = {
  features: [...RELEVANCE_FEATURES],
  encoder: enc.info.version,
  tasks,
  trainedOn: `candidate proofs: ${proofQueries.length} ProofWiki statements outside the test split whose result has other pages (formulations, special cases, corollaries), relevant = a proof of a page of its family, each asked with its own page in the index, left out, and its family taken out; results to cite: ${citeQueries.length} PS-ProofWiki dev statements with an indexed premise; premises in the index and taken out; library: ${libraryQueries} statements with a proof of the Stacks project (chapters as papers, outside its test split) and the latex-wild books, indexed as a library, relevant = the statement or its proof, asked with the statement there, left out, and its paper taken out; split by family, query or paper: half fit, a quarter calibrates (Platt) and sets the threshold, a quarter reports. Content: ProofWiki, CC BY-SA 3.0 (proofwiki.org); PS-ProofWiki (NaturalProofs), MIT licence; the Stacks project, GFDL 1.2 (stacks.math.columbia.edu); the latex-wild books under their own licences (../shared/data/README.md)`,
  precisionTarget: PRECISION,
  queries: { proof: proofQueries.length, cite: citeQueries.length, library: libraryQueries },
  seconds: Math.round((Date.now() - t0) / 1000),
};
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, `${JSON.stringify(model, null, 1)}\n`);
log(`wrote ${path.relative(root, outFile)}`);
