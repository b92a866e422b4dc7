import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hasSharedData, sharedData } from '../testing/paths.js';
import { loadProofWiki, type ProofWikiTheorem } from './proofwiki.js';
import { nearestCopies, proofWikiCitations, psHeldOutCopies } from './proofwikiLinks.js';

const thm = (base: string, proofs: string[] = []): ProofWikiTheorem =>
  ({ url: '', base, statement: `statement of ${base}`, proofs, heldOut: false });

test('a proof cites the theorems whose titles it spells out, the longest title at each word', () => {
  const all = [
    thm('Sum of Geometric Sequence'),
    thm('Sum of Infinite Geometric Sequence'),
    thm('Ratio Test', ['Ratio test again.']),
    thm('Pythagoras'),
    thm('Series Converges', ['By Sum of Infinite Geometric Sequence and the ratio test, done. Pythagoras.']),
  ];
  const cites = proofWikiCitations(all);
  assert.deepEqual(cites.get('Series Converges')!.map((t) => t.base), ['Sum of Infinite Geometric Sequence', 'Ratio Test'],
    'the longer title wins over the one it contains; case and punctuation do not matter; one-word titles are not links');
  assert.deepEqual(cites.get('Ratio Test')!, [], 'a page does not cite itself');
});

test('nearest copies: the text most like each held text, only above the threshold', () => {
  const texts = [
    'Let $G$ be a group. Then the identity of $G$ is unique.',
    'Let $G$ be a group. Then each element of $G$ has a unique inverse.',
    'Every bounded monotone sequence of real numbers converges.',
  ];
  const held = [
    'Let $G$ be a group. Then the identity element of $G$ is unique.',
    'A continuous function on a compact space attains its bounds.',
  ];
  assert.deepEqual(nearestCopies(texts, held, 0.6), [0, -1]);
  assert.deepEqual(nearestCopies(texts, held, 1), [-1, -1], 'no copy is exact');
});

test('PS held-out copies: pages equal to a dev/test statement and the nearest page to each other one, outside the test split', () => {
  const page = (base: string, statement: string, heldOut = false): ProofWikiTheorem => ({ url: '', base, statement, proofs: ['proof'], heldOut });
  const pages = [
    page('Identity Unique', 'Let $G$ be a group. Then the identity of $G$ is unique.'),
    page('Inverse Unique', 'Let $G$ be a group. Then each element of $G$ has a unique inverse.'),
    page('Monotone Convergence', 'Every bounded monotone sequence of real numbers converges.'),
    page('Compact Bounds', 'A continuous function on a compact space attains its bounds.', true),
  ];
  const held = [
    { text: 'Every bounded monotone sequence of real numbers converges.' }, // exact (by text key)
    { text: 'Let $G$ be a group. Then the identity element of $G$ is unique.' }, // near copy of the first
    { text: 'A continuous function on a compact space attains its bounds.' }, // its page is in the test split already
  ];
  assert.deepEqual([...psHeldOutCopies(pages, held)].map((t) => t.base).sort(), ['Identity Unique', 'Monotone Convergence']);
});

describe('ProofWiki citations on the real pages', { skip: !hasSharedData && 'no ../shared/data' }, () => {
  test('proofs name pages that exist', () => {
    const pw = loadProofWiki(sharedData);
    const some = pw.filter((t) => t.base === '1+1 = 2' || t.base === "Lagrange's Theorem (Group Theory)");
    assert.equal(some.length, 2);
    const cites = proofWikiCitations(pw, some);
    assert.ok(cites.get('1+1 = 2')!.some((t) => t.base === 'Equality is Transitive'));
    assert.ok(cites.get("Lagrange's Theorem (Group Theory)")!.some((t) => t.base === 'Orbit-Stabilizer Theorem'));
    const n = some.map((t) => cites.get(t.base)!.length);
    assert.ok(n.every((x) => x > 0 && x < 30), `a handful of citations each: ${n}`);
  });
});
