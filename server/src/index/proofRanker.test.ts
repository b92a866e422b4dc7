// The committed proof ranker demoting a proof that matches every statement in favour of one that
// matches this statement (hub scores and fitting examples: scripts/src/rankers/proofFit.test.ts).
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { loadProofRanker, proofFeatureColumns, proofScores, PROOF_FEATURES } from './proofRanker.js';
import { modelsDir } from '../testing/modelPaths.js';

describe('the committed proof ranker', () => {
  const { ranker, problem } = loadProofRanker(modelsDir);
  it('loads and reads this version\'s features', () => {
    assert.ok(ranker, problem);
    assert.deepEqual(ranker.features, [...PROOF_FEATURES]);
    assert.match(ranker.trainedOn, /CC BY-SA 3\.0/);
  });
  it('puts the proof that matches this statement in particular above one that matches every statement', () => {
    // proof 0 scores a little higher on both signals but is a hub (high against every
    // background statement); proof 1 stands out from its usual level
    const bm = [10, 9, 4, 3, 2, 1], cos = [0.62, 0.58, 0.3, 0.25, 0.2, 0.1];
    const hubBm = [10, 4, 4, 3, 2, 1], hubCos = [0.6, 0.3, 0.3, 0.25, 0.2, 0.1];
    const plain = proofScores([1, 1, 0, 0], proofFeatureColumns(bm, cos, hubBm, hubCos));
    assert.ok(plain[0] > plain[1], 'the parameter-free fusion prefers the hub');
    const ranked = proofScores(ranker!.weights, proofFeatureColumns(bm, cos, hubBm, hubCos));
    assert.ok(ranked[1] > ranked[0], `ranker: ${[...ranked].map((x) => x.toFixed(2))}`);
  });

});

