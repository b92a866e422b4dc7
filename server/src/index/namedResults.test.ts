// Results found by name: how names are normalised (accents either way, TeX escapes,
// possessives, dashes), a person's result found inside a longer description, and, on the built
// index (build/index, `npm run setup`), the names that users write for indexed results.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { aliasKeys, described, isNameQuery, nameKey, nameKeys, namedIds, plainName } from './namedResults.js';
import { LoadedIndex } from './store.js';
import { candidateProofs, QUERY_TOKENS, search } from './retrieval.js';
import { MathTokenizer } from '../embeddings/tokenizer.js';
import { loadEncoderFiles } from '../embeddings/modelFiles.js';
import { EncoderSession } from '../embeddings/encoderSession.js';
import { byResult } from '../features/index/candidateProofs.js';
import { modelsDir, repoRoot } from '../testing/modelPaths.js';

describe('result names', () => {
  it('accents written in TeX or Unicode, TeX letters, quotes and dashes read alike', () => {
    for (const s of ["Poincar\\'e", "Poincar\\'{e}", "Poincar{\\'e}", 'Poincaré', 'Poincare\u0301']) assert.equal(plainName(s), 'Poincare', s);
    assert.equal(plainName('G\\"odel'), 'Godel');
    assert.equal(plainName('G\\"{o}del'), 'Godel');
    assert.equal(plainName('Ces\\`aro'), 'Cesaro');
    assert.equal(plainName('\\v{C}ech'), 'Cech');
    assert.equal(plainName('Erd\\H{o}s'), 'Erdos');
    assert.equal(plainName('Fr\\\'echet--Riesz'), 'Frechet-Riesz');
    assert.equal(plainName('Gau\\ss'), 'Gauss');
    assert.equal(plainName('Gauß'), 'Gauss');
    assert.equal(plainName('\\L{}ojasiewicz'), 'Lojasiewicz');
    assert.equal(plainName('Łojasiewicz'), 'Lojasiewicz');
    assert.equal(plainName('Stokes\u2019 theorem'), "Stokes' theorem");
  });

  it('keys: case, possessives, dashes and generic last words do not matter', () => {
    assert.equal(nameKey("Picard's Existence Theorem"), 'picard existence theorem');
    assert.equal(nameKey('Picard’s existence theorem'), 'picard existence theorem');
    assert.equal(nameKey("Stokes' Theorem"), nameKey("Stokes's theorem"));
    assert.equal(nameKey('Heine--Borel'), 'heine borel');
    assert.equal(nameKey("Poincar\\'e Lemma"), nameKey('Poincaré lemma'));
    assert.equal(nameKey('proof of Poincaré lemma'), 'poincare lemma');
    assert.equal(nameKey("Fermat's Little Theorem (Proof 3)"), 'fermat little theorem');
    assert.deepEqual(nameKeys('Heine--Borel Theorem'), ['heine borel theorem', 'heine borel']);
  });

  it('the other names a title answers to', () => {
    assert.deepEqual(aliasKeys('First Sylow Theorem'), ['sylow theorem', 'sylow']);
    assert.deepEqual(aliasKeys('Cauchy-Bunyakovsky-Schwarz Inequality'), ['cauchy bunyakovsky schwarz', 'cauchy schwarz', 'cauchy schwarz inequality']);
    assert.deepEqual(aliasKeys('Cauchy-Schwarz Inequality/Complex Numbers'), ['cauchy schwarz inequality', 'cauchy schwarz']);
    assert.deepEqual(aliasKeys('Heine-Borel Theorem/Lemma 2'), []);
    assert.deepEqual(aliasKeys('Lagrange\'s Theorem (Group Theory)'), []);
  });

  it('a person\'s result inside a longer description; never a different result of the same person', () => {
    const personal = new Map([
      ['picard', [{ id: 1, words: ['picard', 'existence'], qualifier: [] }]],
      ['euler', [{ id: 2, words: ['euler'], qualifier: [] }]],
      ['cauchy', [{ id: 3, words: ['cauchy'], qualifier: ['group', 'theory'] }, { id: 4, words: ['cauchy'], qualifier: ['number', 'theory'] }]],
      ['heine', [{ id: 5, words: ['heine', 'borel'], qualifier: [] }]],
    ]);
    assert.deepEqual(described(personal, "Picard's theorem on existence and uniqueness"), [1]);
    assert.deepEqual(described(personal, 'Picard’s theorem on existence and uniqueness of solutions'), [1]);
    assert.deepEqual(described(personal, "Picard's theorem"), [], 'the great and little Picard theorems are other results');
    assert.deepEqual(described(personal, "Euler's theorem on homogeneous functions"), [], 'not the number theory one');
    assert.deepEqual(described(personal, "Cauchy's theorem for finite groups"), [3]);
    assert.deepEqual(described(personal, 'Heine--Borel theorem for the real line'), [5]);
    assert.deepEqual(described(personal, 'existence and uniqueness theorem of Picard'), [], 'the name must start with the person');
  });
});

const indexDir = path.join(repoRoot, 'build', 'index');
const built = fs.existsSync(path.join(indexDir, 'index.json'));

