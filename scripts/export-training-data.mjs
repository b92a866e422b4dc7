// Exports training pairs as token ids for the Python trainer (models/training/train.py), using
// the server's tokenizer (server/out/embeddings), so Python never tokenizes anything itself.
// Only train splits are read for training: ProofWiki and Stacks test items (hash split), the
// PS-ProofWiki dev/test statements and the MathD2 test splits never reach the output.
//
//   node scripts/export-training-data.mjs [--data ../shared/data] [--out .cache/train]
//        [--rebuild-vocab] [--vocab-size 12000] [--max-tokens 128]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values: opt } = parseArgs({ options: {
  data: { type: 'string', default: path.join(root, '..', 'shared', 'data') },
  out: { type: 'string', default: path.join(root, '.cache', 'train') },
  'rebuild-vocab': { type: 'boolean', default: false },
  'vocab-size': { type: 'string', default: '12000' },
  'max-tokens': { type: 'string', default: '128' },
} });
const emb = (m) => import(path.join(root, 'server', 'out', 'embeddings', m));
const { MathTokenizer } = await emb('tokenizer.js');
const { Vocabulary } = await emb('vocabulary.js');
const { VocabCounter, buildVocabulary } = await emb('vocabBuilder.js');
const { renameSharedSymbols, seededRandom } = await emb('symbolRenaming.js');
const { loadProofWiki } = await emb('data/proofwiki.js');
const { loadPsProofWiki } = await emb('data/psProofwiki.js');
const { loadMathD2, termTitle } = await emb('data/mathd2.js');
const { loadStacks } = await emb('data/stacks.js');
const { proofWikiCitations, psHeldOutCopies } = await emb('data/proofwikiLinks.js');

const t0 = Date.now();
const log = (m) => console.log(`[export ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);
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
const md2 = loadMathD2(opt.data, 'train');
log(`proofwiki ${pw.length} train theorems (${pwCopies.size} copies of PS dev/test statements left out), stacks ${stacksTrain.length} train results, ps-proofwiki ${ps.train.length} train statements, mathd2 ${md2.length} train definitions`);

// [query, candidate, source, renameAgainst?] as texts; stacks texts carry the preamble macros
const pairs = [];
for (const t of pw) for (const p of t.proofs.slice(0, 3)) pairs.push({ a: t.statement, b: p, s: 'proofwiki-proof', rename: true });
for (const t of pw) {
  for (const c of pwCites.get(t.base).filter((c) => !c.heldOut).slice(0, 6)) pairs.push({ a: t.statement, b: c.statement, s: 'proofwiki-ref' });
}
for (const r of stacksTrain) {
  if (r.proof) pairs.push({ a: r.statement, b: r.proof, s: 'stacks-proof', rename: true, macros: true });
  for (const ref of r.refs.slice(0, 6)) pairs.push({ a: r.statement, b: byLabel.get(ref).statement, s: 'stacks-ref', macros: true });
}
for (const q of ps.train) for (const p of q.premises) pairs.push({ a: q.text, b: ps.texts.get(p), s: 'ps-premise' });
for (const d of md2) pairs.push({ a: d.definition, b: termTitle(d.term, d.title), s: 'mathd2-title' });

const vocabFile = path.join(root, 'models', 'tokenizer', 'vocab.json');
let vocab;
if (opt['rebuild-vocab'] || !fs.existsSync(vocabFile)) {
  const counter = new VocabCounter();
  const seen = new Set();
  for (const p of pairs) for (const x of [p.a, p.b]) { if (!seen.has(x)) { seen.add(x); counter.add(x); } }
  vocab = buildVocabulary(counter, { size: Number(opt['vocab-size']) });
  vocab.save(vocabFile);
  log(`built vocabulary: ${vocab.size} tokens -> ${path.relative(root, vocabFile)}`);
} else {
  vocab = Vocabulary.load(vocabFile);
  log(`using committed vocabulary ${path.relative(root, vocabFile)} (${vocab.size} tokens)`);
}
const tok = new MathTokenizer(vocab);
const rnd = seededRandom(4);
const out = fs.createWriteStream(path.join(opt.out, 'pairs.jsonl'));
const counts = {};
let renamed = 0;
for (const p of pairs) {
  const o = { macros: p.macros ? stacks.macros : undefined, maxTokens };
  const a = tok.encode(p.a, o);
  const b = tok.encode(p.b, o);
  if (a.length < 2 || b.length < 2) continue;
  const rec = { s: p.s, a, b };
  if (p.rename) {
    const r = renameSharedSymbols(p.a, p.b, rnd);
    if (r !== p.a) { rec.r = tok.encode(r, o); renamed++; }
  }
  out.write(`${JSON.stringify(rec)}\n`);
  counts[p.s] = (counts[p.s] ?? 0) + 1;
}
await new Promise((res) => out.end(res));
// fixed texts whose torch embeddings become the reference vectors the Node test checks
const REFERENCE_TEXTS = [
  'Let $G$ be a group and $H \\le G$ a subgroup. Then the order of $H$ divides the order of $G$.',
  'By Lagrange\'s theorem, $\\card G = \\index G H \\cdot \\card H$.',
  'A \\emph{field} is a commutative ring $K$ in which every nonzero element has an inverse.',
];
fs.writeFileSync(path.join(opt.out, 'reference_inputs.json'), JSON.stringify(REFERENCE_TEXTS.map((text) => ({ text, ids: tok.encode(text, { maxTokens }) }))));
fs.writeFileSync(path.join(opt.out, 'meta.json'), JSON.stringify({ vocabSize: vocab.size, vocabHash: vocab.hash, maxTokens, counts, renamed }, null, 1));
log(`wrote ${Object.values(counts).reduce((x, y) => x + y, 0)} pairs ${JSON.stringify(counts)}, ${renamed} with a renamed variant`);
