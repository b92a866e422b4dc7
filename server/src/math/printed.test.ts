// Numbers as printed: rounding units, roundings of computed values, tolerances of ≈ steps.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { isRounding, printedTolerance, printedUnit } from './printed.js';

test('the rounding unit of a printed number: its last decimal, or its last non-zero digit', () => {
  assert.equal(printedUnit('0.76'), 0.01);
  assert.equal(printedUnit('3142'), 1);
  assert.equal(printedUnit('3140'), 10);
  assert.equal(printedUnit('3000'), 1000);
  assert.equal(printedUnit('3000', 2), undefined);
  assert.equal(printedUnit('x + 1'), undefined);
});

test('a computed value printed to its figures is a rounding; an exact integer is not', () => {
  assert.ok(isRounding(1000 * Math.PI, '3142'));
  assert.ok(isRounding(5000 / 7, '714'));
  assert.ok(!isRounding(5000 / 7, '715'));
  assert.ok(!isRounding(1024, '1020'));
  // one figure says too little of what was rounded
  assert.ok(!isRounding(Math.sqrt(10), '3'));
});

test('the tolerance of a side carries half a unit of each printed operand through', () => {
  const value = (t: string): number => Number(Function(`return ${t.replace(/\\times/g, '*')}`)());
  assert.equal(printedTolerance('0.76', value), 0.005);
  assert.ok(Math.abs(printedTolerance('3 \\times 1.41', value)! - 0.015) < 1e-12);
  // a mantissa before a power of ten is rounded too; the power is not
  const sci = (t: string): number => value(t.replace(/\\times\s*10\^\{(\d+)\}/, '* 1e$1'));
  assert.ok(Math.abs(printedTolerance('1.36 \\times 10^{8}', sci)! - 0.005e8) < 1);
  assert.equal(printedTolerance('\\frac{3}{4}', value), undefined);
});
