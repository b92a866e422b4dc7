// Fitting the results-to-cite rankers on a slice of the real train splits (corpus tier: reads
// ../shared/data and loads the encoder).
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { referenceRow, referenceScore, usableRankers } from 'mathsense-server/api/index';
import { createContext } from '../eval/scorer.js';
import { trainReferenceRankers } from '../eval/referenceTraining.js';
import { hasSharedData, repoRoot, sharedData } from '../testing/paths.js';

describe('reference ranker on real data', { skip: !hasSharedData && 'no ../shared/data' }, () => {
  it('fitted on a slice of the train splits, it is finite and reports dev figures for both sources', async () => {
    const ctx = await createContext({ modelsDir: path.join(repoRoot, 'models') });
    try {
      const r = await trainReferenceRankers(ctx, sharedData, 60);
      assert.ok(usableRankers(r), JSON.stringify(r));
      for (const k of ['PS-ProofWiki dev, text ranker mAP', 'Stacks dev, position ranker mAP']) assert.ok(Number.isFinite(r.dev[k]), k);
      const text = { direct: 1, votes: 0, cited: 1 };
      assert.ok(referenceScore(r.position, referenceRow(text, [1, 1, 0])) > referenceScore(r.position, referenceRow(text, [0, 0, 0])), 'the result just before, in the same file, is more likely cited');
    } finally {
      await ctx.enc.release();
    }
  });
});
