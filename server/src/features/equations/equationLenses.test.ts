// The `matches` lens: only displays with something worth opening get one, and its title says
// what: a confirmed equivalent ("Same as …"), the same text written again where the evaluator
// cannot confirm it ("Also at …"), or near-identical displays ("Close: …"). A copy of the file
// (its slides) is not a find; a derivative read as zero, a tiny display and a matrix get nothing.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../../testing/fixture.js';
import { EquationAnalyses } from '../../index/equationAnalyses.js';
import { lensTitle, matchLenses, withCounted } from './equationLenses.js';
import { MatchCache } from '../../index/matchCache.js';
import { findRelatedEquations, type RelatedContext } from './relatedEquations.js';
import { documentEquations, equationAt } from '../../analysis/equationSites.js';
import { WorkspaceEquations } from '../../index/workspaceEquations.js';

const SPEC = String.raw`
%! ch-pde.tex
\begin{equation}\label{eq:heat} u_t = k u_{xx} . \end{equation}
\begin{equation} \alpha u_x + u_t = 0 . \end{equation}
\begin{equation} x + y\frac{dy}{dx} = 0 . \end{equation}
\begin{equation} \int_0^L f(x) \sin\left(\frac{n\pi}{L} x\right) dx = b_n \frac{L}{2} . \end{equation}
\begin{equation} F \vec{x} \end{equation}
\begin{equation} \left[ \begin{array}{cc|c} 1 & 2 & 3 \\ 4 & 5 & 6 \end{array} \right] \end{equation}
%! ch-more.tex
\begin{equation} k u_{xx} = u_t , \end{equation}
\begin{equation} x_a^2 = (x_b + x_a)x_a + c \end{equation}
\begin{equation} \frac{du}{ds} + 2u = 0 \end{equation}
\begin{equation} \int_0^L f(x) \sin\left(\frac{n\pi}{L} x\right) dx = b_n \frac{L}{2} \end{equation}
\begin{equation} A \vec{x} \end{equation}
\begin{equation} \left[ \begin{array}{cc|c} 1 & 2 & 3 \\ 4 & 5 & 7 \end{array} \right] \end{equation}
%! slides/pde.tex
\[ u_t = k u_{xx} \]
\[ \alpha u_x + u_t = 0 \]
\[ x + y\frac{dy}{dx} = 0 \]
\[ \int_0^L f(x) \sin\left(\frac{n\pi}{L} x\right) dx = b_n \frac{L}{2} \]
`;

describe('related-equations lenses', () => {
  it('only where something is worth opening, titled with what it is', async () => {
    const f = fixture(SPEC);
    const analyses = new EquationAnalyses();
    const ctx: RelatedContext = { ws: f.ws, equations: new WorkspaceEquations(analyses) };
    const pde = f.doc('ch-pde.tex');
    const { lenses, pending } = await matchLenses(ctx, pde, new MatchCache(), { waitMs: 5000 });
    assert.equal(pending, 0);
    const byLine = new Map(lenses.map((l) => [l.range.start.line, l.command!.title]));
    assert.deepEqual(byLine, new Map([
      // the heat equation written the other way round in another chapter; its copy in the slides is not counted
      [0, 'Same as line 1 of ch-more.tex'],
      // an integral the evaluator cannot read, written again word for word
      [3, 'Also at line 4 of ch-more.tex'],
    ]));
    // the slides' copy is listed last, labelled
    const heat = await findRelatedEquations(ctx, { doc: pde, site: documentEquations(pde)[0] });
    const copy = heat.results.find((x) => x.copy);
    assert.ok(copy && copy.file!.endsWith('slides/pde.tex'));
    assert.equal(heat.results[heat.results.length - 1], copy);
    assert.equal(lensTitle(heat), 'Same as line 1 of ch-more.tex');
    // the peek opens what the title counts: the one equivalent, not the copy or other look-alikes
    const counted = withCounted(heat).results.filter((x) => x.counted);
    assert.deepEqual(counted.map((x) => `${x.file!.split('/').pop()}:${x.line}`), ['ch-more.tex:1']);
  });
});

describe('a lens finds its display again', () => {
  it('at the place the query gives: an indented display, one after text on its line, a row of an align', async () => {
    const f = fixture(`%! ch.tex\n\\section{A}\n\t\t\\begin{equation} u_t = k u_{xx} \\end{equation}\nThen we have \\[ \\alpha u_x + u_t = 0 \\]\n\t\\begin{align}\n\t\tx &= y + 1 \\\\\n\t\ty &= x - 1\n\t\\end{align}\n`);
    const ctx: RelatedContext = { ws: f.ws, equations: new WorkspaceEquations(new EquationAnalyses()) };
    const doc = f.doc('ch.tex');
    const sites = documentEquations(doc);
    assert.ok(sites.length >= 3);
    for (const site of sites) {
      const r = await findRelatedEquations(ctx, { doc, site });
      assert.ok(r.query.line !== undefined && r.query.character !== undefined);
      // what the client asks again when the lens is clicked (client/src/commands.ts)
      const again = equationAt(doc, doc.offsetAt({ line: r.query.line - 1, character: r.query.character }));
      assert.equal(again?.start, site.start, `line ${r.query.line}:${r.query.character}`);
    }
  });
});