describe('named results on the built index', { skip: !built && 'build/index missing (npm run setup)' }, () => {
  const index = built ? LoadedIndex.load(indexDir) : undefined!;
  const tok = built ? MathTokenizer.load(loadEncoderFiles(modelsDir, { verifyHash: false }).vocabPath) : undefined!;
  const title = (id: number) => index.entry(id).title;

  it('names as authors write them find the indexed result', () => {
    const picard = [...namedIds(index, "Picard's theorem on existence and uniqueness", 'statement').keys()].map(title);
    assert.deepEqual(picard, ["Picard's Existence Theorem"]);
    const proofs = [...namedIds(index, "Picard's theorem on existence and uniqueness", 'proof').keys()].map(title).sort();
    assert.deepEqual(proofs, [1, 2, 3, 4].map((n) => `Picard's Existence Theorem (Proof ${n})`));
    assert.ok([...namedIds(index, "Poincar\\'e Lemma", 'statement').keys()].map(title).includes('Poincaré lemma'));
    assert.ok([...namedIds(index, "Poincar\\'e Lemma", 'proof').keys()].map(title).includes('proof of Poincaré lemma'));
    assert.ok([...namedIds(index, 'Heine--Borel', 'statement').keys()].map(title).some((t) => /^Heine-Borel theorem$/i.test(t)));
  });

  it('other names of a title: a chain of names shortened, a numbered result unnumbered, a page for a setting (issue 36)', () => {
    const named = (name: string) => [...namedIds(index, name, 'statement').keys()].map(title);
    // ProofWiki calls it Cauchy-Bunyakovsky-Schwarz, and states it per setting
    assert.ok(named('Cauchy-Schwarz').some((t) => t.startsWith('Cauchy-Bunyakovsky-Schwarz Inequality/')), named('Cauchy-Schwarz').join('; '));
    assert.ok(named('Cauchy–Schwarz inequality').some((t) => t === 'Cauchy-Schwarz Inequality/Complex Numbers'));
    // a person's numbered results, all of them, by the person's name
    assert.ok(named('Sylow').includes('First Sylow Theorem'), named('Sylow').join('; '));
    assert.ok(named('Bolzano--Weierstra\\ss').some((t) => /^Bolzano-Weierstrass Theorem$/i.test(t)));
    // a lemma of a page is another result
    assert.ok(!named('Bolzano-Weierstrass').includes('Bolzano-Weierstrass Theorem/Lemma 2'));
  });

  it('a name typed alone (a search box) finds what it names, whatever the text around it says', async () => {
    const first = async (name: string) => search(index, await query(name), 'statement', { limit: 10, name, nameOnly: isNameQuery(name) }).filter((r) => r.named).map((r) => r.entry.title);
    assert.ok((await first('Bolzano–Weierstraß')).some((t) => /^Bolzano-Weierstrass Theorem$/i.test(t)));
    assert.ok((await first('Sylow')).includes('First Sylow Theorem'));
    assert.equal(isNameQuery('x^2 + y^2 = 1'), false);
  });

  let encoder: EncoderSession | undefined;
  before(async () => { encoder = await EncoderSession.load(modelsDir); });
  after(async () => { await encoder?.release(); });
  /** A query as the server makes it: tokens and the encoder's vector. */
  const query = async (text: string) => ({ ids: tok.encode(text, { maxTokens: QUERY_TOKENS }), vec: (await encoder!.embedTexts([text]))[0], text });

  it('candidate proofs: the named result first, one entry per result, its proofs grouped', async () => {
    const picard = 'Let $I, J \\subset \\mathbb{R}$ be compact intervals, $x_0$ in the interior of $I$ and $y_0$ in the interior of $J$. Suppose $F \\colon I \\times J \\to \\mathbb{R}$ is continuous and Lipschitz in the second variable. Then there exists an $h > 0$ and a unique differentiable function $f$ on $[x_0 - h, x_0 + h]$ such that $f\'(x) = F(x, f(x))$ and $f(x_0) = y_0$.';
    const r = candidateProofs(index, await query(picard), { limit: 10, name: "Picard's theorem on existence and uniqueness" });
    const groups = byResult(index, r);
    assert.ok(r[0].named);
    assert.equal(groups[0].statement?.title, "Picard's Existence Theorem");
    assert.equal(groups[0].proofs.length, 4);
    assert.equal(new Set(groups.map((g) => g.statement?.id ?? g.proofs[0].id)).size, groups.length, 'no result twice');
  });

  it('a name is trusted only where the named result says something like the statement', async () => {
    const first = async (name: string, text: string) => candidateProofs(index, await query(text), { limit: 3, name })[0];
    const powerSet = await first('Cantor', 'Let $A$ be a set. There is no surjection from $A$ onto its power set $\\mathcal{P}(A)$, so $|A| < |\\mathcal{P}(A)|$.');
    assert.ok(powerSet.named && /^Cantor's Theorem/i.test(powerSet.entry.title), powerSet.entry.title);
    const reals = await first('Cantor', 'The set of real numbers $\\mathbb{R}$ is uncountable.');
    assert.ok(!reals.named, `the uncountability of the reals is not Cantor's theorem: ${reals.entry.title}`);
    const kl = await first('Chain rule', 'For probability measures $\\mu, \\nu$ on $\\mathcal{X} \\times \\mathcal{Y}$, $\\mathrm{KL}(\\mu, \\nu) = \\mathrm{KL}(\\mu_X, \\nu_X) + \\mathrm{KL}(\\mu_{Y|X}, \\nu_{Y|X} \\mid \\mu_X)$, the conditional divergence of the kernels.');
    assert.ok(!kl.named, `the chain rule of divergences is not the chain rule of calculus: ${kl.entry.title}`);
    const calculus = await first('Chain rule', 'Suppose $g$ is differentiable at $c$ and $f$ is differentiable at $g(c)$. Then $h = f \\circ g$ is differentiable at $c$ and $h\'(c) = f\'(g(c)) g\'(c)$.');
    assert.ok(calculus.named, calculus.entry.title);
  });
});
