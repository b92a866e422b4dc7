// The index on a slice of the real data: build, format, load, hybrid search (BM25 identical to
// embeddings/bm25.ts), candidate proofs, disambiguation, reference recovery, and the clear
// errors for a missing or corrupt index.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Bm25Index, EncoderSession, MathTokenizer } from 'mathsense-server/api/embeddings';
import { FILES, IndexError, headerPath, LoadedIndex, candidateProofs, citationsOf, citerMatch, disambiguate, search, suggestCitations, timesCited, QUERY_TOKENS, TERM_FEATURES, featureRows, titleText, recoverReferences, titleTable, indexProofRanker, expandProofWikiMacros, namedIds, prepareNames, ENTRY_KINDS } from 'mathsense-server/api/index';
import { buildIndex } from './builder.js';
import { computeHubs, computeHubsInWorkers, hubBackground } from './hubs.js';
import * as os from 'node:os';
import { buildSlice, dataDir, hasData, modelsDir } from '../testing/indexSlice.js';

describe('reference recovery', () => {
  const titles = titleTable([['Sum of Infinite Geometric Sequence', 1], ['Definition:Convergent Sequence', 2], ["Cauchy's Theorem", 3], ['Euclid\'s Lemma', 4]]);
  it('links cue phrases to page titles', () => {
    const refs = recoverReferences('By Sum of Infinite Geometric Sequence:\n\n$x = 1$. From Definition of Convergent Sequence, it follows. Applying Cauchy\'s Theorem: done.', titles);
    assert.deepEqual(refs.map((r) => r.target), [1, 2, 3]);
  });
  it('splits "X and Y", ignores unknown phrases and the page itself', () => {
    assert.deepEqual(recoverReferences("By Euclid's Lemma and Cauchy's Theorem:", titles).map((r) => r.target), [4, 3]);
    assert.deepEqual(recoverReferences('By hypothesis, $x > 0$. By inspection:', titles), []);
    assert.deepEqual(recoverReferences('By Sum of Infinite Geometric Sequence:', titles, 1), []);
  });
});

