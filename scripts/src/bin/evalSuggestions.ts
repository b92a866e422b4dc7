// Index suggestions on real projects read by hand (issue 41): candidate proofs on the theorem
// heads of the latex-wild blueprints (research) and books (textbooks), as the hover lists them
// (the statement's text and title through the full index, grouped by result, three at most),
// each with the relevance model's probability (index/relevance.ts). A seeded sample of heads that
// show at least one indexed candidate without abstention, --per-kind of each kind, round-robin
// over the projects.
//   * --dump FILE: writes a new sample (hovers not read before) with the statements' and
//     suggestions' texts for the readers, outside the repository (the texts are the projects'
//     and the index's);
//   * otherwise: recomputes the hovers read in test/real-world/suggestion-judgements.json (keys
//     and judgements only) and prints, per sample and kind, the precision of what is shown before
//     (every ranked suggestion) and after abstention, the coverage (hovers that still show an
//     indexed suggestion) and the share of the relevant suggestions kept; then, both samples
//     together, the same at every threshold (a named result is shown whatever its probability).
//   node scripts/out/bin/evalSuggestions.js [--per-kind N] [--seed S] [--dump FILE]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';
import { candidateProofs, defaultIndexDir, expandProofWikiMacros, loadRelevance, LoadedIndex, QUERY_TOKENS, relevanceRows, withRelevance } from 'mathsense-server/api/index';
import { EncoderSession, findModelsDir } from 'mathsense-server/api/embeddings';
import { Workspace, findDocumentFiles } from 'mathsense-server/api/project';
import { statements } from 'mathsense-server/api/analysis';
import { bodyText, byResult, shownSuggestion } from 'mathsense-server/api/features';
import { seededSample } from 'mathsense-server/api/util';

const { values: opt } = parseArgs({ options: { 'per-kind': { type: 'string' }, seed: { type: 'string' }, dump: { type: 'string' }, index: { type: 'string' } } });
const PER_KIND = Number(opt['per-kind'] ?? '40');
const SEED = Number(opt.seed ?? '41');
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(repoRoot, '..', 'shared');
const wild = path.join(shared, 'data', 'latex-wild');
const JUDGEMENTS = path.join(repoRoot, 'test', 'real-world', 'suggestion-judgements.json');
if (!fs.existsSync(wild)) { console.log(`eval-suggestions: ${wild} missing, skipped`); process.exit(0); }

/** Which latex-wild projects are research (blueprints) and which textbooks; the rest (notes in Markdown, statistics without proofs) are left out. */
const KIND_OF = (name: string): 'research' | 'textbook' | undefined => (/blueprint/.test(name) ? 'research' : /^(art-of-linear-algebra|ernst-intro-to-proof|lebl-basic-analysis|lebl-several-complex|milewski-category-theory|mathcomp-book)$/.test(name) ? 'textbook' : undefined);
/** Printed names of results that have proofs (as evalTheoremHeads). */
const PROVED = /\b(?:theorem|lemma|proposition|corollary|claim|fact|observation)\b/i;

let index: LoadedIndex;
try { index = LoadedIndex.load(defaultIndexDir(opt.index)); } catch (e) { console.log(`eval-suggestions: index unavailable (${(e as Error).message}), skipped`); process.exit(0); }
const modelsDir = findModelsDir(undefined);
const enc = await EncoderSession.load(modelsDir ?? path.join(repoRoot, 'models'), { accelerator: 'cpu', threads: 2 });
const rel = loadRelevance(modelsDir, index.header.modelVersion);
if (!rel.model) console.log(`no relevance model (${rel.problem}): "after" is "before"`);
const tok = enc.tokenizer;

interface Suggestion { url: string; title: string; relevance?: number; fits: boolean; named?: boolean; text: string; features?: number[] }
interface Hover { key: string; kind: 'research' | 'textbook'; statement: string; suggestions: Suggestion[] }

interface Judgement { key: string; url: string; relevant: boolean | 'unsure'; sample: string }
const judged = fs.existsSync(JUDGEMENTS) ? (JSON.parse(fs.readFileSync(JUDGEMENTS, 'utf8')) as { judgements: Judgement[] }).judgements : [];
const judgedKeys = new Set(judged.map((j) => j.key));

/** A project's proved-kind heads with their keys, in seeded order. */
function headsOf(name: string) {
  const dir = path.join(wild, name);
  const ws = new Workspace();
  for (const f of findDocumentFiles(dir)) if (/\.tex$/.test(f)) ws.loadFile(f);
  const heads = [];
  for (const doc of ws.all()) {
    for (const st of statements(ws, doc)) {
      if (!PROVED.test(st.kind.title)) continue;
      heads.push({ doc, st, key: `${name}/${path.relative(dir, new URL(doc.uri).pathname)}:${doc.positionAt(st.env.start).line + 1}` });
    }
  }
  return seededSample(heads, heads.length, SEED);
}

/** The hover of one head: its indexed candidates as the hover ranks them, unfiltered, each with its probability and whether it passes. */
async function hoverOf(kind: 'research' | 'textbook', h: ReturnType<typeof headsOf>[number]): Promise<Hover | undefined> {
  const text = bodyText(h.doc, h.st.env);
  if (text.length < 10) return undefined;
  const key = text.length > 4000 ? text.slice(0, 4000) : text;
  const [vec] = await enc.embedTexts([key]);
  const q = { ids: tok.encode(key, { maxTokens: QUERY_TOKENS }), vec, text: key };
  const results = withRelevance(rel.model, 'proof', candidateProofs(index, q, { limit: 10, name: h.st.title }), q);
  const groups = byResult(index, results).slice(0, 3);
  if (groups.length === 0) return undefined;
  const rows = relevanceRows(results, q.ids.length, true);
  return {
    key: h.key,
    kind,
    statement: text.slice(0, 1500),
    suggestions: groups.map((g) => {
      const best = g.proofs[0];
      return { url: best.entry.url, title: g.statement?.title ?? best.entry.title, relevance: Math.max(...g.proofs.map((p) => p.relevance ?? 1)), fits: g.proofs.some(shownSuggestion), ...(g.proofs.some((p) => p.named === true) ? { named: true } : {}), text: expandProofWikiMacros((g.statement ?? best.entry).text).slice(0, 1200), features: rows[results.indexOf(best)] };
    }),
  };
}

