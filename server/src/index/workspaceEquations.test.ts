// The workspace's equation snapshot across keystrokes: typing in a paragraph moves the displays
// after it and changes nothing else, so what depends on the displays' content (features, the
// searchable corpus, copy groups) is kept and only the sites' places are new; typing in a
// display makes a new corpus.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../testing/fixture.js';
import { EquationAnalyses } from './equationAnalyses.js';
import { WorkspaceEquations } from './workspaceEquations.js';

const SPEC = String.raw`
%! main.tex
Some words before the displays.

\begin{equation}\label{eq:a} (a+b)^2 = a^2 + 2ab + b^2 \end{equation}

More words.
\[ \sum_{k=1}^n k = \frac{n(n+1)}{2} \]
%! other.tex
\[ e^{i\pi} + 1 = 0 \]
`;

function typeAt(f: ReturnType<typeof fixture>, name: string, needle: string, text: string): void {
  const doc = f.doc(name);
  const at = doc.text.indexOf(needle);
  const p = doc.positionAt(at);
  f.ws.edit(doc.uri, [{ range: { start: p, end: p }, text }], doc.version + 1);
}

describe('workspace equation snapshot', () => {
  it('keeps the corpus when a paragraph changes, with the displays where they now are', () => {
    const f = fixture(SPEC);
    const eqs = new WorkspaceEquations(new EquationAnalyses());
    const before = eqs.snapshot(f.ws);
    typeAt(f, 'main.tex', 'words before', 'many ');
    const after = eqs.snapshot(f.ws);
    assert.notEqual(after, before, 'a new snapshot: the sites moved');
    assert.equal(after.corpus, before.corpus);
    assert.equal(after.sitesKey, before.sitesKey);
    assert.equal(after.features, before.features);
    assert.deepEqual(after.sites.map((s) => s.latex), before.sites.map((s) => s.latex));
    const text = f.doc('main.tex').text;
    for (const s of after.sites.filter((x) => x.doc.uri === f.uri('main.tex'))) assert.ok(text.slice(s.start, s.end).includes(s.latex.trim().slice(0, 5)), `${s.latex} is where the site says`);
    assert.equal(after.sites[0].start, before.sites[0].start + 'many '.length);
  });

  it('makes a new corpus when a display changes', () => {
    const f = fixture(SPEC);
    const eqs = new WorkspaceEquations(new EquationAnalyses());
    const before = eqs.snapshot(f.ws);
    typeAt(f, 'main.tex', '= a^2', ' + 0');
    const after = eqs.snapshot(f.ws);
    assert.notEqual(after.corpus, before.corpus);
    assert.ok(after.sites.some((s) => s.latex.includes('+ 0')));
  });
});
