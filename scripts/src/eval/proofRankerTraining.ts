// Fits the proof ranker (index/proofRanker.ts) behind `npm run train:rankers`, and computes the
// ranker's columns for the statement→proof evaluation. Fitted on ProofWiki theorems the
// encoder never trained on that are not in the test split either: the copies of PS-ProofWiki
// dev/test statements (data/proofwikiLinks.ts#psHeldOutCopies). Half of them are fitted on,
// half are the dev pool, each a 1-1 pool like the evaluation's; test splits are never read.
import { HUB_BACKGROUND, HUB_NEIGHBOURS, PROOF_FEATURES, proofFeatureColumns, proofScores, type ProofRankerModel } from 'mathsense-server/api/index';
import { proofGroup } from '../rankers/proofFit.js';
import { fitSoftmaxRanker } from '../rankers/softmaxFit.js';
import { loadProofWiki } from '../data/proofwiki.js';
import { psHeldOutCopies } from '../data/proofwikiLinks.js';
import { loadPsProofWiki } from '../data/psProofwiki.js';
import type { MacroTable } from 'mathsense-server/api/embeddings';
import { renameSharedSymbols } from '../training/symbolRenaming.js';
import { seededRandom, seededSample } from 'mathsense-server/api/util';
import { goldRank } from './metrics.js';
import { Scorer, type Ctx, type Item, type Method } from './scorer.js';

export interface StatementProofPair { statement: string; proof: string; macros?: MacroTable }
export type SymbolLevel = 'kept' | 'renamed';

/** Each query's scores against a 1-1 pool: the three methods, and the proof ranker's columns. */
export interface PoolScores { scores: Record<Method, Float32Array[]>; columns: Float32Array[][] }

/**
 * Statements against the first proofs of a 1-1 pool, at one symbol level ("renamed": every
 * single-letter variable a statement shares with its proof renamed, seeded), with each proof's
 * hub scores against `background` statements (none of them the pool's).
 */
export async function statementProofScores(ctx: Ctx, pairs: StatementProofPair[], background: Item[], level: SymbolLevel): Promise<PoolScores> {
  const pool = new Scorer(ctx);
  await pool.index(pairs.map((p) => ({ text: p.proof, macros: p.macros })));
  const rnd = seededRandom(7);
  const queries = pairs.map((p) => ({ text: level === 'kept' ? p.statement : renameSharedSymbols(p.statement, p.proof, rnd), macros: p.macros }));
  const scores = await pool.score(queries);
  const hubs = ctx.methods.includes('encoder') ? await pool.hubs(background) : { bm: new Float32Array(pairs.length), cos: new Float32Array(pairs.length) };
  return { scores, columns: scores.bm25.map((b, i) => proofFeatureColumns(b, scores.encoder[i], hubs.bm, hubs.cos)) };
}

/** MRR and accuracy@1 (%) of a 1-1 pool's rankings (query i's proof is candidate i). */
export function poolMrr(rankings: ArrayLike<number>[]): { mrr: number; acc1: number } {
  const ranks = rankings.map((s, i) => goldRank(s, new Set([i])));
  const pct = (x: number) => Math.round((x / (ranks.length || 1)) * 1000) / 10;
  return { mrr: pct(ranks.reduce((a, r) => a + 1 / r, 0)), acc1: pct(ranks.filter((r) => r === 1).length) };
}

export async function trainProofRanker(ctx: Ctx, dataDir: string, slice?: number): Promise<ProofRankerModel> {
  const theorems = loadProofWiki(dataDir);
  const ps = loadPsProofWiki(dataDir);
  const copies = psHeldOutCopies(theorems, [...ps.dev, ...ps.test]);
  const unseen = seededSample([...copies], copies.size, 5).slice(0, slice ? slice * 2 : undefined);
  const half = Math.floor(unseen.length / 2);
  const pair = (t: (typeof unseen)[number]) => ({ statement: t.statement, proof: t.proofs[0] });
  const fit = unseen.slice(0, half).map(pair), dev = unseen.slice(half).map(pair);
  const background = seededSample(theorems.filter((t) => !t.heldOut && !copies.has(t)), slice ? 200 : HUB_BACKGROUND).map((t) => ({ text: t.statement }));
  ctx.log(`proof ranker: ${fit.length} fit and ${dev.length} dev statement–proof pairs (ProofWiki pages the encoder never trained on), ${background.length} background statements`);
  const levels: SymbolLevel[] = ['kept', 'renamed'];
  const groups = [];
  for (const level of levels) {
    const { columns } = await statementProofScores(ctx, fit, background, level);
    groups.push(...columns.map((c, i) => proofGroup(c, i)));
  }
  const weights = fitSoftmaxRanker(groups, PROOF_FEATURES.length);
  const devFigures: Record<string, number> = {};
  for (const level of levels) {
    const { scores, columns } = await statementProofScores(ctx, dev, background, level);
    const fused = poolMrr(scores.fused), ranked = poolMrr(columns.map((c) => proofScores(weights, c)));
    devFigures[`ProofWiki dev (${level}), BM25+enc MRR`] = fused.mrr;
    devFigures[`ProofWiki dev (${level}), proof ranker MRR`] = ranked.mrr;
    devFigures[`ProofWiki dev (${level}), BM25+enc acc@1`] = fused.acc1;
    devFigures[`ProofWiki dev (${level}), proof ranker acc@1`] = ranked.acc1;
  }
  return {
    features: [...PROOF_FEATURES], weights, hubNeighbours: HUB_NEIGHBOURS, background: background.length, dev: devFigures,
    trainedOn: `${fit.length} ProofWiki statement–proof pairs (kept and renamed symbols) outside the test split that the encoder never trained on (copies of PS-ProofWiki dev/test statements); dev: the other ${dev.length}. Content: ProofWiki, CC BY-SA 3.0 (proofwiki.org)`,
  };
}
