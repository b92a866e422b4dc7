// The proof ranker's parts: streaming hub scores against brute force, and the committed model
// demoting a proof that matches every statement in favour of one that matches this statement.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { HubScores, loadProofRanker, proofFeatureColumns, proofGroup, proofScores, PROOF_FEATURES } from './proofRanker.js';
import { seededRandom } from '../util/random.js';
import { modelsDir } from './testing.js';

describe('hub scores', () => {
  it('keep the mean of each proof\'s k best background scores, skipping its own statement', () => {
    const rnd = seededRandom(1);
    const n = 7, k = 3;
    const rows = Array.from({ length: 20 }, () => Array.from({ length: n }, () => Math.round(rnd() * 100) / 10));
    const own = (row: number, j: number) => row === j; // background row j is proof j's statement
    const hub = new HubScores(n, k);
    rows.forEach((r, i) => hub.add(r, (j) => own(i, j)));
    const got = hub.means();
    for (let j = 0; j < n; j++) {
      const best = rows.filter((_, i) => !own(i, j)).map((r) => r[j]).sort((a, b) => b - a).slice(0, k);
      assert.ok(Math.abs(got[j] - best.reduce((a, b) => a + b, 0) / k) < 1e-5, `proof ${j}`);
    }
  });
  it('average what there is when fewer than k statements were seen, 0 when none', () => {
    const hub = new HubScores(2, 4);
    hub.add([1, 5], (j) => j === 1);
    hub.add([3, 5], (j) => j === 1);
    assert.deepEqual([...hub.means()], [2, 0]);
  });
});

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
  it('fits on the gold proof against the best others by the plain fusion', () => {
    const cols = proofFeatureColumns([5, 1, 4, 3], [0.5, 0.1, 0.4, 0.3], [0, 0, 0, 0], [0, 0, 0, 0]);
    const g = proofGroup(cols, 1, 2);
    assert.deepEqual(g.gold, [0]);
    assert.equal(g.x.length, 3);
    assert.deepEqual(g.x[0], cols.map((c) => c[1]));
    assert.deepEqual(g.x[1], cols.map((c) => c[0]), 'the best other first');
  });
});

