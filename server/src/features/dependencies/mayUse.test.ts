// "May use" on the real index's position ranker: only results stated before the proof, that it
// does not already use, that a proof can rest on (no examples or remarks), best first; nothing
// under the fixed threshold.
import { before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixture } from '../../testing/fixture.js';
import { repoRoot } from '../../testing/modelPaths.js';
import { ServerIndex } from '../../index/serverIndex.js';
import { dependencyIndex } from '../../analysis/dependencies/dependencyGraph.js';
import { MAY_USE_THRESHOLD, mayUse } from './mayUse.js';

const SPEC = String.raw`
%! main.tex
\begin{lemma}\label{lem:finite-length}
A module of finite length over a ring is Artinian and Noetherian.
\end{lemma}
\begin{lemma}\label{lem:artinian-noetherian}
Every Artinian ring is Noetherian, and of dimension zero.
\end{lemma}
\begin{example}\label{ex:artinian}
A field is an Artinian ring.
\end{example}
\begin{lemma}\label{lem:primes}
There are infinitely many prime numbers.
\end{lemma}
\begin{lemma}\label{lem:local-artinian}
A local Artinian ring has a nilpotent maximal ideal.
\end{lemma}
\begin{theorem}\label{thm:artinian}
A Noetherian ring of dimension zero is Artinian.
\end{theorem}
\begin{proof}
The maximal ideal is nilpotent by Lemma~\ref{lem:local-artinian}, so the ring has finite length.
\end{proof}
\begin{lemma}\label{lem:later-artinian}
An Artinian ring has finitely many maximal ideals.
\end{lemma}
`;

const indexDir = path.join(repoRoot, 'build', 'index');

describe('may use', () => {
  const f = fixture(SPEC);
  const doc = f.doc('main.tex');
  let si: ServerIndex;
  before(async () => {
    assert.ok(fs.existsSync(path.join(indexDir, 'index.json')), `no index in ${indexDir}: run npm run setup`);
    si = new ServerIndex(() => {}, () => ({ path: indexDir }), async () => undefined);
    await si.load();
  });

  it('suggests earlier results the proof does not use, by the ranker, never an example, a later result or one it cites', () => {
    const g = dependencyIndex(f.ws);
    const thm = g.nodesIn(doc).find((n) => n.su.st.labels[0]?.name === 'thm:artinian')!;
    const names = mayUse(f.ws, g, si, thm, { threshold: -1e9, limit: 10 }).suggestions.map((s) => g.node(s.key)!.su.st.labels[0].name);
    assert.deepEqual([...names].sort(), ['lem:artinian-noetherian', 'lem:finite-length', 'lem:primes']);
    assert.notEqual(names[0], 'lem:primes', names.join(', '));
    const scores = mayUse(f.ws, g, si, thm, { threshold: -1e9, limit: 10 }).suggestions.map((s) => s.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  });

  it('shows nothing under the fixed threshold', () => {
    const g = dependencyIndex(f.ws);
    const thm = g.nodesIn(doc).find((n) => n.su.st.labels[0]?.name === 'thm:artinian')!;
    const shown = mayUse(f.ws, g, si, thm).suggestions;
    if (MAY_USE_THRESHOLD === undefined) assert.deepEqual(shown, []);
    else assert.ok(shown.every((s) => s.score >= MAY_USE_THRESHOLD!));
  });
});
