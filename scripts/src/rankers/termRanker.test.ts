// The term ranker: title parsing, features read from a context, the softmax fit, and on the
// real MathD2 data, fitted on train and measured on a test split against title BM25 alone.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { MathTokenizer, EncoderSession } from 'mathsense-server/api/embeddings';
import { loadMathD2 } from '../data/mathd2.js';
import { fitSoftmaxRanker } from './softmaxFit.js';
import { contextWords, definedWords, termFeatures, TERM_FEATURES, termScores, titleParts, usableTermRanker } from 'mathsense-server/api/index';
import { rankerAccuracy, rankGroups, titleBm25, trainTermRanker } from './termFit.js';
import { dataDir, hasData, modelsDir } from '../testing/indexSlice.js';

describe('term ranker', () => {
  it('splits a title into its phrase, qualifier and sub-page', () => {
    assert.deepEqual(titleParts('Definition:Power of Element/Monoid'), { main: ['power', 'elemen'], qualifier: [], sub: ['monoid'] });
    assert.deepEqual(titleParts('Definition:Baire Space (Topology)'), { main: ['baire', 'space'], qualifier: ['topolo'], sub: [] });
  });

  it('reads the sense a definition names: phrase, field, structure, early mentions', () => {
    const ctx = contextWords('Let T = (S, τ) be a topological space. T is a Baire space if and only if the union of any countable set of closed sets of T whose interiors are empty also has an empty interior.');
    const topo = termFeatures(ctx, 'Baire Space', 'Definition:Baire Space (Topology)', 1);
    const sets = termFeatures(ctx, 'Baire Space', 'Definition:Baire Space (Set Theory)', 1);
    const f = (v: number[], name: string) => v[TERM_FEATURES.indexOf(name as typeof TERM_FEATURES[number])];
    assert.equal(topo.length, TERM_FEATURES.length);
    assert.equal(f(topo, 'qualifier'), 1);
    assert.equal(f(topo, 'qualifierEarly'), 1);
    assert.ok(f(sets, 'qualifier') < f(topo, 'qualifier'), 'only "set" of (Set Theory) is there');
    const monoid = contextWords('Let (S, ∘) be a monoid whose identity element is e. Let a ∈ S.');
    assert.equal(f(termFeatures(monoid, 'Power', 'Definition:Power of Element/Monoid', 1), 'subPage'), 1);
    assert.equal(f(termFeatures(monoid, 'Power', 'Definition:Power of Element/Group', 1), 'subPage'), 0);
    const graph = contextWords('A simple graph is a graph which is undirected and has no loops.');
    assert.equal(f(termFeatures(graph, 'Simple', 'Definition:Simple Graph', 1), 'titlePhrase'), 1);
    assert.equal(f(termFeatures(graph, 'Simple', 'Definition:Multigraph/Simple Edge', 1), 'titlePhrase'), 0);
  });

  it('finds the phrase a definition defines, and prefers the title that names it', () => {
    const defines = (text: string, has: string[], hasNot: string[] = []) => {
      const d = definedWords(text);
      for (const w of has) assert.ok(d.has(w), `${w} in ${[...d]}`);
      for (const w of hasNot) assert.ok(!d.has(w), `${w} not in ${[...d]}`);
    };
    defines('Let (S, ∘) be a monoid whose identity is e_S. An element x_R ∈ S is called a right inverse of x if and only if x ∘ x_R = e_S.', ['right', 'invers'], ['identi', 'monoid', 'called']);
    defines('Let K be a field. An algebraic closure of K is an algebraically closed algebraic field extension of K.', ['algebr', 'closur'], ['field']);
    defines('Then G is a connected graph if and only if every pair of vertices is connected.', ['connec', 'graph'], ['pair']);
    assert.equal(definedWords('Let f be a real function. Then $f$ is differentiable everywhere.').size, 0);
    const ctx = contextWords('Let (S, ∘) be a monoid whose identity is e_S. An element x_R ∈ S is called a right inverse of x if and only if x ∘ x_R = e_S.');
    const f = (title: string, name: string) => termFeatures(ctx, 'Right', title, 1)[TERM_FEATURES.indexOf(name as typeof TERM_FEATURES[number])];
    // "identity" is in the text, but it is not what the text defines
    assert.equal(f('Definition:Inverse (Abstract Algebra)/Right Inverse', 'definedCover'), 1);
    assert.equal(f('Definition:Identity (Abstract Algebra)/Right Identity', 'definedCover'), 0);
    assert.ok(f('Definition:Inverse (Abstract Algebra)/Right Inverse', 'definedPrecision') > 0);
    assert.equal(f('Definition:Identity (Abstract Algebra)/Right Identity', 'definedPrecision'), 0);
    assert.equal(f('Definition:Identity (Abstract Algebra)/Right Identity', 'nothingDefined'), 0);
    assert.equal(termFeatures(contextWords('No definition here.'), 'Right', 'Definition:Right Angle', 1)[TERM_FEATURES.indexOf('nothingDefined')], 1);
  });

  it('refuses a model fitted on other features (an index built before a feature change)', () => {
    const fitted = { features: [...TERM_FEATURES], weights: TERM_FEATURES.map(() => 1), trainedOn: 't', trainAccuracy: 1, groups: 1 };
    assert.equal(usableTermRanker(fitted), fitted);
    assert.equal(usableTermRanker({ ...fitted, features: fitted.features.slice(0, -1), weights: fitted.weights.slice(0, -1) }), undefined);
    assert.equal(usableTermRanker({ ...fitted, weights: [1] }), undefined);
    assert.equal(usableTermRanker({ ...fitted, weights: fitted.weights.map((w, i) => (i === 0 ? Number.NaN : w)) }), undefined);
    assert.equal(usableTermRanker(undefined), undefined);
  });

  it('fits a softmax ranker that separates what it can, deterministically', () => {
    const groups = Array.from({ length: 40 }, (_, i) => ({ gold: i % 3, x: [0, 1, 2].map((k) => [k === i % 3 ? 1 : 0, (i * 7 + k) % 5 / 5]) }));
    const fit = () => fitSoftmaxRanker(groups.map((g) => ({ x: g.x, gold: [g.gold] })), 2);
    const w1 = fit(), w2 = fit();
    assert.deepEqual(w1, w2);
    assert.ok(w1[0] > 1, `weight of the informative feature ${w1[0]}`);
    assert.equal(rankerAccuracy(w1, groups), 1);
  });

  it('fitted on MathD2 train, beats title BM25 on test_new_term', { skip: !hasData && 'shared data missing' }, async () => {
    const tok = MathTokenizer.load(path.join(modelsDir, 'tokenizer', 'vocab.json'));
    const model = await trainTermRanker(dataDir, tok);
    assert.deepEqual(model.features, [...TERM_FEATURES]);
    assert.ok(model.trainAccuracy > 0.85, `train accuracy ${model.trainAccuracy}`);
    const rows = loadMathD2(dataDir, 'test_new_term').map((r) => ({ term: r.term, title: r.title, context: r.definition }));
    const groups = rankGroups(rows, titleBm25(tok, rows));
    const bm25Only = TERM_FEATURES.map((f) => (f === 'bm25' ? 1 : 0));
    const ranker = rankerAccuracy(model.weights, groups), bm25 = rankerAccuracy(bm25Only, groups);
    assert.ok(ranker > bm25 + 0.03, `ranker ${ranker} vs title BM25 ${bm25}`);
  });

  it('adds the cosine only for the encoder its weight was fitted with', () => {
    const model = { features: ['a'], weights: [1], trainedOn: '', trainAccuracy: 1, groups: 1, cosine: { encoder: 'e1', scale: 2, weight: 10, groups: 1, accuracy: 1, accuracyWithout: 1 } };
    const rows = [[1], [0.5]];
    assert.deepEqual(termScores(model, rows), [1, 0.5]);
    assert.deepEqual(termScores(model, rows, [0.1, 0.4], 'e2'), [1, 0.5], 'another encoder: title features only');
    assert.deepEqual(termScores(model, rows, [0.1, 0.4], 'e1').map((v) => Math.round(v * 1000) / 1000), [-1, 1], '2·score + 10·(cos − best)');
  });

  it('fits the cosine weight on train terms the encoder never saw, where it adds to the title features', { skip: !hasData && 'shared data missing' }, async () => {
    const enc = await EncoderSession.load(modelsDir, { accelerator: 'cpu', threads: 1 });
    try {
      const model = await trainTermRanker(dataDir, enc.tokenizer, { embed: (t) => enc.embedTexts(t), version: enc.info.version });
      const c = model.cosine!;
      assert.equal(c.encoder, enc.info.version);
      assert.ok(c.groups > 400 && c.groups < model.groups, `fitted on the held-out half: ${c.groups} of ${model.groups}`);
      assert.ok(c.weight > 0.5, `cosine weight ${c.weight}`);
      assert.ok(c.accuracy > c.accuracyWithout, `with the cosine ${c.accuracy}, without ${c.accuracyWithout}`);
    } finally { await enc.release(); }
  });
});
