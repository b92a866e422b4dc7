// Prefix notation on real E-Gen lines: every line parses; lines print back unchanged except
// E-Gen's derivatives with respect to an expression (`d sin asin x f`), which become a quotient.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePrefix, toPrefix } from './prefix.js';
import { egenDir, readEgenClusters } from './egenClusters.js';
import { sharedData } from '../../testing/paths.js';
import { freeVars, op, num } from '../expr.js';

const DIR = egenDir(sharedData);
const SKIP = fs.existsSync(DIR) ? false : 'E-Gen data not found';

/** A `d` whose next token is not a variable. */
const D_OF_EXPRESSION = /(^| )d (?![a-z]( |$))/;

for (const file of ['op_2.txt', 'op_d_2.txt', 'poly_5.txt', 'poly_d_5.txt']) {
  test(`prefix: every line of ${file} parses and prints back`, { skip: SKIP }, () => {
    let lines = 0;
    let quotients = 0;
    for (const cluster of readEgenClusters(path.join(DIR, file))) {
      for (const l of cluster) {
        lines++;
        const e = parsePrefix(l);
        assert.ok(freeVars(e).size <= 1, l);
        if (D_OF_EXPRESSION.test(l)) { quotients++; assert.equal(e.k === 'op' || e.k === 'D', true); continue; }
        assert.equal(toPrefix(e), l);
      }
    }
    assert.ok(lines > 1000);
    assert.ok(quotients < lines * 0.15, `${quotients} of ${lines}`);
  });
}

test('prefix: structure of a few lines', () => {
  assert.deepEqual(parsePrefix('+ pow x 3 5'), op('add', op('pow', { k: 'var', name: 'x' }, num(3)), num(5)));
  assert.deepEqual(parsePrefix('d x ln x'), { k: 'D', v: 'x', body: op('ln', { k: 'var', name: 'x' }) });
  assert.deepEqual(parsePrefix('* pi -0.5'), op('mul', num(Math.PI), num(-0.5)));
  const q = parsePrefix('d sin asin x * acos x -1');
  assert.equal(q.k === 'op' && q.op, 'div');
  assert.equal(toPrefix(parsePrefix('* -0.00000006705522537231445 x')), '* -0.00000006705522537231445 x');
});

test('prefix: n-ary sums nest to the left, negation is a product with -1; what E-Gen cannot write throws', () => {
  const x = { k: 'var', name: 'x' } as const;
  assert.equal(toPrefix(op('add', x, num(1), num(2))), '+ + x 1 2');
  assert.equal(toPrefix(op('neg', x)), '* -1 x');
  assert.throws(() => toPrefix(op('binom', x, num(2))));
  assert.throws(() => parsePrefix('+ x'));
  assert.throws(() => parsePrefix('x x'));
  assert.throws(() => parsePrefix('foo x'));
});
