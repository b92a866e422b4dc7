// Which words a hover looks up as an ambiguous term: the longest listed phrase under the
// cursor, plural forms by their singular, and never a lone everyday word ("above", "left")
// unless it is marked as a term.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LatexDocument } from '../model/latexDocument.js';
import { termAt } from './indexFeatures.js';

const TERMS = new Set(['loop', 'above', 'left', 'vertex', 'family', 'left adjoint', 'normal']);
const isTerm = (t: string) => TERMS.has(t.toLowerCase());

function at(src: string): string | undefined {
  const offset = src.indexOf('|');
  const doc = new LatexDocument('file:///t.tex', src.replace('|', ''), 1);
  const hit = termAt(doc, offset, isTerm);
  return hit && `${hit.term}${hit.marked ? ' (marked)' : ''}`;
}

test('term under the cursor: longest phrase, plurals, prose words skipped unless marked', () => {
  assert.equal(at('Both lo|ops are based at $x$.'), 'loop');
  assert.equal(at('the ver|tices of $G$'), 'vertex');
  assert.equal(at('two famil|ies of sets'), 'family');
  assert.equal(at('By Lemma~\\ref{x} ab|ove, we have'), undefined);
  assert.equal(at('the le|ft side equals'), undefined);
  assert.equal(at('$F$ is a le|ft adjoint of $G$'), 'left adjoint');
  assert.equal(at('we call it \\emph{le|ft} here'), 'left (marked)');
  assert.equal(at('a nor|mal subgroup'), 'normal');
});
