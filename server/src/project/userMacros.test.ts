// Labels and references written through the project's own macros, as diagnostics see them.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../testing/fixture.js';
import { computeDiagnostics } from '../features/diagnostics.js';

const SPEC = `
%! main.tex
\\documentclass{article}
\\newcommand{\\thmlabel}[1]{\\label{thm:#1}}
\\newcommand{\\lemref}[1]{Lemma~\\ref{lem:#1}}
\\newcommand{\\pg}[1]{p.~\\pageref{#1}}
\\newcommand{\\seeeq}[2][see]{#1 \\eqref{eq:#2}}
\\begin{document}
\\input{body}
\\end{document}
%! body.tex
\\begin{theorem}\\thmlabel{main} X \\end{theorem}
\\begin{lemma}\\label{lem:foo} Y \\end{lemma}
\\begin{lemma}\\label{lem:page} Z \\end{lemma}
\\begin{equation} a=b \\label{eq:ab}\\end{equation}
By \\ref{thm:main}, \\lemref{foo} (\\pg{lem:page}) and \\lemref{typo}, \\seeeq{ab}, \\seeeq[cf.]{nope}.
% \\lemref{commented}
`;

test('macros that wrap \\label and \\ref: their uses resolve, typos are reported, the labels they name are used', () => {
  const fx = fixture(SPEC);
  try {
    const body = fx.doc('body.tex');
    const d = computeDiagnostics(fx.ws, body, { unusedLabels: true, structure: true });
    assert.deepEqual(d.map((x) => `${x.range.start.line + 1}:${x.range.start.character + 1} ${x.code}: ${x.message}`), [
      '5:61 undefined-ref: Undefined reference: no \\label{lem:typo} in this project (through \\lemref)',
      '5:92 undefined-ref: Undefined reference: no \\label{eq:nope} in this project (through \\seeeq)',
    ]);
  } finally { fx.cleanup(); }
});
