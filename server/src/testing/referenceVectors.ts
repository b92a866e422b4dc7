// How close a shipped encoder must come to the vectors PyTorch computed at export time
// (reference.json). Float weights reproduce them up to rounding. Int8 weights
// (models/training/quantize.py) move each vector slightly, so they are held to the cosine and
// largest-component bounds quantization keeps, measured when the models were quantized.
import * as assert from 'node:assert/strict';

export const FLOAT_MAX_DIFF = 1e-4;
export const INT8_MIN_COSINE = 0.9995;
export const INT8_MAX_DIFF = 0.005;

export function assertReproduces(weights: string | undefined, expected: readonly number[], got: Float32Array, what: string): void {
  assert.equal(got.length, expected.length, `${what}: dimension`);
  const maxDiff = Math.max(...expected.map((x, i) => Math.abs(x - got[i])));
  if (!weights || !/int8/.test(weights)) {
    assert.ok(maxDiff < FLOAT_MAX_DIFF, `${what}: max difference ${maxDiff}`);
    return;
  }
  let dot = 0, na = 0, nb = 0;
  expected.forEach((x, i) => { dot += x * got[i]; na += x * x; nb += got[i] * got[i]; });
  const cosine = dot / Math.sqrt(na * nb);
  assert.ok(cosine >= INT8_MIN_COSINE, `${what}: cosine ${cosine} to the float reference`);
  assert.ok(maxDiff < INT8_MAX_DIFF, `${what}: max difference ${maxDiff} to the float reference`);
}
