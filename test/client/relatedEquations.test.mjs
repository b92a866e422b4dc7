// The client's view of related equations (client/src/relatedEquations.ts, compiled to
// client/out): panel items with display math, file:line or the ProofWiki page with its
// licence, score and why; the peek and the panel themselves run in VS Code (test/e2e).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'client', 'out');
const { relatedItems, relatedHeading, displayMath, isRelatedResponse } = require(path.join(out, 'relatedEquations.js'));

const response = {
  query: { latex: '(a+b)^2 = a^2 + 2ab + b^2', uri: 'file:///w/chapters/algebra.tex', line: 3, label: 'eq:binomial-square' },
  results: [
    { latex: '(x+y)^2 = x^2 + 2xy + y^2', display: '(x+y)^2 = x^2 + 2xy + y^2', score: 0.964, why: { fingerprint: 'identity', structure: 0.92 }, source: 'workspace', same: true, uri: 'file:///w/chapters/analysis.tex', line: 3, label: 'eq:square-of-sum', range: { start: { line: 2, character: 0 }, end: { line: 4, character: 14 } } },
    { latex: '\\paren {a + b}^2 = a^2 + 2 a b + b^2', display: '{\\left(a + b\\right)}^2 = a^2 + 2 a b + b^2', score: 0.93, why: { fingerprint: 'identity', encoder: 0.97, structure: 0.8 }, source: 'index', title: 'Square of Sum', url: 'https://proofwiki.org/wiki/Square_of_Sum', licence: 'CC BY-SA 3.0, ProofWiki contributors' },
    { latex: 'a^2 - b^2 &= (a-b)(a+b) \\\\\n x &= 1', score: 0.2, why: { structure: 0.44 }, source: 'workspace', uri: 'file:///w/a.tex', line: 7 },
    { latex: 'x_a^2 = (x_b + x_a)x_a + c', score: 0.82, why: { fingerprint: 'equation', structure: 0.3 }, source: 'workspace', uri: 'file:///w/b.tex', line: 9, copies: [{ uri: 'file:///w/old/b.tex', line: 9 }] },
    { latex: '(a+b)^2 = a^2 + 2ab + b^2', score: 1, why: { fingerprint: 'identity', structure: 1 }, source: 'workspace', same: true, copy: true, uri: 'file:///w/slides/algebra.tex', line: 5 },
    { latex: '\\sq{(u+v)} = \\sq{u} + 2uv + \\sq{v}', display: '{(u+v)}^{2} = {u}^{2} + 2uv + {v}^{2}', score: 0.9, why: { fingerprint: 'identity', structure: 0.7 }, source: 'library', same: true, uri: 'file:///papers/p/main.tex', file: '/papers/p/main.tex', line: 7, range: { start: { line: 6, character: 0 }, end: { line: 6, character: 0 } }, title: 'Equation (2.1)', paper: 'Squares of sums', cite: { folder: '/papers', paper: 'p/main.tex', file: 'p/main.tex', line: 7 } },
  ],
  encoder: true,
  pending: 0,
};

test('related equations: panel items show where, the rendered equation, score and why', () => {
  assert.ok(isRelatedResponse(response) && !isRelatedResponse({ results: [] }) && !isRelatedResponse(undefined));
  const items = relatedItems(response, (uri, line) => `${uri.replace('file:///w/', '')}:${line}`);
  assert.equal(items.length, 6);
  assert.deepEqual(items[0], {
    title: 'chapters/analysis.tex:3 · eq:square-of-sum', latex: '\\[(x+y)^2 = x^2 + 2xy + y^2\\]',
    detail: 'score 0.96 · same identity · structure 0.92', uri: 'file:///w/chapters/analysis.tex', range: response.results[0].range, score: 0.964,
  });
  // an index hit: its page and licence, the macros expanded by the server for KaTeX
  assert.equal(items[1].title, 'Square of Sum');
  assert.equal(items[1].url, 'https://proofwiki.org/wiki/Square_of_Sum');
  assert.equal(items[1].latex, '\\[{\\left(a + b\\right)}^2 = a^2 + 2 a b + b^2\\]');
  // an index hit with the same fingerprint that the server did not confirm is not "the same"
  assert.equal(items[1].detail, 'score 0.93 · equivalent form (unconfirmed) · encoder 0.97 · structure 0.80 · CC BY-SA 3.0, ProofWiki contributors');
  // identical displays in copies of a file: once, the copies named; the query's own copy labelled
  assert.equal(items[3].detail, 'score 0.82 · equivalent form (unconfirmed) · structure 0.30 · also in old/b.tex:9');
  assert.equal(items[4].title, 'copy: slides/algebra.tex:5');
  // a library display: named as its paper prints it, opened at its line, with what citing it needs
  assert.deepEqual(items[5], {
    title: 'Equation (2.1) · Squares of sums', latex: '\\[{(u+v)}^{2} = {u}^{2} + 2uv + {v}^{2}\\]', detail: 'score 0.90 · same identity · structure 0.70 · your library · main.tex:7',
    uri: 'file:///papers/p/main.tex', range: response.results[5].range, cite: response.results[5].cite, score: 0.9,
  });
  // rows and alignment marks render as an aligned block
  assert.equal(items[2].latex, '\\[\\begin{aligned}a^2 - b^2 &= (a-b)(a+b) \\\\\n x &= 1\\end{aligned}\\]');
  assert.equal(relatedHeading(response), 'Related equations: eq:binomial-square');
  const unlabelled = { ...response, query: { latex: '(x+y)^2 &= x^2 + 2xy + y^2 \\\\ &= x^2 + xy + y^2', uri: 'file:///w/results.tex', line: 13 } };
  assert.equal(relatedHeading(unlabelled, (uri, line) => `${uri.replace('file:///w/', '')}:${line}`), 'Related equations: results.tex:13');
  assert.equal(relatedHeading({ ...response, query: { latex: 'x'.repeat(80) } }), `Related equations: ${'x'.repeat(59)}…`);
  assert.equal(displayMath('x = 1 \\label{eq:x}\\nonumber'), '\\[x = 1\\]');
});

test('search pick list: a workspace statement reads by its own name first, its kind in the description', () => {
  const { pickText } = require(path.join(out, 'searchLabels.js'));
  assert.deepEqual(pickText({ source: 'workspace', title: "Theorem (Lagrange's theorem)", detail: 'groups.tex:834', latex: '', score: 1 }), { label: "$(file) Lagrange's theorem", description: 'Theorem · groups.tex:834' });
  assert.deepEqual(pickText({ source: 'workspace', title: 'Lemma', detail: 'a.tex:3', latex: '', score: 1 }), { label: '$(file) Lemma', description: 'a.tex:3' });
  assert.deepEqual(pickText({ source: 'index', title: "Lagrange's theorem", detail: 'PlanetMath', latex: '', score: 1 }), { label: "$(book) Lagrange's theorem", description: 'PlanetMath' });
});
