// Result names for the results-to-cite rankers: label words and titles, and the labels a
// statement \ref's.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { refsIn, resultName } from './resultNames.js';

describe('result names', () => {
  it('reads the words of a label without its kind prefix, and the title', () => {
    assert.equal(resultName('lemma-finite-length'), 'finite length');
    assert.equal(resultName('thm:heine-borel'), 'heine borel');
    assert.equal(resultName('lem:compactClosed', 'Compact subsets'), 'compact Closed Compact subsets');
    assert.equal(resultName('def_normal.subgroup'), 'normal subgroup');
    assert.equal(resultName('theorem'), '', 'a label that is only a kind word names nothing');
    assert.equal(resultName('algebra-lemma-snake'), 'algebra snake', 'kind segments are dropped anywhere (chapter-qualified Stacks labels)');
    assert.equal(resultName('lem3'), '', 'numbered kind words carry no content');
    assert.equal(resultName('lemmata-x'), 'lemmata x', 'a prefix is a whole segment');
    assert.equal(resultName(undefined, 'Nakayama'), 'Nakayama');
    assert.equal(resultName(undefined), '');
  });

  it('lists the labels a text \\ref\'s, comma lists split, once each', () => {
    assert.deepEqual(refsIn(String.raw`By Lemma \ref{lemma-a} and \cref{lemma-b, lemma-a}, see \eqref{eq:1} and \autoref{thm:x}; \ref*{c}.`), ['lemma-a', 'lemma-b', 'eq:1', 'thm:x', 'c']);
    assert.deepEqual(refsIn('no references'), []);
  });
});
