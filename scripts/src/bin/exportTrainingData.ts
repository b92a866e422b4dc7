// Exports training pairs as token ids for the Python trainer (models/training/train.py), using
// the server's tokenizer (mathsense-server/api/embeddings), so Python never tokenizes anything.
// Only train splits are read for training: ProofWiki and Stacks test items (hash split), the
// PS-ProofWiki dev/test statements and the MathD2 test splits never reach the output.
//
//   node scripts/out/bin/exportTrainingData.js [--data ../shared/data] [--out .cache/train]
//        [--rebuild-vocab] [--vocab-size 12000] [--max-tokens 128] [--no-hard-negatives]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../lib/repo.js';
import { MathTokenizer, Vocabulary } from 'mathsense-server/api/embeddings';
import { renameSharedSymbols } from '../training/symbolRenaming.js';
import { seededRandom } from 'mathsense-server/api/util';
import { VocabCounter, buildVocabulary } from '../training/vocabBuilder.js';
import { loadProofWiki } from '../data/proofwiki.js';
import { loadPsProofWiki } from '../data/psProofwiki.js';
import { loadMathD2, type MathD2Row } from '../data/mathd2.js';
import { termTitle } from 'mathsense-server/api/index';
import { loadStacks } from '../data/stacks.js';
import { proofWikiCitations, psHeldOutCopies } from '../data/proofwikiLinks.js';
import { isMathD2CosineFit } from '../data/splits.js';
import { bm25Negatives } from '../training/hardNegatives.js';

const root = repoRoot;
const { values: opt } = parseArgs({ options: {
  data: { type: 'string', default: path.join(root, '..', 'shared', 'data') },
  out: { type: 'string', default: path.join(root, '.cache', 'train') },
  'rebuild-vocab': { type: 'boolean', default: false },
  'vocab-size': { type: 'string', default: '12000' },
  'max-tokens': { type: 'string', default: '128' },
  'no-hard-negatives': { type: 'boolean', default: false },
} });

