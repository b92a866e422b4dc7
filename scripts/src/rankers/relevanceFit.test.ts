// The relevance model's fitting (relevanceFit.ts): the logistic fit finds the signal and not the
// noise, Platt scaling repairs a model that is over-confident, the threshold keeps the precision
// asked for, and the reliability table counts what it says.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { seededRandom } from 'mathsense-server/api/util';
import { logisticProbability } from 'mathsense-server/api/index';
import { calibrate, fitLogistic, logit, reliability, scores, thresholdFor, type Example } from './relevanceFit.js';

/** The probability as the server reads a fitted model (index/relevance.ts). */
const probability = logisticProbability;

/** y = 1 with probability sigmoid(3·x0 − 1); x1 is noise. */
function examples(n: number, seed: number): Example[] {
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const x = [rnd() * 4 - 2, rnd() * 4 - 2];
    const p = 1 / (1 + Math.exp(-(3 * x[0] - 1)));
    return { x, y: rnd() < p ? 1 : 0 };
  });
}

test('the logistic fit recovers the signal\'s weight and leaves the noise near zero', () => {
  const l = fitLogistic(examples(4000, 1), 1e-3);
  assert.ok(Math.abs(l.weights[0] - 3) < 0.4, `signal weight ${l.weights[0]}`);
  assert.ok(Math.abs(l.weights[1]) < 0.2, `noise weight ${l.weights[1]}`);
  assert.ok(Math.abs(l.bias + 1) < 0.3, `bias ${l.bias}`);
});

test('Platt scaling brings an over-confident model back to the observed rates', () => {
  const fit = fitLogistic(examples(4000, 2), 1e-3);
  const loud = { ...fit, weights: fit.weights.map((w) => w * 4), bias: fit.bias * 4 };
  const held = examples(4000, 3);
  const ys = held.map((e) => e.y);
  const before = scores(held.map((e) => probability(loud, e.x)), ys);
  const cal = calibrate(loud, examples(4000, 4));
  const after = scores(held.map((e) => probability(cal, e.x)), ys);
  assert.ok(after.logLoss < before.logLoss - 0.05, `log loss ${before.logLoss} -> ${after.logLoss}`);
  // the server's probability is the Platt transform of the fitter's score
  assert.equal(logisticProbability(cal, held[0].x).toFixed(12), (1 / (1 + Math.exp(-(cal.platt.a * logit(cal, held[0].x) + cal.platt.c)))).toFixed(12));
  for (const bin of reliability(held.map((e) => probability(cal, e.x)), ys)) {
    if (bin.n >= 200) assert.ok(Math.abs(bin.predicted - bin.observed) < 0.08, `bin ${bin.bin}: predicted ${bin.predicted}, observed ${bin.observed}`);
  }
});

test('the threshold is the lowest that keeps the precision asked for; 1 when none does', () => {
  const ps = [0.1, 0.2, 0.3, 0.6, 0.7, 0.9, 0.95];
  const ys = [0, 0, 1, 0, 1, 1, 1];
  const many = (xs: number[]) => xs.flatMap((x) => Array(10).fill(x));
  assert.equal(thresholdFor(many(ps), many(ys), 0.75), 0.25, 'from 0.25: 4 of 5 relevant');
  assert.equal(thresholdFor(many(ps), many(ys), 0.9), 0.65, 'from 0.35: 3 of 4; from 0.65: 3 of 3');
  assert.equal(thresholdFor(many(ps), many(ys.map(() => 0)), 0.5), 1);
});

test('the reliability table puts each probability in one bin and counts it', () => {
  const r = reliability([0.05, 0.15, 0.95, 1], [0, 1, 1, 1]);
  assert.equal(r.length, 10);
  assert.equal(r.reduce((a, b) => a + b.n, 0), 4);
  assert.deepEqual(r[9], { bin: '0.9–1.0', n: 2, predicted: 0.975, observed: 1 });
});
