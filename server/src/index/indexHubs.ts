// The index's hub scores (proofRanker.ts), computed once at build (offline,
// scripts/src/indexBuild/hubs.ts) from a seeded sample of indexed statements outside the
// held-out splits (so an evaluation query never shapes the scores its candidates are read
// against): for every proof (candidate proofs; each skips its own statement) in proof-hubs.bin,
// and for every statement (the neighbours whose citations vote for results to cite; each skips
// itself) in statement-hubs.bin. Each file is Float32[n] BM25 hubs, then Float32[n] cosine hubs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rankWithHubs, usableProofRanker, type Hubs, type ProofRankerModel } from './proofRanker.js';
import type { LoadedIndex } from './store.js';
import { meanSd } from '../util/zScores.js';

type Loaded = (Hubs<Float32Array> & { model: ProofRankerModel; statements?: Hubs<Float32Array>; statementProblem?: string }) | { problem: string };
const loaded = new WeakMap<LoadedIndex, Loaded>();

/** The index's proof ranker with its hubs (read once, 176 KB), or why the proofs are ranked by BM25+encoder alone. */
export function indexProofRanker(index: LoadedIndex): Loaded {
  let v = loaded.get(index);
  if (!v) { v = readRanker(index); loaded.set(index, v); }
  return v;
}

function readRanker(index: LoadedIndex): Loaded {
  const h = index.header.proofRanker;
  const model = usableProofRanker(h);
  if (!h || !model) return { problem: h ? 'the index\'s proof ranker does not match this version (rebuild the index)' : 'the index has no proof ranker (rebuild it after `npm run train:rankers`)' };
  const proofs = readHubs(index, 'proof', h.hubs);
  if ('problem' in proofs) return proofs;
  const statements = readHubs(index, 'statement', h.statementHubs);
  return { model, ...proofs, ...('problem' in statements ? { statementProblem: statements.problem } : { statements }) };
}

function readHubs(index: LoadedIndex, kind: 'proof' | 'statement', f: { name: string; bytes: number } | undefined): Hubs<Float32Array> | { problem: string } {
  if (!f) return { problem: `the index has no ${kind} hub scores (rebuild it)` };
  const [a, b] = index.header.kinds[kind];
  const n = b - a;
  const file = path.join(index.dir, f.name);
  let buf: Buffer;
  try { buf = fs.readFileSync(file); } catch (e) { return { problem: `${file} cannot be read (${(e as Error).message}); rebuild the index` }; }
  if (buf.length !== 8 * n || buf.length !== f.bytes) return { problem: `${file} is corrupt (${buf.length} bytes, expected ${8 * n}); rebuild the index` };
  const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
  if (!all.every(Number.isFinite)) return { problem: `${file} is corrupt (non-finite values); rebuild the index` };
  return { bm: all.subarray(0, n), cos: all.subarray(n) };
}

/**
 * The proof ranker's scores of every indexed proof (dense, from the first proof id), rescaled to
 * the spread of the parameter-free fusion so that they still compare with statement matches
 * (candidateProofs merges both); undefined without a ranker or a query vector.
 */
export function rankIndexProofs(index: LoadedIndex, bm25: Float32Array, cosine: Float32Array | undefined, fused: Float32Array): Float32Array | undefined {
  const r = indexProofRanker(index);
  if (!cosine || 'problem' in r || r.bm.length !== bm25.length) return undefined;
  const s = rankWithHubs(r.model.weights, bm25, cosine, r);
  const [m, sd] = meanSd(s), [fm, fsd] = meanSd(fused);
  for (let i = 0; i < s.length; i++) s[i] = ((s[i] - m) / sd) * fsd + fm;
  return s;
}

/**
 * How like the query each indexed statement is, for finding the neighbours whose citations
 * vote (retrieval.ts#withCitationVotes): the proof ranker's score over the statements, read
 * against their hub scores as the rankers were fitted (referenceTasks.ts); undefined without
 * statement hubs or a query vector (the plain fusion then).
 */
export function statementSimilarity(index: LoadedIndex, bm25: Float32Array, cosine: Float32Array | undefined): Float32Array | undefined {
  const r = indexProofRanker(index);
  if (!cosine || 'problem' in r || !r.statements || r.statements.bm.length !== bm25.length) return undefined;
  return rankWithHubs(r.model.weights, bm25, cosine, r.statements);
}
