import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { clusterAccuracy, kmeans } from './clustering.js';
import { seededRandom } from 'mathsense-server/api/util';

test('cluster accuracy: label names do not matter, over- and under-splitting cost', () => {
  assert.equal(clusterAccuracy([5, 5, 7, 7], [0, 0, 1, 1]), 1);
  assert.equal(clusterAccuracy([1, 1, 1, 1], [0, 0, 1, 1]), 0.5);
  assert.equal(clusterAccuracy([0, 1, 2, 3], [0, 0, 1, 1]), 0.5);
  assert.equal(clusterAccuracy([0, 0, 1, 0], [0, 0, 1, 1]), 0.75);
});

test('k-means recovers well separated directions and is reproducible', () => {
  const rnd = seededRandom(3);
  const centres = Array.from({ length: 6 }, () => Float32Array.from({ length: 16 }, () => rnd() - 0.5));
  const gold: number[] = [];
  const xs: Float32Array[] = [];
  centres.forEach((c, k) => { for (let i = 0; i < 10; i++) { gold.push(k); xs.push(c.map((x) => x + 0.05 * (rnd() - 0.5))); } });
  const a = kmeans(xs, 6, seededRandom(1));
  assert.equal(clusterAccuracy(a, gold), 1);
  assert.deepEqual(kmeans(xs, 6, seededRandom(1)), a);
});
