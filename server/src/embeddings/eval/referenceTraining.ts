// Fits the reference rankers (index/referenceRanker.ts) behind `npm run train:rankers`: the
// text model on the fit queries of PS-ProofWiki train and Stacks train together, the position
// model on Stacks (the one source whose results have files and an order). Reports both on
// the dev queries against the parameter-free direct match plus votes; test splits are never read.
import { fitReferenceModel, groupMap, POSITION_FEATURES, TEXT_FEATURES, type ReferenceGroup, type ReferenceRankers } from '../../index/referenceRanker.js';
import { psProofWikiTask, ReferenceSignals, stacksTask, type ReferenceTask } from './referenceTasks.js';
import type { Ctx } from './scorer.js';

type Group = ReferenceGroup & { total: number };

async function groups(ctx: Ctx, task: ReferenceTask, split: 'fit' | 'dev', withPosition: boolean): Promise<Group[]> {
  const signals = await ReferenceSignals.create(ctx, task);
  const out: Group[] = [];
  ctx.log(`${task.name}: ${task.splits[split].length} ${split} queries`);
  await signals.forEach(task.splits[split], (s, q) => out.push(signals.group(s, q, withPosition)));
  return out;
}

export async function trainReferenceRankers(ctx: Ctx, dataDir: string, slice?: number): Promise<ReferenceRankers> {
  const ps = psProofWikiTask(dataDir, slice), st = stacksTask(dataDir, slice);
  const psFit = await groups(ctx, ps, 'fit', false), psDev = await groups(ctx, ps, 'dev', false);
  const stFit = await groups(ctx, st, 'fit', true), stDev = await groups(ctx, st, 'dev', true);
  const textRows = (g: Group[]) => g.map((x) => ({ ...x, x: x.x.map((r) => r.slice(0, TEXT_FEATURES.length)) }));
  ctx.log('fitting');
  const text = fitReferenceModel([...psFit, ...textRows(stFit)], TEXT_FEATURES);
  const position = fitReferenceModel(stFit, POSITION_FEATURES);
  const score = (w: readonly number[]) => (r: number[]) => r.reduce((a, v, i) => a + v * w[i], 0);
  const plain = score([1, 1]); // the parameter-free fusion: direct match z + votes z
  const dev: Record<string, number> = {};
  const put = (name: string, m: { map: number; r10: number }) => { dev[`${name} mAP`] = Math.round(m.map * 1000) / 10; dev[`${name} R@10`] = Math.round(m.r10 * 1000) / 10; };
  put('PS-ProofWiki dev, direct+votes', groupMap(psDev, plain));
  put('PS-ProofWiki dev, text ranker', groupMap(psDev, score(text.weights)));
  put('Stacks dev, direct+votes', groupMap(stDev, plain));
  put('Stacks dev, text ranker', groupMap(textRows(stDev), score(text.weights)));
  put('Stacks dev, position ranker', groupMap(stDev, score(position.weights)));
  return {
    text, position, dev,
    trainedOn: `PS-ProofWiki train (${psFit.length} statements) and Stacks train results (${stFit.length}); dev: ${psDev.length} PS-ProofWiki dev statements, ${stDev.length} other Stacks train results`,
    licence: 'Fitted on ProofWiki content via PS-ProofWiki (CC BY-SA 3.0, proofwiki.org) and the Stacks project (GNU FDL 1.2).',
  };
}
