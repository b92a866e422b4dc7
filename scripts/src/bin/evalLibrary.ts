// `npm run eval` rows for the author's library (issue 41, part 2), measured through the library's
// own code (server/src/index/library): a folder of papers is indexed as `mathsense library index`
// indexes it, and queried with its statements.
//   * Libraries: the Stacks project (each chapter a paper; queries: the statements of the Stacks
//     test split, which the encoder never trained on) and the latex-wild books (each book a
//     paper; queries: every statement with a proof; the encoder never trained on them).
//   * statement → its own proof: the rank of the proof that proves it among every proof of the
//     library (MRR, acc@1);
//   * cited results: the statements its proof \ref's, among every other statement of the
//     library (mAP);
//   each by BM25 alone, the encoder alone, and the library's search (BM25 + encoder, z-fused).
//   The bundled index holds neither corpus, so "the index alone" answers none of these queries.
//   * cost: index time and store size per 1,000 entries, and the time to index a synthetic
//     folder of 2,000 papers again after one paper is added.
// Stores go to .cache/eval-library (vectors through the eval embedding cache).
//   node scripts/out/bin/evalLibrary.js [--only stacks|books|synthetic]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';
import { indexLibrary, LoadedLibrary, loadRelevance, refsIn, sharedDataDir, withRelevance, type LibraryEntry } from 'mathsense-server/api/index';
import { EmbeddingCache, EncoderSession, embedThroughCache } from 'mathsense-server/api/embeddings';
import { goldRank, averagePrecision } from '../eval/metrics.js';
import { isHeldOut } from '../data/splits.js';
import { LIBRARY_BOOKS } from '../data/libraryBooks.js';