describe('index on a slice of the shared data', { skip: !hasData && 'shared data or models missing', timeout: 600_000 }, () => {
  let dir: string;
  let tmp: string;
  let index: LoadedIndex;
  let enc: EncoderSession;
  let tok: MathTokenizer;

  before(async () => {
    const r = await buildSlice(40);
    dir = r.dir; tmp = r.tmp;
    index = LoadedIndex.load(dir);
    enc = await EncoderSession.load(modelsDir, { accelerator: 'cpu', threads: 1 });
    tok = enc.tokenizer;
  });
  after(async () => { await enc?.release(); if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

  it('writes the header with model version, licence and attribution, and loads fast', () => {
    const h = index.header;
    assert.equal(h.modelVersion, enc.info.version);
    assert.match(h.licence, /CC BY-SA 3\.0/);
    assert.deepEqual(h.sources.map((s) => s.id), ['proofwiki', 'mathd2', 'planetmath']);
    for (const s of h.sources) { assert.ok(s.licence && s.attribution, s.id); assert.ok(s.entries > 0, s.id); }
    assert.ok(index.loadMs < 1000, `loaded in ${index.loadMs} ms`);
    assert.ok(Object.keys(h.terms).length > 0);
    assert.equal(h.proofwikiMacrosExpanded, true, 'BM25 and the encoder read ProofWiki\'s macros written out');
    for (const f of Object.values(FILES)) assert.ok(fs.existsSync(path.join(dir, f)), f);
  });

  it('keys titles by name at build (names.json); a file cut short is said, and names are keyed at run time alike', async () => {
    const h = index.header.names!;
    assert.ok(h, 'the header lists names.json');
    assert.equal(fs.statSync(path.join(dir, h.name)).size, h.bytes);
    const read = LoadedIndex.load(dir);
    assert.equal(await prepareNames(read, async () => {}), undefined, 'the build\'s table is used');
    const copy = path.join(tmp, 'cut-names');
    fs.cpSync(dir, copy, { recursive: true });
    fs.truncateSync(path.join(copy, h.name), 50);
    const cut = LoadedIndex.load(copy);
    assert.match((await prepareNames(cut, async () => {})) ?? '', /cannot be used.*npm run index:build/);
    let named = 0;
    for (let id = 0; id < read.count; id++) {
      const title = read.entry(id).title;
      for (const kind of ENTRY_KINDS) {
        const a = [...namedIds(read, title, kind)].sort(), b = [...namedIds(cut, title, kind)].sort();
        assert.deepEqual(a, b, `${kind} named "${title}"`);
        named += a.length;
      }
    }
    assert.ok(named >= read.count, `${named} named`);
    read.close(); cut.close();
  });

  it('digests every title and what each statement cites (digest.json); a corrupt digest is said, and the entries are read instead', () => {
    const d = index.header.digest!;
    assert.ok(d, 'the header lists digest.json');
    assert.equal(index.digestProblem, undefined);
    const copy = path.join(tmp, 'bad-digest');
    fs.cpSync(dir, copy, { recursive: true });
    fs.writeFileSync(path.join(copy, d.name), 'x'.repeat(d.bytes));
    const bad = LoadedIndex.load(copy);
    assert.match(bad.digestProblem ?? '', /not valid JSON.*npm run index:build/);
    const [a, b] = index.header.kinds.statement;
    for (let id = 0; id < index.count; id++) {
      assert.equal(index.title(id), index.entry(id).title);
      assert.equal(bad.title(id), index.title(id));
      if (id >= a && id < b) {
        assert.deepEqual([...index.digestCitations(id)!].sort(), citationsOf(bad, id).sort(), `statement ${id}`);
        assert.equal(bad.digestCitations(id), undefined);
      }
    }
    bad.close();
  });

  it('keeps a URL and a licence on every entry; kinds are contiguous; a bulk read (peek) gives the same entry', () => {
    const fresh = LoadedIndex.load(dir);
    for (let id = 0; id < index.count; id++) assert.deepEqual(fresh.peek(id), index.entry(id));
    for (let id = 0; id < index.count; id++) {
      const e = index.entry(id);
      assert.equal(e.id, id);
      assert.match(e.url, /^https:\/\//, e.title);
      assert.ok(e.licence.length > 0);
      assert.equal(index.kind(id), e.kind);
      if (e.source === 2) assert.match(e.licence, /PlanetMath author/);
    }
  });

  it('scores BM25 exactly like embeddings/bm25.ts within a kind', () => {
    const [a, b] = index.header.kinds.proof;
    const ref = new Bm25Index();
    // the builder tokenizes with the same tokenizer, capped at 512 tokens; rebuild from the stored lengths' texts
    const texts: number[][] = [];
    for (let id = a; id < b; id++) {
      // postings are the ground truth here: reconstruct each document's ids from them
      texts.push([]);
    }
    const V = index.header.vocabSize;
    for (let t = 0; t < V; t++) for (let i = index.termOffsets[t]; i < index.termOffsets[t + 1]; i++) {
      const d = index.docs[i];
      if (d >= a && d < b) for (let k = 0; k < index.tfs[i]; k++) texts[d - a].push(t);
    }
    texts.forEach((ids, i) => { while (ids.length < index.lengths[a + i]) ids.push(0); ref.add(ids); });
    const q = tok.encode(index.entry(a).text, { maxTokens: QUERY_TOKENS });
    const mine = index.bm25Range(q, 'proof', a, b);
    const theirs = ref.scores(q);
    for (let i = 0; i < mine.length; i++) assert.ok(Math.abs(mine[i] - theirs[i]) < 1e-3, `doc ${i}: ${mine[i]} vs ${theirs[i]}`);
  });

  it('finds a statement from its own text, and its proofs as candidates', async () => {
    const [a] = index.header.kinds.statement;
    const st = index.entry(a + 3);
    // the statement as an author writes it: standard LaTeX, not ProofWiki's macros
    const text = expandProofWikiMacros(st.text);
    const [vec] = await enc.embedTexts([text]);
    const q = { ids: tok.encode(text, { maxTokens: QUERY_TOKENS }), vec };
    const hits = search(index, q, 'statement', { limit: 3 });
    assert.equal(hits[0].id, st.id);
    assert.ok(hits[0].cosine! > 0.9);
    const proofs = candidateProofs(index, q, { limit: 3 });
    assert.ok(proofs.some((p) => st.proofs!.includes(p.id)), 'its own proof is a candidate');
    // BM25 only (no vector) still answers
    assert.ok(search(index, { ids: q.ids }, 'statement', { limit: 3 }).length > 0);
  });

  it('computes hub scores in worker threads that equal one pass over the background, to the bit', async () => {
    const background = hubBackground(index, 60);
    const tokens = (id: number) => tok.encode(index.entry(id).text, { maxTokens: QUERY_TOKENS });
    const inWorkers = await computeHubsInWorkers(dir, index, background, tokens, 3);
    for (const kind of ['proof', 'statement'] as const) {
      const once = computeHubs(index, kind, background, tokens);
      assert.ok(once.some((x) => x !== 0));
      assert.deepEqual([...inWorkers[kind]], [...once], kind);
    }
  });

  it('carries the proof ranker with every proof\'s and statement\'s hub scores, and falls back to BM25+encoder without them', async () => {
    const h = index.header.proofRanker!;
    assert.ok(h, 'the committed proof ranker is copied in at build');
    const [pa, pb] = index.header.kinds.proof;
    const [sa, sb] = index.header.kinds.statement;
    assert.equal(h.hubs.bytes, 8 * (pb - pa));
    assert.equal(h.statementHubs!.bytes, 8 * (sb - sa));
    const r = indexProofRanker(index);
    assert.ok(!('problem' in r), 'problem' in r ? r.problem : '');
    assert.ok([...r.bm, ...r.cos].some((x) => x !== 0));
    assert.ok(r.statements && [...r.statements.cos].some((x) => x !== 0), r.statementProblem);
    const st = index.entry(index.header.kinds.statement[0] + 3);
    // the statement as an author writes it: standard LaTeX, not ProofWiki's macros
    const text = expandProofWikiMacros(st.text);
    const [vec] = await enc.embedTexts([text]);
    const q = { ids: tok.encode(text, { maxTokens: QUERY_TOKENS }), vec };
    const ranked = candidateProofs(index, q, { limit: 5, viaStatements: false });
    // a copy of the index whose hub file is cut short: a clear reason, and still candidate proofs
    const copy = path.join(tmp, 'cut-hubs');
    fs.cpSync(dir, copy, { recursive: true });
    fs.truncateSync(path.join(copy, h.hubs.name), 100);
    const cut = LoadedIndex.load(copy);
    const problem = indexProofRanker(cut);
    assert.ok('problem' in problem && /corrupt/.test(problem.problem));
    const plain = candidateProofs(cut, q, { limit: 5, viaStatements: false });
    assert.equal(plain.length, ranked.length);
    assert.deepEqual(plain.map((p) => p.id), search(cut, q, 'proof', { limit: 5 }).map((p) => p.id), 'ranked by the parameter-free fusion');
    assert.ok(suggestCitations(cut, q, { limit: 5 }).length > 0, 'results to cite still answer');
    cut.close();
    // statement hubs cut short: candidate proofs keep the ranker, results to cite vote by the direct match
    const cut2 = path.join(tmp, 'cut-statement-hubs');
    fs.cpSync(dir, cut2, { recursive: true });
    fs.truncateSync(path.join(cut2, h.statementHubs!.name), 8);
    const half = LoadedIndex.load(cut2);
    const hr = indexProofRanker(half);
    assert.ok(!('problem' in hr) && /corrupt/.test(hr.statementProblem ?? ''));
    assert.deepEqual(candidateProofs(half, q, { limit: 5, viaStatements: false }).map((p) => p.id), ranked.map((p) => p.id));
    assert.equal(suggestCitations(half, q, { limit: 5 }).length, 5);
    half.close();
  });

  it('ranks a term\'s definitions for a context, best first', async () => {
    const [term, ids] = Object.entries(index.header.terms).find(([, ids]) => ids.length >= 2)!;
    const target = index.entry(ids[1]);
    const ctx = target.text;
    const [vec] = await enc.embedTexts([ctx]);
    const res = disambiguate(index, tok, term, { ids: tok.encode(ctx), vec });
    assert.equal(res.length, ids.length);
    assert.equal(res[0].id, target.id, `context of ${target.title}`);
    for (let i = 1; i < res.length; i++) assert.ok(res[i - 1].score >= res[i].score);
    assert.deepEqual(disambiguate(index, tok, 'no such term at all', { ids: [] }), []);
    assert.equal(disambiguate(index, tok, term, { ids: tok.encode(ctx), vec }, { titleOnly: true }).length, ids.length);
  });

  it('stores the fitted term ranker and ranks by title words when the context is given', () => {
    const m = index.header.termRanker!;
    assert.deepEqual(m.features, [...TERM_FEATURES]);
    assert.match(m.trainedOn, /MathD2 train/);
    const [term, ids] = Object.entries(index.header.terms).find(([, ids]) => ids.length >= 2)!;
    for (const id of ids) {
      const target = index.entry(id);
      const text = `Let the following hold. A ${titleText(target.title).toLowerCase()} is what we study here.`;
      const res = disambiguate(index, tok, term, { ids: tok.encode(text), text }, { titleOnly: true });
      assert.equal(res[0].id, id, `${target.title} for "${text}": got ${res[0].entry.title}`);
    }
  });

  it('reads a definition listed under several terms against the term asked about', () => {
    const m = index.header.termRanker!;
    const score = (x: number[]) => x.reduce((acc, v, i) => acc + v * m.weights[i], 0);
    // a definition stored under another of its group's terms, in a context where the two
    // readings differ (the asked term's words count as the title's own words under the other)
    const textFor = (term: string, title: string) => `Let the following hold. The ${term} case of ${titleText(title).toLowerCase()} is studied here.`;
    const differs = (term: string, id: number) => {
      const e = index.entry(id);
      if (!e.term || e.term.toLowerCase() === term) return false;
      const [asked, stored] = featureRows(textFor(term, e.title), [{ term, title: e.title }, { term: e.term, title: e.title }], [1, 1]);
      return Math.abs(score(asked) - score(stored)) > 0.1;
    };
    const group = Object.entries(index.header.terms).find(([t, ids]) => ids.length >= 2 && ids.some((id) => differs(t, id)));
    assert.ok(group, 'the slice has a definition listed under two terms that read differently');
    const [term, ids] = group;
    const text = textFor(term, index.entry(ids.find((id) => differs(term, id))!).title);
    const res = disambiguate(index, tok, term, { ids: tok.encode(text), text }, { titleOnly: true });
    const bm = new Map(disambiguate(index, tok, term, { ids: tok.encode(text) }, { titleOnly: true }).map((r) => [r.id, r.score]));
    const rows = featureRows(text, ids.map((id) => ({ term, title: index.entry(id).title })), ids.map((id) => bm.get(id)!));
    const expected = new Map(ids.map((id, k) => [id, score(rows[k])]));
    // (BM25 read back rounded to 3 decimals, hence the tolerance)
    for (const r of res) assert.ok(Math.abs(r.score - expected.get(r.id)!) < 0.01, `${r.entry.title} under "${term}": ${r.score} vs ${expected.get(r.id)}`);
  });

  it('suggests statements to cite, never the query\'s own entry', () => {
    const [a, b] = index.header.kinds.statement;
    const own = index.entry(a + 5);
    const q = { ids: tok.encode(expandProofWikiMacros(own.text), { maxTokens: QUERY_TOKENS }), text: expandProofWikiMacros(own.text) };
    assert.equal(suggestCitations(index, q, { limit: 3 })[0].id, own.id, 'without exclusion its own text matches first');
    const hits = suggestCitations(index, q, { limit: 10, exclude: new Set([own.id]) });
    assert.equal(hits.length, 10);
    for (const h of hits) { assert.notEqual(h.id, own.id); assert.ok(h.id >= a && h.id < b); }
  });

  it('says how to fix a missing or corrupt index', () => {
    const missing = path.join(tmp, 'nowhere');
    assert.throws(() => LoadedIndex.load(missing), (e: Error) => e instanceof IndexError && /npm run index:build/.test(e.message));
    const bad = path.join(tmp, 'bad');
    fs.cpSync(dir, bad, { recursive: true });
    const vf = path.join(bad, FILES.vectors);
    fs.truncateSync(vf, fs.statSync(vf).size - 100);
    assert.throws(() => LoadedIndex.load(bad), (e: Error) => e instanceof IndexError && /corrupt/.test(e.message));
    fs.writeFileSync(headerPath(bad), '{ not json');
    assert.throws(() => LoadedIndex.load(bad), (e: Error) => e instanceof IndexError && /corrupt/.test(e.message));
    return assert.rejects(LoadedIndex.loadAsync(missing), IndexError);
  });
});

describe('index with the Stacks project as a source', { skip: !hasData && 'shared data or models missing', timeout: 600_000 }, () => {
  it('records each proof\'s \\ref\'s as citations of its statement, within the indexed results', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-stacks-index-'));
    try {
      await buildIndex({ dataDir, outDir: path.join(tmp, 'index'), modelsDir, sources: ['stacks'], slice: 80, cacheDir: null, noEquations: true });
      const index = LoadedIndex.load(path.join(tmp, 'index'));
      const [a, b] = index.header.kinds.statement;
      const citing = [];
      for (let id = a; id < b; id++) if (citationsOf(index, id).length) citing.push(id);
      assert.ok(citing.length > 0, 'some Stacks results cite others through their proofs');
      for (const id of citing) for (const c of citationsOf(index, id)) {
        assert.notEqual(c, id);
        assert.equal(index.entry(c).source, index.entry(id).source);
        assert.match(index.entry(c).url, /^https:\/\/stacks\.math\.columbia\.edu/);
      }
      const cited = timesCited(index);
      assert.ok(cited.some((x) => x > 0));
      // the postings the citer profiles read are the ones BM25 scores
      const held: number[] = [];
      let term = 8;
      for (; held.length === 0 && term < index.header.vocabSize; term++) index.postings(term, a, b, (id) => held.push(id));
      term--;
      assert.ok(held.length > 0);
      const bm = index.bm25Range([term], 'statement', a, b);
      assert.deepEqual(held, [...bm.keys()].filter((i) => bm[i] > 0).map((i) => i + a));
      // a citer's own text matches the profiles of what it cites, until it is left out of them
      const c = citing[0];
      const tok = MathTokenizer.load(path.join(modelsDir, 'tokenizer', 'vocab.json'));
      const q = { ids: tok.encode(index.entry(c).text, { maxTokens: QUERY_TOKENS }), vec: index.vector(c) };
      const withIt = citerMatch(index, q), without = citerMatch(index, q, new Set([c]));
      for (const r of citationsOf(index, c)) {
        assert.ok(withIt.bm25[r - a] > 0 && withIt.centroid[r - a] !== 0, `result ${r}`);
        if (cited[r] === 1) assert.ok(without.bm25[r - a] === 0 && without.centroid[r - a] === 0, `result ${r} has no other citer`);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
