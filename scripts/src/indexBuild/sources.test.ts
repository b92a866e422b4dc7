import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hasSharedData, sharedData } from '../testing/paths.js';
import { loadProofWiki } from '../data/proofwiki.js';
import { isProofWikiSitePage, latexBalanced, PlanetMathTitles, readPlanetMath, readProofWiki } from './sources.js';

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

  test('BM25 and the encoder read ProofWiki\'s macros written out; the stored text keeps them (expanded when shown)', () => {
    const raw = readProofWiki(sharedData, { slice: 400 });
    const expanded = readProofWiki(sharedData, { slice: 400, expandProofWikiMacros: true });
    assert.ok(raw.every((r) => r.tokenText === undefined));
    const i = raw.findIndex((r) => /\\map\s*\{/.test(r.text));
    assert.ok(i >= 0, 'a page of the slice uses \\map');
    assert.equal(expanded[i].text, raw[i].text);
    assert.doesNotMatch(expanded[i].tokenText!, /\\map\s*\{/);
  });
});

test('PlanetMath titles cut at their first } are completed from the canonical name', () => {
  const titles = new PlanetMathTitles([
    'By \\PMlinkname{$\\mathbb{C}$ is not an ordered field}{X}, fine.',
    'In $\\mathbb{R}^n$ and $\\mathbb{R}^n$, but once $\\mathbb{R}^2$. The theorem of Rado and Erd\\H{o}s has a proof.',
  ]);
  // a phrase of the bodies spells the whole name
  assert.equal(titles.repair('$\\mathbb{C', 'mathbbCIsNotAnOrderedField'), '$\\mathbb{C}$ is not an ordered field');
  // the group is closed the way the bodies continue it, the rest of the name becomes words
  assert.equal(titles.repair('lattice in $\\mathbb{R', 'LatticeInmathbbRn'), 'lattice in $\\mathbb{R}^n$');
  assert.equal(titles.repair('Erd\\H{o', 'ErdHosRadoTheorem'), 'Erd\\H{o}s Rado theorem');
  assert.equal(titles.repair('Schr\\"{o', 'SchroderBernsteinTheoremProof'), 'Schr\\"{o}der Bernstein theorem proof');
  // what is lost inside math is marked, not guessed
  assert.equal(titles.repair('$\\mathrm{lcm', 'mathrmlcmmambmmathrmlcmab'), '$\\mathrm{lcm}\\dots$');
  // whole titles are left alone
  assert.equal(titles.repair('Schr\\"{o}der', 'Schroder'), 'Schr\\"{o}der');
  assert.ok(latexBalanced('$\\{x\\}$') && !latexBalanced('${k') && !latexBalanced('a}{b'));
});

describe('PlanetMath index source on the real entries', { skip: !hasSharedData && 'no ../shared/data' }, () => {
  test('no title is cut inside a group; accents are letters', () => {
    const titles = readPlanetMath(sharedData).map((r) => r.title);
    assert.deepEqual(titles.filter((t) => !latexBalanced(t) || /\\["'`^~]\{?[A-Za-z]|\\[Hcv]\{[A-Za-z]\}/.test(t)), []);
    for (const t of ['Schröder Bernstein theorem proof', 'Erdős-Rado theorem', '$\\mathbb{C}$ is not an ordered field', 'Gödel\'s $\\beta$ function', 'Jan Łukasiewicz', 'lattice in $\\mathbb{R}^n$']) {
      assert.ok(titles.includes(t), t);
    }
  });
});