const argv = process.argv.slice(2);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const dataDir = sharedDataDir();
const t0 = Date.now();
const log = (m: string) => console.error(`[eval-library ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);
const stacksDir = path.join(dataDir, 'latex', 'stacks-project');
const wild = path.join(dataDir, 'latex-wild');
if (!fs.existsSync(stacksDir) || !fs.existsSync(wild)) { console.log('eval-library: shared data missing, skipped'); process.exit(0); }

const enc = await EncoderSession.load(path.join(repoRoot, 'models'), { accelerator: 'cpu', threads: 2 });
const cache = new EmbeddingCache(enc.info.version, enc.info.dim, path.join(repoRoot, '.cache', 'eval-embeddings'));
const encoder = { version: enc.info.version, dim: enc.info.dim, embed: (texts: string[]) => embedThroughCache(cache, texts, (part) => enc.embedTexts(part.map((i) => texts[i]))) };
const tok = enc.tokenizer;
const storeRoot = path.join(repoRoot, '.cache', 'eval-library');

/** The latex-wild books, copied into one folder (each book a paper; its slides and exercises' own roots are papers too). */
function booksFolder(): string {
  const dir = path.join(storeRoot, 'books-folder');
  if (!fs.existsSync(dir)) {
    for (const b of LIBRARY_BOOKS) fs.cpSync(path.join(wild, b), path.join(dir, b), { recursive: true });
  }
  return dir;
}

interface Corpus { name: string; folder: string; query: (e: LibraryEntry) => boolean }
const corpora: Corpus[] = [
  // the Stacks test split: the key splits.ts uses for Stacks results (chapter-qualified label)
  { name: 'Stacks project (chapters as papers), test-split statements', folder: stacksDir, query: (e: LibraryEntry) => !!e.label && isHeldOut(`stacks:${path.basename(e.file, '.tex')}-${e.label}`) },
  { name: 'latex-wild books (books as papers), every proved statement', folder: booksFolder(), query: () => true },
].filter((c) => !only || c.name.toLowerCase().startsWith(only === 'books' ? 'latex-wild' : only === 'stacks' ? 'stacks' : '\0'));

const pct = (x: number) => Math.round(x * 1000) / 10;
const relevance = loadRelevance(path.join(repoRoot, 'models'), enc.info.version).model;
/** Abstention through the library's relevance model: per library, how often something is shown and how often the first shown is right. */
const shownRows: Array<Array<string | number>> = [];
const rows: Array<Array<string | number>> = [];
const cost: Array<Array<string | number>> = [];
for (const c of corpora) {
  const store = path.join(storeRoot, c.name.startsWith('Stacks') ? 'stacks' : 'books');
  fs.rmSync(store, { recursive: true, force: true });
  const t1 = Date.now();
  const first = await indexLibrary(c.folder, store, tok, encoder, (done, total) => { if (done % 20 === 0 || done === total) log(`${c.name}: ${done}/${total} papers`); });
  const indexSeconds = (Date.now() - t1) / 1000;
  const bytes = fs.readdirSync(path.join(store, 'papers')).reduce((a, f) => a + fs.statSync(path.join(store, 'papers', f)).size, 0);
  const lib = LoadedLibrary.load(store);
  if (!(lib instanceof LoadedLibrary)) throw new Error(lib.problem);
  // each paper's entry k at its global index (items hold papers in order, each paper's entries in order)
  const at = new Map<string, number>();
  const count = new Map<string, number>();
  const byLabel = new Map<string, number>();
  lib.items.forEach((it, i) => { const k = count.get(it.paper.id) ?? 0; count.set(it.paper.id, k + 1); at.set(`${it.paper.id}\0${k}`, i); });
  lib.items.forEach((it, i) => { if (it.entry.label && it.entry.kind !== 'proof') { byLabel.set(`${it.paper.id}\0${it.entry.label}`, i); byLabel.set(`*\0${path.basename(it.entry.file, '.tex')}-${it.entry.label}`, i); } });
  const proofsOf = new Map<number, number[]>();
  lib.items.forEach((it, i) => {
    if (it.entry.kind !== 'proof' || it.entry.proves === undefined) return;
    const s = at.get(`${it.paper.id}\0${it.entry.proves}`);
    if (s !== undefined) proofsOf.set(s, [...proofsOf.get(s) ?? [], i]);
  });
  // a file two papers include (a book's chapter and its slides' root, a second edition) is one
  // place, as the library's search lists it: each place is ranked once, under its first entry
  const firstAt = new Map<string, number>();
  const canonical = lib.items.map((it, i) => { const k = `${it.entry.kind}\0${it.entry.file}\0${it.entry.line}`; if (!firstAt.has(k)) firstAt.set(k, i); return firstAt.get(k)!; });
  for (const [st, ps] of proofsOf) proofsOf.set(st, [...new Set(ps.map((p) => canonical[p]))]);
  const proofIdx = lib.items.map((it, i) => (it.entry.kind === 'proof' && canonical[i] === i ? i : -1)).filter((i) => i >= 0);
  const stIdx = lib.items.map((it, i) => ((it.entry.kind === 'statement' || it.entry.kind === 'definition') && canonical[i] === i ? i : -1)).filter((i) => i >= 0);
  const queries = [...proofsOf.keys()].filter((s) => canonical[s] === s && lib.items[s].entry.kind === 'statement' && c.query(lib.items[s].entry));
  log(`${c.name}: ${lib.size} entries, ${queries.length} queries`);
  const texts = queries.map((s) => lib.items[s].entry.text);
  const vecs = await encoder.embed(texts);
  const acc = { bm25: [0, 0, 0, 0], encoder: [0, 0, 0, 0], library: [0, 0, 0, 0] }; // MRR, acc@1, AP sum, AP count
  queries.forEach((s, qi) => {
    const { bm, cos, fused } = lib.scores({ ids: tok.encode(texts[qi], { maxTokens: 512 }), vec: vecs[qi], encoder: enc.info.version });
    const gold = new Set(proofsOf.get(s)!);
    // the results its proofs \ref, resolved in its paper (or by a Stacks chapter-qualified label)
    const paper = lib.items[s].paper.id;
    const cited = new Set<number>();
    for (const p of gold) for (const l of refsIn(lib.items[p].entry.text)) { const t = byLabel.get(`${paper}\0${l}`) ?? byLabel.get(`*\0${l}`); if (t !== undefined && canonical[t] !== s) cited.add(canonical[t]); }
    for (const [m, sc] of [['bm25', bm], ['encoder', cos ?? bm], ['library', fused]] as const) {
      const proofScores = Float32Array.from(proofIdx, (i) => sc[i]);
      const goldLocal = new Set(proofIdx.map((i, k) => (gold.has(i) ? k : -1)).filter((k) => k >= 0));
      const r = goldRank(proofScores, goldLocal);
      acc[m][0] += 1 / r; acc[m][1] += r === 1 ? 1 : 0;
      if (cited.size) {
        const stScores = Float32Array.from(stIdx, (i) => (i === s ? -Infinity : sc[i]));
        const goldSt = new Set(stIdx.map((i, k) => (cited.has(i) ? k : -1)).filter((k) => k >= 0));
        acc[m][2] += averagePrecision(stScores, goldSt); acc[m][3]++;
      }
    }
  });
  // abstention, as the hover shows library results: the statement asked in the author's words
  // (its own entry left out, its proof in the library: the first shown should be that proof), and
  // with its whole paper left out (nothing fits: anything shown is wrong)
  if (relevance) {
    const place = (i: number) => `${lib.items[i].entry.kind}\0${lib.items[i].entry.file}\0${lib.items[i].entry.line}`;
    const byPlace = new Map<string, number[]>();
    lib.items.forEach((_, i) => byPlace.set(place(i), [...byPlace.get(place(i)) ?? [], i]));
    const paperPlaces = new Map<string, Set<number>>();
    lib.items.forEach((it, i) => { const set = paperPlaces.get(it.paper.id) ?? new Set<number>(); for (const j of byPlace.get(place(i))!) set.add(j); paperPlaces.set(it.paper.id, set); });
    const acc2 = { shown: 0, right: 0, alarms: 0 };
    queries.forEach((s, qi) => {
      const ids = tok.encode(texts[qi], { maxTokens: 512 });
      const q = { ids, vec: vecs[qi], encoder: enc.info.version };
      const gold = new Set([...proofsOf.get(s)!].flatMap((p) => byPlace.get(place(p))!));
      const own = new Set(byPlace.get(place(s))!);
      const shownFirst = (exclude: Set<number>) => withRelevance(relevance, 'library', lib.search(q, { kinds: ['statement', 'proof'], limit: 12, exclude }).map((h, id) => ({ ...h, id })), { ids, vec: vecs[qi] }).find((h) => h.fits);
      const first = shownFirst(own);
      if (first) { acc2.shown++; if (gold.has(first.item)) acc2.right++; }
      if (shownFirst(paperPlaces.get(lib.items[s].paper.id)!)) acc2.alarms++;
    });
    const seen = c.name.startsWith('Stacks') ? 'held out of the relevance fit' : 'its papers were in the relevance fit';
    shownRows.push([c.name, seen, queries.length, pct(acc2.shown / queries.length), pct(acc2.right / (acc2.shown || 1)), pct(acc2.alarms / queries.length)]);
  }
  const n = queries.length;
  rows.push([c.name, 'statement → its own proof, MRR', n, pct(acc.bm25[0] / n), pct(acc.encoder[0] / n), pct(acc.library[0] / n), '≥ 70']);
  rows.push([c.name, 'statement → its own proof, acc@1', n, pct(acc.bm25[1] / n), pct(acc.encoder[1] / n), pct(acc.library[1] / n), '']);
  rows.push([c.name, 'cited results, mAP', acc.library[3], pct(acc.bm25[2] / (acc.bm25[3] || 1)), pct(acc.encoder[2] / (acc.encoder[3] || 1)), pct(acc.library[2] / (acc.library[3] || 1)), '≥ 35']);
  cost.push([c.name, first.papers, first.entries, (indexSeconds / (first.entries / 1000)).toFixed(1), (bytes / 1024 / 1024 / (first.entries / 1000)).toFixed(2)]);
}
// re-indexing a large library after one paper is added: a synthetic folder of 2,000 small papers
// (five statements and a proof each, seeded words), indexed once, then one paper more
if (!only || only === 'synthetic') {
  const dir = path.join(storeRoot, 'synthetic-folder');
  const store = path.join(storeRoot, 'synthetic');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(store, { recursive: true, force: true });
  const words = 'group ring field module ideal prime finite abelian morphism scheme sheaf open closed compact dense continuous measurable bounded linear operator manifold curve surface variety'.split(' ');
  const paper = (k: number) => {
    let body = `\\documentclass{amsart}\n\\newtheorem{theorem}{Theorem}\n\\title{Paper ${k}}\n\\begin{document}\n`;
    for (let j = 0; j < 5; j++) {
      const w = (i: number) => words[(k * 7 + j * 13 + i * 5) % words.length];
      body += `\\begin{theorem}\\label{t${j}}\nEvery ${w(0)} ${w(1)} of a ${w(2)} ${w(3)} is ${w(4)} (paper ${k}, result ${j}).\n\\end{theorem}\n`;
    }
    return `${body}\\begin{proof}\nBy the ${words[k % words.length]} property.\n\\end{proof}\n\\end{document}\n`;
  };
  for (let k = 0; k < 2000; k++) { fs.mkdirSync(path.join(dir, `p${k}`), { recursive: true }); fs.writeFileSync(path.join(dir, `p${k}`, 'main.tex'), paper(k)); }
  const t1 = Date.now();
  const first = await indexLibrary(dir, store, tok, encoder);
  const firstS = (Date.now() - t1) / 1000;
  fs.mkdirSync(path.join(dir, 'p2000'));
  fs.writeFileSync(path.join(dir, 'p2000', 'main.tex'), paper(2000));
  const t2 = Date.now();
  const again = await indexLibrary(dir, store, tok, encoder);
  const againS = (Date.now() - t2) / 1000;
  cost.push(['synthetic, 2,000 papers', first.papers, first.entries, (firstS / (first.entries / 1000)).toFixed(1), '']);
  cost.push([`the same + 1 paper, indexed again (${again.added} added, ${again.kept} unchanged)`, again.papers, again.entries, `${againS.toFixed(1)} s in all`, '']);
  log(`synthetic: ${firstS.toFixed(1)} s, again ${againS.toFixed(1)} s`);
}
console.log('\n## The author\'s library: retrieval through the library\'s own index (BM25, encoder, and the library\'s search)\n');
console.log(table([['library', 'task', 'queries', 'BM25', 'encoder', 'library search', 'target'], ...rows]));
console.log('\nThe bundled index holds neither corpus: alone it answers none of these queries (its proofs are ProofWiki\'s, PlanetMath\'s).');
if (shownRows.length) {
  console.log('\n## Abstention (the relevance model\'s library task, as hovers show library results)\n');
  console.log('Each statement asked with its own entry left out (its proof is the right answer), and with its whole paper left out (nothing fits).\n');
  console.log(table([['library', 'queries', 'n', 'shown %', 'first shown is its own proof %', 'paper left out: shown anyway %'], ...shownRows]));
}
console.log('\n## Cost on this machine (CPU encoder, vectors through the eval embedding cache when warm)\n');
console.log(table([['library', 'papers', 'entries', 'index s per 1,000 entries', 'store MB per 1,000 entries'], ...cost]));
await enc.release();
