// Offline parts of the proof ranker: streaming hub scores against brute force, and the fitting
// examples (the gold proof against the best others).
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { proofFeatureColumns } from 'mathsense-server/api/index';
import { seededRandom } from 'mathsense-server/api/util';
import { HubScores } from './hubScores.js';
import { proofGroup } from './proofFit.js';

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
  it('merged from shares of the background, equal what one pass over all of it keeps, to the bit', () => {
    const rnd = seededRandom(2);
    const n = 50, k = 4;
    const rows = Array.from({ length: 37 }, () => Array.from({ length: n }, () => Math.fround(rnd())));
    const skip = (i: number) => (j: number) => (i * 7 + j) % 11 === 0;
    const whole = new HubScores(n, k);
    rows.forEach((r, i) => whole.add(r, skip(i)));
    const a = new HubScores(n, k), b = new HubScores(n, k), c = new HubScores(n, k);
    rows.forEach((r, i) => [a, b, c][i % 3].add(r, skip(i)));
    a.merge(b.state());
    a.merge(c.state());
    assert.deepEqual([...a.means()], [...whole.means()]);
  });
  it('average what there is when fewer than k statements were seen, 0 when none', () => {
    const hub = new HubScores(2, 4);
    hub.add([1, 5], (j) => j === 1);
    hub.add([3, 5], (j) => j === 1);
    assert.deepEqual([...hub.means()], [2, 0]);
  });
});

describe('proof ranker fitting examples', () => {
  it('fits on the gold proof against the best others by the plain fusion', () => {
    const cols = proofFeatureColumns([5, 1, 4, 3], [0.5, 0.1, 0.4, 0.3], [0, 0, 0, 0], [0, 0, 0, 0]);
    const g = proofGroup(cols, 1, 2);
    assert.deepEqual(g.gold, [0]);
    assert.equal(g.x.length, 3);
    assert.deepEqual(g.x[0], cols.map((c) => c[1]));
    assert.deepEqual(g.x[1], cols.map((c) => c[0]), 'the best other first');
  });
});
