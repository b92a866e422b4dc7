// The offline `index build` (progress, header), then the real bundled CLI on that slice index:
// `search --json` (equations too) and `disambiguate --json` shapes (kept stable: checks depend on them), workspace results with
// --in, and the message and exit code when the index is missing or corrupt.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FILES, LoadedIndex } from 'mathsense-server/api/index';
import { dataDir, hasData, indexBin, repoRoot, serverBundle } from '../testing/indexSlice.js';

const hasProofWiki = fs.existsSync(path.join(dataDir, 'proofwiki', 'proofwiki_pages_rendered.jsonl'));

function cli(args: string[], entry = serverBundle) {
  const r = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8', timeout: 300_000 });
  if (r.error) throw r.error;
  return r;
}

const DOC = String.raw`\documentclass{article}
\newtheorem{theorem}{Theorem}
\newtheorem{definition}{Definition}
\begin{document}
\begin{theorem}\label{thm:geo}
The sum of the geometric series $\sum_{n=0}^\infty r^n$ equals $\frac{1}{1-r}$ when $|r| < 1$.
\end{theorem}
\begin{proof}
Multiply the partial sums by $1-r$ and let $n \to \infty$.
\end{proof}
\end{document}
`;

describe('CLI: index build, search, disambiguate', { skip: !hasData && 'shared data or models missing', timeout: 600_000 }, () => {
  let tmp: string;
  let indexDir: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-cli-index-'));
    indexDir = path.join(tmp, 'index');
    fs.mkdirSync(path.join(tmp, 'doc'));
    fs.writeFileSync(path.join(tmp, 'doc', 'main.tex'), DOC);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('index build writes an index and reports progress', () => {
    const r = cli(['build', '--data', dataDir, '--index', indexDir, '--slice', '30'], indexBin);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^index: \d+ entries/);
    assert.match(r.stderr, /embedding/);
    assert.match(r.stderr, /PS-ProofWiki: \d+\/\d+ statements mapped/);
    const idx = LoadedIndex.load(indexDir);
    assert.ok(idx.count > 30);
  });

  it('search --json: title, url, kind, score (best first), licence', () => {
    const r = cli(['search', '--index', indexDir, '--kind', 'statement', '--limit', '4', '--json', 'a prime number greater than two is odd']);
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    assert.ok(rows.length > 0 && rows.length <= 4);
    for (const x of rows) {
      assert.equal(typeof x.title, 'string');
      assert.match(String(x.url), /^https:\/\//);
      assert.equal(x.kind, 'statement');
      assert.equal(typeof x.score, 'number');
      assert.equal(typeof x.licence, 'string');
    }
    const byScore = rows.filter((x) => x.match !== 'title'); // results named by the query come first
    for (let i = 1; i < byScore.length; i++) assert.ok((byScore[i - 1].score as number) >= (byScore[i].score as number));
    for (const kind of ['proof', 'definition']) {
      const k = cli(['search', '--index', indexDir, '--kind', kind, '--json', 'continuous function on a compact set']);
      assert.equal(k.status, 0, k.stderr);
      for (const x of JSON.parse(k.stdout)) assert.equal(x.kind, kind);
    }
  });

  it('search --in DIR adds workspace results with file, line and label', () => {
    const r = cli(['search', '--index', indexDir, '--kind', 'statement', '--in', path.join(tmp, 'doc'), '--limit', '20', '--json', 'sum of a geometric series with ratio less than one']);
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    const w = rows.find((x) => x.file);
    assert.ok(w, 'a workspace result');
    assert.equal(w.file, path.join(tmp, 'doc', 'main.tex'));
    assert.equal(w.line, 5);
    assert.equal(w.label, 'thm:geo');
    assert.equal(w.kind, 'statement');
    assert.equal(w.source, 'workspace');
    assert.equal(typeof w.score, 'number');
    assert.ok('url' in w);
  });

  it('search by a result\'s name: the titles that name it first, whatever the case, apostrophes and a missing "Theorem"', () => {
    const idx = LoadedIndex.load(indexDir);
    const [a, b] = idx.header.kinds.statement;
    let named: { title: string; proofs: number } | undefined;
    for (let id = a; id < b && !named; id++) {
      const e = idx.entry(id);
      if (/\w \w/.test(e.title) && !e.title.includes('/') && (e.proofs?.length ?? 0) > 0) named = { title: e.title, proofs: e.proofs!.length };
    }
    assert.ok(named, 'a named statement with proofs in the slice');
    const query = named.title.toLowerCase().replace(/ theorem$/, '').replace(/'/g, '’').replace(/-/g, ' ');
    const st = JSON.parse(cli(['search', '--index', indexDir, '--kind', 'statement', '--limit', '3', '--json', query]).stdout) as Array<{ title: string; match?: string }>;
    assert.equal(st[0].title, named.title);
    assert.equal(st[0].match, 'title');
    const pr = JSON.parse(cli(['search', '--index', indexDir, '--kind', 'proof', '--limit', '10', '--json', query]).stdout) as Array<{ title: string; match?: string }>;
    const first = pr.slice(0, Math.min(named.proofs, 10));
    for (const x of first) { assert.equal(x.match, 'title'); assert.ok(x.title.startsWith(named.title), x.title); }
    const text = cli(['search', '--index', indexDir, '--kind', 'statement', '--limit', '1', query]);
    assert.match(text.stdout, /named .*its title names the query/);
  });

  it('--limit only cuts: a shorter list is the start of a longer one', () => {
    for (const kind of ['proof', 'statement']) {
      for (const q of ['Wilson\'s theorem', 'there are infinitely many prime numbers', 'a continuous function on a closed interval is bounded']) {
        const list = (n: number) => (JSON.parse(cli(['search', '--index', indexDir, '--kind', kind, '--limit', String(n), '--json', q]).stdout) as Array<{ title: string }>).map((x) => x.title);
        const long = list(12);
        for (const n of [1, 3, 5]) assert.deepEqual(list(n), long.slice(0, n), `${kind} "${q}" --limit ${n}`);
      }
    }
  });

  it('search --in DIR: a workspace statement said word for word ranks first, on the index\'s scale', () => {
    const r = cli(['search', '--index', indexDir, '--kind', 'statement', '--in', path.join(tmp, 'doc'), '--limit', '5', '--json',
      'The sum of the geometric series $\\sum_{n=0}^\\infty r^n$ equals $\\frac{1}{1-r}$ when $|r| < 1$.']);
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    assert.equal(rows[0].label, 'thm:geo', JSON.stringify(rows.map((x) => [x.title, x.score])));
    assert.equal(rows[0].source, 'workspace');
    assert.ok((rows[0].score as number) > (rows[1].score as number));
  });

  it('--limit must be a positive whole number', () => {
    for (const bad of ['abc', '0', '-3', '2.5']) {
      const s = cli(['search', '--index', indexDir, '--limit', bad, 'x']);
      assert.equal(s.status, 2, bad);
      assert.match(s.stderr, /--limit must be a positive whole number/);
      assert.equal(cli(['disambiguate', '--index', indexDir, '--term', 'Loop', '--context', 'x', '--limit', bad]).status, 2, bad);
    }
  });

  it('disambiguate --json: title, url, score, best first', () => {
    const idx = LoadedIndex.load(indexDir);
    const [term, ids] = Object.entries(idx.header.terms).find(([, ids]) => ids.length >= 2)!;
    const r = cli(['disambiguate', '--index', indexDir, '--term', term, '--context', idx.entry(ids[0]).text, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<{ title: string; url: string; score: number }>;
    assert.equal(rows.length, ids.length);
    assert.match(rows[0].title, /^Definition:/);
    assert.match(rows[0].url, /^https:\/\/proofwiki\.org\/wiki\/Definition:/);
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].score >= rows[i].score);
    const none = cli(['disambiguate', '--index', indexDir, '--term', 'zzzz not a term', '--context', 'x', '--json']);
    assert.equal(none.status, 3, 'an unknown term has its own exit code');
    assert.deepEqual(JSON.parse(none.stdout), []);
  });

  it('missing or corrupt index: exit 1 with what to do; usage errors exit 2', () => {
    const missing = cli(['search', '--index', path.join(tmp, 'none'), '--json', 'x']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no index at .*npm run index:build/);
    const bad = path.join(tmp, 'bad');
    fs.cpSync(indexDir, bad, { recursive: true });
    fs.writeFileSync(path.join(bad, FILES.offsets), Buffer.alloc(8));
    const corrupt = cli(['disambiguate', '--index', bad, '--term', 'loop', '--context', 'x']);
    assert.equal(corrupt.status, 1);
    assert.match(corrupt.stderr, /corrupt.*npm run index:build/);
    assert.equal(cli(['search', '--kind', 'lemma', 'x']).status, 2);
    assert.equal(cli(['search', '--index', indexDir]).status, 2);
    assert.equal(cli(['disambiguate', '--context', 'x']).status, 2);
  });
});

describe('CLI: search --kind equation on an index', { skip: !hasProofWiki && 'shared data missing', timeout: 600_000 }, () => {
  const fixture = path.join(repoRoot, 'test', 'fixtures', 'related-equations');
  let tmp: string;
  before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-cli-eq-')); });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('index hits {latex, score, title, url} with the licence, beside workspace hits', () => {
    const indexDir = path.join(tmp, 'index');
    const b = cli(['build', '--data', dataDir, '--index', indexDir, '--sources', 'proofwiki', '--slice', '40', '--no-vectors', '--quiet'], indexBin);
    assert.equal(b.status, 0, b.stderr);
    assert.match(b.stdout, /\d+ equations/);
    const first = JSON.parse(fs.readFileSync(path.join(indexDir, 'equations.ndjson'), 'utf8').split('\n')[0]) as { latex: string };
    const r = cli(['search', '--kind', 'equation', '--in', fixture, '--index', indexDir, '--json', first.latex]);
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    const hits = rows.filter((x) => x.source === 'index');
    assert.ok(hits.length > 0);
    for (const x of hits) {
      assert.deepEqual(Object.keys(x), ['latex', 'score', 'title', 'url', 'licence', 'source', 'why', 'same']);
      assert.match(x.url as string, /^https:\/\/proofwiki\.org\/wiki\//);
      assert.match(x.licence as string, /^CC BY-SA 3\.0/);
    }
    assert.equal(hits[0].latex, first.latex);
    const info = JSON.parse(cli(['index', 'info', '--index', indexDir, '--json']).stdout) as { equations: { count: number }; licence: string };
    assert.ok(info.equations.count > 0);
    assert.match(info.licence, /CC BY-SA 3\.0/);
  });
});