const projects = fs.readdirSync(wild).sort().filter((n) => KIND_OF(n));

if (opt.dump) {
  // a new sample to read: PER_KIND hovers of each kind, one project's next in turn, none read before
  const out: Hover[] = [];
  for (const kind of ['research', 'textbook'] as const) {
    const queues = projects.filter((n) => KIND_OF(n) === kind).map((n) => headsOf(n).filter((h) => !judgedKeys.has(h.key)));
    let got = 0;
    for (let i = 0; got < PER_KIND && queues.some((q) => i < q.length); i++) {
      for (const q of queues) {
        if (got >= PER_KIND || i >= q.length) continue;
        const hv = await hoverOf(kind, q[i]);
        if (hv) { out.push(hv); got++; }
      }
    }
    console.error(`[eval-suggestions] ${kind}: ${got} hovers`);
  }
  fs.writeFileSync(opt.dump, `${JSON.stringify(out, null, 1)}\n`);
  console.error(`[eval-suggestions] wrote ${out.length} hovers to ${opt.dump}`);
  process.exit(0);
}

// the judged hovers as the index and the model rank them now
const hovers: Hover[] = [];
for (const name of projects) {
  for (const h of headsOf(name)) {
    if (!judgedKeys.has(h.key)) continue;
    const hv = await hoverOf(KIND_OF(name)!, h);
    if (hv) hovers.push(hv);
  }
}
const verdict = new Map(judged.map((j) => [`${j.key} ${j.url}`, j]));
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
const rows: string[][] = [];
for (const sample of [...new Set(judged.map((j) => j.sample))].sort()) {
  const keys = new Set(judged.filter((j) => j.sample === sample).map((j) => j.key));
  for (const kind of ['research', 'textbook'] as const) {
    const hs = hovers.filter((h) => h.kind === kind && keys.has(h.key));
    let shownBefore = 0, relevantBefore = 0, shownAfter = 0, relevantAfter = 0, unjudged = 0, unsure = 0, covered = 0;
    for (const h of hs) {
      if (h.suggestions.some((s) => s.fits)) covered++;
      for (const s of h.suggestions) {
        const v = verdict.get(`${h.key} ${s.url}`)?.relevant;
        if (v === undefined) { unjudged++; continue; }
        if (v === 'unsure') unsure++;
        shownBefore++; if (v === true) relevantBefore++;
        if (s.fits) { shownAfter++; if (v === true) relevantAfter++; }
      }
    }
    rows.push([sample, kind, String(hs.length), `${relevantBefore}/${shownBefore} (${pct(relevantBefore, shownBefore)})`, `${relevantAfter}/${shownAfter} (${pct(relevantAfter, shownAfter)})`, `${covered}/${hs.length} (${pct(covered, hs.length)})`, `${relevantAfter}/${relevantBefore} (${pct(relevantAfter, relevantBefore)})`, String(unsure), String(unjudged)]);
  }
}
console.log(table([['sample', 'projects', 'hovers', 'relevant of shown, before', 'relevant of shown, after', 'hovers still showing one (coverage)', 'relevant kept', 'unsure (counted not relevant)', 'suggestions not judged (ranked since)'], ...rows]));
console.log(`\nHovers: theorem heads of proved kinds read by hand (${path.relative(repoRoot, JUDGEMENTS)}), ranked now; "after": what passes the relevance model's threshold (${rel.model ? `candidate proofs ${rel.model.tasks.proof.threshold}` : 'no model'}).`);

// every threshold at once, both samples together: whether any one threshold meets the targets
// (research: at least 80% of what is shown relevant; textbooks: at least 90% of the relevant kept)
const sweep: string[][] = [];
for (const t of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.45, 0.55, 0.65]) {
  const row = [t.toFixed(2)];
  for (const kind of ['research', 'textbook'] as const) {
    let shown = 0, relevant = 0, relevantAll = 0, covered = 0, n = 0;
    for (const h of hovers.filter((x) => x.kind === kind)) {
      n++;
      let any = false;
      for (const s of h.suggestions) {
        const v = verdict.get(`${h.key} ${s.url}`)?.relevant;
        if (v === undefined) continue;
        if (v === true) relevantAll++;
        // a named result is shown whatever its probability (as the hover shows it)
        if (!s.named && (s.relevance ?? 1) < t) continue;
        any = true; shown++; if (v === true) relevant++;
      }
      if (any) covered++;
    }
    row.push(`${relevant}/${shown} (${pct(relevant, shown)})`, `${covered}/${n} (${pct(covered, n)})`, `${relevant}/${relevantAll} (${pct(relevant, relevantAll)})`);
  }
  sweep.push(row);
}
console.log('\nEvery threshold, both samples (research target: ≥ 80% of shown relevant; textbook target: ≥ 90% of the relevant kept):');
console.log(table([['threshold', 'research: relevant of shown', 'research: coverage', 'research: relevant kept', 'textbook: relevant of shown', 'textbook: coverage', 'textbook: relevant kept'], ...sweep]));
