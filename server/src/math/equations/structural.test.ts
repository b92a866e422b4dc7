import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shapeFeatures, structuralSimilarity } from './structural.js';

test('structural: n-grams and the Dice similarity', () => {
  assert.deepEqual(shapeFeatures(['x', '+', 'y']), ['x', '+', 'y', 'x +', '+ y', 'x + y']);
  const a = shapeFeatures(['x', '^{', '2', '}', '+', 'y']);
  assert.equal(structuralSimilarity(a, a), 1);
  assert.equal(structuralSimilarity(a, []), 0);
  assert.equal(structuralSimilarity(['a'], ['b']), 0);
  const near = structuralSimilarity(a, shapeFeatures(['x', '^{', '2', '}', '-', 'y']));
  const far = structuralSimilarity(a, shapeFeatures(['\\sin', 'x']));
  assert.ok(near > 0.4 && near < 1 && far < near, `${near} ${far}`);
  assert.ok(shapeFeatures(new Array(1000).fill('x')).length <= 3 * 256);
});
