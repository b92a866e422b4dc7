// Fitting the results-to-cite rankers on synthetic groups: weights, determinism, mAP (the fit on
// the real train splits: referenceFit.corpus.test.ts).
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { seededRandom } from 'mathsense-server/api/util';
import { fitReferenceModel, groupMap, type ReferenceGroup } from './referenceFit.js';

describe('reference ranker fit', () => {
  /** Groups where gold candidates have a higher feature 0 and, when voted, feature 1 spikes. */
  function synthetic(n: number, seed: number): Array<ReferenceGroup & { total: number }> {
    const rnd = seededRandom(seed);
    return Array.from({ length: n }, () => {
      const x: number[][] = [], gold: number[] = [];
      for (let k = 0; k < 40; k++) {
        const g = k < 2;
        const voted = rnd() < (g ? 0.5 : 0.02);
        x.push([rnd() + (g ? 0.8 : 0), voted ? 25 + 10 * rnd() : -0.05, rnd() * 3]);
        if (g) gold.push(k);
      }
      return { x, gold, total: 2 };
    });
  }

  it('learns positive weights for informative features, is deterministic, and ranks better than either alone', () => {
    const train = synthetic(200, 1), dev = synthetic(200, 2);
    const shared = ['signal', 'votes', 'noise'];
    const m = fitReferenceModel(train, shared);
    assert.deepEqual(m, fitReferenceModel(train, shared));
    assert.ok(m.weights[0] > 0 && m.weights[1] > 0, `weights ${m.weights}`);
    assert.ok(Math.abs(m.weights[2]) < Math.abs(m.weights[0]), 'the noise feature gets the smallest weight');
    const score = (w: number[]) => (r: number[]) => r.reduce((a, v, i) => a + v * w[i], 0);
    const fitted = groupMap(dev, score(m.weights)).map;
    assert.ok(fitted > groupMap(dev, score([1, 0, 0])).map && fitted > groupMap(dev, score([0, 1, 0])).map);
  });

  it('computes mAP and recall@10 over groups, gold outside a group counting as missed', () => {
    const g = { x: [[3], [2], [1]], gold: [1], total: 2 };
    const r = groupMap([g], (row) => row[0]);
    assert.equal(r.map, 0.5 / 2);
    assert.equal(r.r10, 0.5);
  });
});
