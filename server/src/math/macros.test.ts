// The parser's macro table against ProofWiki's table for display: the same notation, read two ways.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { macroTable } from './macros.js';
import { PROOFWIKI_MACROS } from '../syntax/proofwikiMacros.js';

test('the parser reads ProofWiki\'s macros as they are shown, except \\ds, \\dd and \\norm', () => {
  const parse = macroTable([]);
  const differ = new Map<string, [string, string]>();
  let shared = 0;
  for (const d of PROOFWIKI_MACROS) {
    const p = parse.get(d.name);
    if (!p) continue;
    shared++;
    assert.equal(p.nargs, d.nargs, d.name);
    if (p.body !== d.body) differ.set(d.name, [p.body, d.body]);
  }
  assert.ok(shared >= 10, 'the tables share most of the parser\'s ProofWiki macros');
  // parse side first, display side second; each difference is on purpose (the parse side shapes
  // the equation fingerprints of the built index, the display side what BM25 and the encoder read)
  assert.deepEqual(Object.fromEntries(differ), {
    norm: ['\\left\\|#1\\right\\|', '\\left\\lVert #1\\right\\rVert'],
    ds: ['', '\\displaystyle'],
    dd: ['d', '\\mathrm{d}'],
  });
});
