// Copies of a file in the workspace: a course kept term by term (files of the same name in
// sibling folders) and a book's slides (another name, most displays shared) are copy groups;
// a file that shares one common display with another is not.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../../testing/fixture.js';
import { EquationAnalyses } from '../../index/equationAnalyses.js';
import { copyGroup, copyText } from './equationClaims.js';
import { WorkspaceEquations } from '../../index/workspaceEquations.js';

const SPEC = String.raw`
%! Fall2020/Sets.tex
\[ S = \{x \in A \mid P(x)\} \]
\[ A \cup B = \{x \mid x \in A \text{ or } x \in B\} \]
%! Spring2021/Sets.tex
\[ S=\{x \in A\mid P(x)\} \]
%! ch-first-order-ode.tex
\begin{equation} y' = f(x,y) , \end{equation}
\begin{equation} y = e^{x-x^2} - 2 e^{-x^2} . \end{equation}
\begin{equation} \frac{dy}{dx} = f(x)g(y) . \end{equation}
\begin{equation} x^2+y^2 + 2y(x+1) \frac{dy}{dx} = 0 . \end{equation}
%! slides/1.4.tex
\[ y = e^{x-x^2} - 2 e^{-x^2} \]
\[ \frac{dy}{dx} = f(x)g(y) \]
\[ x^2+y^2 + 2y(x+1) \frac{dy}{dx} = 0 \]
\[ v = y + 1 \]
%! other.tex
\[ \frac{dy}{dx} = f(x)g(y) \]
\[ \int_0^1 t^2 \, dt = \frac13 \]
\[ \sum_{k=1}^n k = \frac{n(n+1)}{2} \]
\[ a^2 + b^2 = c^2 \text{ and more} \]
`;

describe('copies of a file', () => {
  it('groups term-by-term versions and slides; a single shared display is not copying', () => {
    const f = fixture(SPEC);
    const eqs = new WorkspaceEquations(new EquationAnalyses());
    const snap = eqs.snapshot(f.ws);
    const g = (name: string) => copyGroup(snap, f.doc(name));
    assert.equal(g('Fall2020/Sets.tex'), g('Spring2021/Sets.tex'), 'same name, one shared display');
    assert.equal(g('ch-first-order-ode.tex'), g('slides/1.4.tex'), 'three of four shared');
    assert.notEqual(g('ch-first-order-ode.tex'), g('other.tex'));
    assert.notEqual(g('ch-first-order-ode.tex'), g('Fall2020/Sets.tex'));
    assert.equal(copyText('y = e^{x} . \\label{eq:a}'), copyText('y=e^{x}'));
  });
});
