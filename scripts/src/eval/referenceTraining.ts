// Fits the reference rankers (index/referenceRanker.ts) behind `npm run train:rankers`: the
// text model on the fit queries of PS-ProofWiki train and Stacks train together (names: page
// titles and label words), the position
// model on Stacks (the one source whose results have files and an order). Reports both on
// the dev queries against the parameter-free direct match and against linear
// models fitted on the same rows; test splits are never read.
import { fitMlpRanker } from '../rankers/mlpFit.js';
import { mlpScore, NAME_FEATURES, POSITION_FEATURES, referenceScore, SHARED_FEATURES, TEXT_FEATURES, withoutNames, type LinearModel, type ReferenceRankers, type TextModel, dot, type ProofRankerModel } from 'mathsense-server/api/index';
import { fitReferenceModel, groupMap, type ReferenceGroup } from '../rankers/referenceFit.js';
import { psProofWikiTask, ReferenceSignals, stacksTask, type ReferenceTask } from './referenceTasks.js';
import type { Ctx } from './scorer.js';

type Group = ReferenceGroup & { total: number };

/** The fit and dev groups of a task (its pools indexed once for both). */
async function groups(ctx: Ctx, task: ReferenceTask, withPosition: boolean, neighbours?: ProofRankerModel): Promise<Record<'fit' | 'dev', Group[]>> {
  const signals = await ReferenceSignals.create(ctx, task, neighbours);
  const out: Record<'fit' | 'dev', Group[]> = { fit: [], dev: [] };
  for (const split of ['fit', 'dev'] as const) {
    ctx.log(`${task.name}: ${task.splits[split].length} ${split} queries`);
    await signals.forEach(task.splits[split], (s, q) => out[split].push(signals.group(s, q, withPosition)));
  }
  return out;
}

/**
 * The text model in two stages, so that a statement without names ranks as if names did not
 * exist: the shared signals (network, or linear for the comparison) fitted on both sources,
 * then, on both again with their names (Stacks: label words; PS-ProofWiki: page titles), one
 * coefficient for that shared score plus the name weights. The shared score is scaled by that
 * coefficient, which leaves every nameless ranking unchanged.
 */
function twoStages(named: Group[], shared: (rows: number[]) => number): { scale: number; names: number[] } {
  const k = SHARED_FEATURES.length;
  const w = fitReferenceModel(named.map((g) => ({ ...g, x: g.x.map((r) => [shared(r.slice(0, k)), ...r.slice(k)]) })), ['shared score', ...NAME_FEATURES]).weights;
  // a non-positive scale would reverse every nameless ranking: better no ranker than that one
  if (!(w[0] > 0)) throw new Error(`text ranker: the shared score got weight ${w[0]}; not writing a ranker that reverses nameless rankings`);
  return { scale: w[0], names: w.slice(1) };
}

const sharedRows = (g: Group[]) => g.map((x) => ({ ...x, x: x.x.map((r) => r.slice(0, SHARED_FEATURES.length)) }));

function fitTextModel(ps: Group[], stacks: Group[]): TextModel {
  const shared = fitMlpRanker(sharedRows([...ps, ...stacks]), SHARED_FEATURES);
  const { scale, names } = twoStages([...ps, ...stacks], (r) => mlpScore(shared, r));
  return { features: [...TEXT_FEATURES], shared: { ...shared, out: shared.out.map((w) => w * scale) }, names };
}

/** The linear text model of the same two stages (reported on dev, not shipped). */
function fitLinearTextModel(ps: Group[], stacks: Group[]): LinearModel {
  const shared = fitReferenceModel(sharedRows([...ps, ...stacks]), SHARED_FEATURES).weights;
  const { scale, names } = twoStages([...ps, ...stacks], (r) => dot(shared, r));
  return { features: [...TEXT_FEATURES], weights: [...shared.map((w) => w * scale), ...names] };
}

/** `neighbours`: the proof ranker, whose similarity finds the voting neighbours (as at run time). */
export async function trainReferenceRankers(ctx: Ctx, dataDir: string, slice?: number, neighbours?: ProofRankerModel): Promise<ReferenceRankers> {
  const { fit: psFit, dev: psDev } = await groups(ctx, psProofWikiTask(dataDir, slice), false, neighbours);
  const { fit: stFit, dev: stDev } = await groups(ctx, stacksTask(dataDir, slice), true, neighbours);
  const textRows = (g: Group[]) => g.map((x) => ({ ...x, x: x.x.map((r) => r.slice(0, TEXT_FEATURES.length)) }));
  ctx.log('fitting');
  const text = fitTextModel(psFit, textRows(stFit));
  const position = fitMlpRanker(stFit, POSITION_FEATURES);
  const linearText = fitLinearTextModel(psFit, textRows(stFit));
  const linearPosition = fitReferenceModel(stFit, POSITION_FEATURES);
  const score = (m: Parameters<typeof referenceScore>[0]) => (r: number[]) => referenceScore(m, r);
  // the parameter-free baseline: the direct match alone
  const plain = score({ features: [...POSITION_FEATURES], weights: POSITION_FEATURES.map((_, i) => (i < 1 ? 1 : 0)) });
  const dev: Record<string, number> = {};
  const put = (name: string, m: { map: number; r10: number }) => { dev[`${name} mAP`] = Math.round(m.map * 1000) / 10; dev[`${name} R@10`] = Math.round(m.r10 * 1000) / 10; };
  put('PS-ProofWiki dev, direct match', groupMap(psDev, plain));
  put('PS-ProofWiki dev, linear text ranker', groupMap(psDev, score(linearText)));
  put('PS-ProofWiki dev, text ranker', groupMap(psDev, score(text)));
  put('PS-ProofWiki dev, text ranker without titles', groupMap(psDev, score(withoutNames(text))));
  put('Stacks dev, direct match', groupMap(stDev, plain));
  put('Stacks dev, linear text ranker', groupMap(textRows(stDev), score(linearText)));
  put('Stacks dev, text ranker', groupMap(textRows(stDev), score(text)));
  put('Stacks dev, text ranker without names', groupMap(textRows(stDev), score(withoutNames(text))));
  put('Stacks dev, linear position ranker', groupMap(stDev, score(linearPosition)));
  put('Stacks dev, position ranker', groupMap(stDev, score(position)));
  return {
    text, position, dev,
    trainedOn: `PS-ProofWiki train (${psFit.length} statements) and Stacks train results (${stFit.length}); dev: ${psDev.length} PS-ProofWiki dev statements, ${stDev.length} other Stacks train results`,
    licence: 'Fitted on ProofWiki content via PS-ProofWiki (CC BY-SA 3.0, proofwiki.org) and the Stacks project (GNU FDL 1.2).',
  };
}
