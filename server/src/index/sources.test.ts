import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hasSharedData, sharedData } from '../embeddings/testPaths.js';
import { loadProofWiki } from '../embeddings/data/proofwiki.js';
import { isProofWikiSitePage, readProofWiki } from './sources.js';

test('site pages are told from content pages by their namespace', () => {
  for (const t of ['User:Inconsistency/Sandbox', 'Talk:Euclid\'s Lemma', 'ProofWiki:Jokes', 'Draft:Group', 'User talk:Prime.mover']) assert.ok(isProofWikiSitePage(t), t);
  for (const t of ['Euclid\'s Lemma', 'Definition:Group', 'Axiom:Axiom of Choice', 'Greek Anthology Book XIV: Metrodorus: 1', 'B-Algebra Identity: x (y z) = z (y x)']) assert.ok(!isProofWikiSitePage(t), t);
});

describe('ProofWiki index source on the real pages', { skip: !hasSharedData && 'no ../shared/data' }, () => {
  test('user sandboxes and talk pages are not indexed; theorems are', () => {
    const sitePages = loadProofWiki(sharedData).filter((t) => isProofWikiSitePage(t.base)).length;
    assert.ok(sitePages > 100, `the scrape has site pages with a theorem and a proof: ${sitePages}`);
    const titles = readProofWiki(sharedData).map((r) => r.title);
    assert.deepEqual(titles.filter(isProofWikiSitePage), []);
    assert.ok(titles.includes('Euclid\'s Lemma'));
    assert.ok(titles.length > 30000, `${titles.length} statements and proofs`);
  });
});
