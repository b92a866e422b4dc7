// The `\ref{` ranking inside a proof, on the real index's position ranker: the statement being
// proved is never offered as its own reference, and what the ranking builds once over all the
// results (BM25, citer profiles) gives the same order at a second proof as a ranking built
// from nothing there.
import { before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CompletionItem } from 'vscode-languageserver-types';
import { fixture } from '../../testing/fixture.js';
import { repoRoot } from '../../testing/modelPaths.js';
import { ServerIndex } from '../../index/serverIndex.js';
import { completion } from '../labels/labelCompletion.js';
import { rankRefCompletions } from './refRanking.js';

const SPEC = String.raw`
%! main.tex
\begin{lemma}\label{lem:finite-length}
A module of finite length over a ring is Artinian and Noetherian.
\end{lemma}
\begin{lemma}\label{lem:artinian-noetherian}
Every Artinian ring is Noetherian, and of dimension zero.
\end{lemma}
\begin{proof}
Use Lemma \ref{lem:finite-length}.
\end{proof}
\begin{lemma}\label{lem:primes}
There are infinitely many prime numbers.
\end{lemma}
\begin{lemma}\label{lem:local-artinian}
A local Artinian ring has a nilpotent maximal ideal.
\end{lemma}
\begin{proof}
By Lemma \ref{lem:artinian-noetherian} the ring is Noetherian.
\end{proof}
\begin{theorem}\label{thm:artinian}
A Noetherian ring of dimension zero is Artinian.
\end{theorem}
\begin{proof}
By \ref{}
\end{proof}
\begin{lemma}\label{lem:euclid}
The product of two primes dividing a number divides it; there are infinitely many primes.
\end{lemma}
\begin{proof}
See \ref{}
\end{proof}
`;

const indexDir = path.join(repoRoot, 'build', 'index');

describe('\\ref{ ranking in a proof', () => {
  const f = fixture(SPEC);
  const doc = f.doc('main.tex');
  const proofs = [...doc.latexText.matchAll(/\\ref\{\}/g)].map((m) => m.index! + '\\ref{'.length);
  const load = async () => {
    const si = new ServerIndex(() => {}, () => ({ path: indexDir }), async () => undefined);
    await si.load();
    assert.ok(si.get(), `the index in ${indexDir} loads (npm run setup builds it)`);
    return si;
  };
  const ranked = (si: ServerIndex, offset: number) => {
    let items: CompletionItem[] = [];
    completion(f.ws, doc, offset, (ctx, list) => { rankRefCompletions(f.ws, doc, ctx, list, si); items = list; });
    return items.filter((i) => i.sortText?.startsWith('0')).sort((a, b) => (a.sortText! < b.sortText! ? -1 : 1)).map((i) => `${i.label} ${i.detail?.split('relevance ')[1]}`);
  };
  let si: ServerIndex;
  before(async () => {
    assert.ok(fs.existsSync(path.join(indexDir, 'index.json')), `no index in ${indexDir}: run npm run setup`);
    si = await load();
  });

  it('ranks the results related to the statement, never the statement itself', () => {
    const r = ranked(si, proofs[0]);
    assert.equal(r.length, 5, r.join(', '));
    assert.ok(!r.some((x) => x.startsWith('thm:artinian ')), 'the theorem being proved is no reference of its proof');
    // the lemmas on Artinian and Noetherian rings first, those on primes last
    assert.deepEqual(r.slice(0, 2).map((x) => x.split(' ')[0]).sort(), ['lem:artinian-noetherian', 'lem:finite-length'], r.join(', '));
    assert.deepEqual(r.slice(3).map((x) => x.split(' ')[0]).sort(), ['lem:euclid', 'lem:primes'], r.join(', '));
  });

  it('orders a second proof as a ranking built there from nothing does', async () => {
    ranked(si, proofs[0]);
    const reused = ranked(si, proofs[1]);
    const fresh = ranked(await load(), proofs[1]);
    assert.deepEqual(reused, fresh);
    assert.ok(!reused.some((x) => x.startsWith('lem:euclid ')));
  });
});
