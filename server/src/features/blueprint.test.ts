// Lean blueprints (leanblueprint): `\uses{…}` and `\proves{…}` are references, `\lean{…}`,
// `\leanok`, `\mathlibok`, `\notready` are metadata shown apart from the statement.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver';
import { fixture } from '../testing/fixture.js';
import { computeDiagnostics } from './diagnostics.js';
import { hover } from './hover.js';
import { definition, findReferences } from './navigation.js';

const SPEC = `
%! print.tex
\\documentclass{report}
\\begin{document}
\\input{content}
\\end{document}
%! content.tex
\\begin{lemma}\\label{lem:concave}
  \\lean{Real.strictConcaveOn_negMulLog}
  \\leanok
  $h$ is strictly concave.
\\end{lemma}
\\begin{theorem}\\label{thm:main}
  \\uses{lem:concave, lem:missing}
  \\notready
  The main result.
\\end{theorem}
\\begin{proof}
  \\uses{lem:concave}
  By concavity.
\\end{proof}
`;

test('\\uses is a reference: hover, definition, references, and undefined keys are reported', () => {
  const fx = fixture(SPEC);
  try {
    const doc = fx.doc('content.tex');
    const at = doc.text.indexOf('lem:concave,') + 2;
    const h = hover(fx.ws, doc, at);
    const md = (h?.contents as MarkupContent).value;
    assert.match(md, /\*\*Lemma\*\* · `lem:concave`/);
    // the statement's text without its metadata; the metadata on a line of its own
    assert.match(md, /\*Lean: `Real\.strictConcaveOn_negMulLog` · formalized\*/);
    assert.doesNotMatch(md.split('---')[1] ?? '', /strictConcaveOn|leanok/);
    assert.match(md, /is strictly concave/);
    assert.equal(definition(fx.ws, doc, at).length, 1);
    const refs = findReferences(fx.ws, doc, doc.text.indexOf('lem:concave') + 2, false);
    assert.equal(refs.length, 2);
    assert.deepEqual(computeDiagnostics(fx.ws, doc).map((d) => d.message), ['Undefined reference: no \\label{lem:missing} in this project']);
  } finally { fx.cleanup(); }
});
