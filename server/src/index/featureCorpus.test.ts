// The in-memory equation corpus: its shape overlap read through postings (a library's) is the
// overlap its linear scan (a snapshot's) computes, equation for equation.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FeatureCorpus } from './featureCorpus.js';
import { TokenTable } from './equationRanking.js';
import { equationFeatures } from './equationFeatures.js';

test('postings and the scan give the same shape overlap', () => {
  const texts = ['(a+b)^2 = a^2 + 2ab + b^2', 'x^2 - 5x + 6 = 0', '\\sum_{k=1}^n k = \\frac{n(n+1)}{2}', 'e^{i\\theta} = \\cos\\theta + i\\sin\\theta', 'f(x) = \\lim_{n\\to\\infty} f_n(x)', '\\int_0^1 x\\,dx = \\frac12'];
  const feats = texts.map((t) => equationFeatures(t));
  const corpus = (postings: boolean) => { const table = new TokenTable(); return new FeatureCorpus(feats, [], table, (f) => table.codes(f.tokens, true), { postings }); };
  const scan = corpus(false), posted = corpus(true);
  for (const q of ['(x+y)^2 = x^2 + 2xy + y^2', '\\sum_{j=1}^m j = \\frac{m(m+1)}{2}', 'g(t) = \\lim_{k\\to\\infty} g_k(t)', 'nothing \\alike']) {
    const tokens = equationFeatures(q).tokens;
    const a = scan.shapeOverlap(tokens), b = posted.shapeOverlap(tokens);
    assert.deepEqual([...b].map((x) => x.toFixed(6)), [...a].map((x) => x.toFixed(6)), q);
  }
  assert.ok(Math.max(...scan.shapeOverlap(equationFeatures('(x+y)^2 = x^2 + 2xy + y^2').tokens)) > 0.5);
});
