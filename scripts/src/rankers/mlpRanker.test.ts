// The one-hidden-layer ranker: it learns an interaction a weighted sum cannot (the right
// candidates are those whose two signals agree in sign), its fit is deterministic, and what it
// writes is what readsMlp accepts.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { fitMlpRanker } from './mlpFit.js';
import { mlpScore, readsMlp, dot } from 'mathsense-server/api/index';
import { fitReferenceModel, groupMap, type ReferenceGroup } from './referenceFit.js';
import { seededRandom } from 'mathsense-server/api/util';

const FEATURES = ['a', 'b', 'noise'];

/** Groups of 30 candidates; the two right ones have a·b large (both signals high, or both low). */
function interaction(n: number, seed: number): Array<ReferenceGroup & { total: number }> {
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const x = Array.from({ length: 30 }, (_, k) => {
      const sign = k < 2 ? (rnd() < 0.5 ? 1 : -1) : 0;
      const a = sign ? sign * (0.6 + 0.4 * rnd()) : 2 * rnd() - 1;
      const b = sign ? sign * (0.6 + 0.4 * rnd()) : -Math.sign(a) * rnd();
      return [a + 3, 5 * b, rnd()];
    });
    return { x, gold: [0, 1], total: 2 };
  });
}

describe('MLP ranker', () => {
  it('learns an interaction of two signals that a linear ranker cannot, deterministically', () => {
    const train = interaction(150, 1), dev = interaction(150, 2);
    const m = fitMlpRanker(train, FEATURES, { hidden: 8, epochs: 30, lr: 1e-2 });
    assert.deepEqual(m, fitMlpRanker(train, FEATURES, { hidden: 8, epochs: 30, lr: 1e-2 }));
    assert.ok(readsMlp(m, FEATURES));
    assert.ok(!readsMlp(m, ['a', 'b']), 'other features');
    const net = groupMap(dev, (r) => mlpScore(m, r)).map;
    const lin = fitReferenceModel(train, FEATURES);
    const linear = groupMap(dev, (r) => dot(lin.weights, r)).map;
    assert.ok(net > 0.8, `network dev mAP ${net}`);
    assert.ok(net > linear + 0.3, `network ${net} vs linear ${linear}`);
  });

  it('standardises inputs with the fit\'s mean and spread, and reads a short row as zeros', () => {
    const m = fitMlpRanker(interaction(20, 3), FEATURES, { hidden: 2, epochs: 1 });
    assert.ok(Math.abs(m.mean[0] - 3) < 0.2 && m.scale[1] > 1, `${m.mean} ${m.scale}`);
    assert.equal(mlpScore(m, [3, 1]), mlpScore(m, [3, 1, 0]));
  });

  it('refuses a model with missing or non-finite parts', () => {
    const m = fitMlpRanker(interaction(20, 4), FEATURES, { hidden: 2, epochs: 1 });
    assert.ok(!readsMlp({ ...m, bias: [0] }, FEATURES));
    assert.ok(!readsMlp({ ...m, mean: [0, 0, Infinity] }, FEATURES));
    assert.ok(!readsMlp({ ...m, hidden: [] }, FEATURES));
    assert.ok(!readsMlp(undefined, FEATURES));
  });
});