const t0 = Date.now();
const log = (m: string) => console.log(`[export ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);
const maxTokens = Number(opt['max-tokens']);
fs.mkdirSync(opt.out, { recursive: true });

const ps = loadPsProofWiki(opt.data);
// ProofWiki pages whose theorem is a PS-ProofWiki dev/test statement are not trained on either:
// their proofs spell out exactly the premise links those splits evaluate (the pages equal to
// one, and the page most like each of the others: psHeldOutCopies).
const pwAll = loadProofWiki(opt.data);
const pwCopies = psHeldOutCopies(pwAll, [...ps.dev, ...ps.test]);
const pw = pwAll.filter((t) => !t.heldOut && !pwCopies.has(t));
// A train theorem's proof names the pages it uses (any page's title can be named): statement <->
// cited statement pairs, the relation PS-ProofWiki evaluates (held-out theorems are never the
// cited side either).
const pwCites = proofWikiCitations(pwAll, pw);
const stacks = loadStacks(opt.data);
const stacksTrain = stacks.results.filter((r) => !r.heldOut);
const byLabel = new Map(stacks.results.map((r) => [r.label, r]));
// half the MathD2 train terms are kept from the encoder: the term ranker fits its cosine weight there
const md2All = loadMathD2(opt.data, 'train');
const md2 = md2All.filter((d) => !isMathD2CosineFit(d.term));
log(`proofwiki ${pw.length} train theorems (${pwCopies.size} copies of PS dev/test statements left out), stacks ${stacksTrain.length} train results, ps-proofwiki ${ps.train.length} train statements, mathd2 ${md2.length} train definitions (${md2All.length - md2.length} kept for the term ranker's cosine fit)`);

/**
 * A training pair as texts: query `a`, candidate `b`, source `s`; `rename`: also a variant with
 * shared symbols renamed; `macros`: Stacks texts, read with the preamble macros; `md2`: the MathD2
 * row of a title pair; `neg`: a hard negative (addHardNegatives).
 */
interface Pair { a: string; b: string; s: string; rename?: boolean; macros?: boolean; md2?: MathD2Row; neg?: string }

// every train theorem, every resolved Stacks ref and every PS premise has its entry in the maps read below
const pairs: Pair[] = [];
for (const t of pw) for (const p of t.proofs.slice(0, 3)) pairs.push({ a: t.statement, b: p, s: 'proofwiki-proof', rename: true });
for (const t of pw) {
  for (const c of pwCites.get(t.base)!.filter((c) => !c.heldOut).slice(0, 6)) pairs.push({ a: t.statement, b: c.statement, s: 'proofwiki-ref' });
}
for (const r of stacksTrain) {
  if (r.proof) pairs.push({ a: r.statement, b: r.proof, s: 'stacks-proof', rename: true, macros: true });
  for (const ref of r.refs.slice(0, 6)) pairs.push({ a: r.statement, b: byLabel.get(ref)!.statement, s: 'stacks-ref', macros: true });
}
for (const q of ps.train) for (const p of q.premises) pairs.push({ a: q.text, b: ps.texts.get(p)!, s: 'ps-premise' });
for (const d of md2) pairs.push({ a: d.definition, b: termTitle(d.term, d.title), s: 'mathd2-title', md2: d });

const vocabFile = path.join(root, 'models', 'tokenizer', 'vocab.json');
let vocab: Vocabulary;
if (opt['rebuild-vocab'] || !fs.existsSync(vocabFile)) {
  const counter = new VocabCounter();
  const seen = new Set<string>();
  for (const p of pairs) for (const x of [p.a, p.b]) { if (!seen.has(x)) { seen.add(x); counter.add(x); } }
  vocab = buildVocabulary(counter, { size: Number(opt['vocab-size']) });
  vocab.save(vocabFile);
  log(`built vocabulary: ${vocab.size} tokens -> ${path.relative(root, vocabFile)}`);
} else {
  vocab = Vocabulary.load(vocabFile);
  log(`using committed vocabulary ${path.relative(root, vocabFile)} (${vocab.size} tokens)`);
}
const tok = new MathTokenizer(vocab);
if (!opt['no-hard-negatives']) addHardNegatives(tok);
const rnd = seededRandom(4);
const out = fs.createWriteStream(path.join(opt.out, 'pairs.jsonl'));
const counts: Record<string, number> = {};
let renamed = 0;
for (const p of pairs) {
  const o = { macros: p.macros ? stacks.macros : undefined, maxTokens };
  const a = tok.encode(p.a, o);
  const b = tok.encode(p.b, o);
  if (a.length < 2 || b.length < 2) continue;
  const rec: { s: string; a: number[]; b: number[]; n?: number[]; r?: number[] } = { s: p.s, a, b };
  if (p.neg) rec.n = tok.encode(p.neg, o);
  if (p.rename) {
    const r = renameSharedSymbols(p.a, p.b, rnd);
    if (r !== p.a) { rec.r = tok.encode(r, o); renamed++; }
  }
  out.write(`${JSON.stringify(rec)}\n`);
  counts[p.s] = (counts[p.s] ?? 0) + 1;
}
await new Promise((res) => out.end(res));
const negatives = pairs.filter((p) => p.neg).length;
// fixed texts whose torch embeddings become the reference vectors the Node test checks
const REFERENCE_TEXTS = [
  'Let $G$ be a group and $H \\le G$ a subgroup. Then the order of $H$ divides the order of $G$.',
  'By Lagrange\'s theorem, $\\card G = \\index G H \\cdot \\card H$.',
  'A \\emph{field} is a commutative ring $K$ in which every nonzero element has an inverse.',
];
fs.writeFileSync(path.join(opt.out, 'reference_inputs.json'), JSON.stringify(REFERENCE_TEXTS.map((text) => ({ text, ids: tok.encode(text, { maxTokens }) }))));
fs.writeFileSync(path.join(opt.out, 'meta.json'), JSON.stringify({ vocabSize: vocab.size, vocabHash: vocab.hash, maxTokens, counts, renamed, negatives, mathd2CosineFitHeldOut: md2All.length - md2.length }, null, 1));
log(`wrote ${Object.values(counts).reduce((x: number, y: number) => x + y, 0)} pairs ${JSON.stringify(counts)}, ${renamed} with a renamed variant, ${negatives} with a hard negative`);

/**
 * One hard negative per reference/premise/title pair (`neg`): for references, a text of the same
 * train pool that BM25 ranks near the query but that the query does not cite (hardNegatives.ts);
 * for MathD2, another title that shares the definition's term (the very choice it is tested on).
 * Pools hold train items only, so no held-out text becomes a negative either.
 */
function addHardNegatives(tok: MathTokenizer) {
  const nrnd = seededRandom(7);
  const pick = <T>(xs: T[]): T => xs[Math.floor(nrnd() * xs.length)];
  /** `queryOf`: the query item of each query text of `source`'s pairs (every one has its item). */
  const mine = <Q>(source: string, poolTexts: string[], queryOf: Map<string, Q>, excludeOf: (q: Q) => Array<number | undefined>, o: Parameters<MathTokenizer['encode']>[1] = {}) => {
    const bySource = pairs.filter((p) => p.s === source);
    const queries = [...new Set(bySource.map((p) => p.a))];
    const poolIds = poolTexts.map((t) => tok.encode(t, o));
    const at = new Map(poolTexts.map((t, i) => [t, i]));
    const negs = bm25Negatives(poolIds, queries.map((a) => ({ ids: tok.encode(a, o), exclude: new Set([at.get(a), ...excludeOf(queryOf.get(a)!)].filter((i): i is number => i !== undefined)) })));
    const byQuery = new Map(queries.map((a, i) => [a, negs[i]]));
    for (const p of bySource) { const n = byQuery.get(p.a)!; if (n.length) p.neg = poolTexts[pick(n)]; }
    log(`hard negatives for ${source}: ${queries.length} queries against ${poolTexts.length} texts`);
  };
  const psPool = [...ps.texts].filter(([id]) => !ps.heldOut.has(id));
  const psAt = new Map(psPool.map(([id], i) => [id, i]));
  mine('ps-premise', psPool.map(([, t]) => t), new Map(ps.train.map((q) => [q.text, q])), (q) => q.premises.map((id) => psAt.get(id)));
  const stacksAt = new Map(stacksTrain.map((r, i) => [r.label, i]));
  mine('stacks-ref', stacksTrain.map((r) => r.statement), new Map(stacksTrain.map((r) => [r.statement, r])), (r) => r.refs.map((l) => stacksAt.get(l)), { macros: stacks.macros });
  const pwAt = new Map(pw.map((t, i) => [t, i]));
  mine('proofwiki-ref', pw.map((t) => t.statement), new Map(pw.map((t) => [t.statement, t])), (t) => pwCites.get(t.base)!.map((c) => pwAt.get(c)));
  const titlesOf = new Map<string, Set<string>>();
  for (const d of md2) { const ts = titlesOf.get(d.term) ?? new Set<string>(); ts.add(d.title); titlesOf.set(d.term, ts); }
  // title pairs carry their row, whose term is in titlesOf
  for (const p of pairs.filter((q) => q.s === 'mathd2-title')) {
    const d = p.md2!;
    const others = [...titlesOf.get(d.term)!].filter((t) => t !== d.title);
    if (others.length) p.neg = termTitle(d.term, pick(others));
  }
}
