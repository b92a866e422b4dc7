// Lean blueprints (leanblueprint): `\uses{…}` and `\proves{…}` are references, `\lean{…}`,
// `\leanok`, `\mathlibok`, `\notready` are metadata shown apart from the statement.
import { test } from 'node:test';
import { expect } from '../testing/snapshot.js';
import { checkDefinition, checkDiagnostics, checkHover, checkReferences } from '../testing/featureChecks.js';

/** The blueprint, the cursor in the theorem's `\uses`, `^^^` under what `marks` names. */
const SPEC = (marks: { label?: boolean; uses?: boolean }) => String.raw`
%! print.tex
\documentclass{report}
\begin{document}
\input{content}
\end{document}
%! content.tex
\begin{lemma}\label{lem:concave}
${marks.label ? '                    ^^^^^^^^^^^' : '%'}
  \lean{Real.strictConcaveOn_negMulLog}
  \leanok
  $h$ is strictly concave.
\end{lemma}
\begin{theorem}\label{thm:main}
  \uses{lem:concave, lem:missing}
%        |
${marks.uses ? '        ^^^^^^^^^^^' : '%'}
  \notready
  The main result.
\end{theorem}
\begin{proof}
  \uses{lem:concave}
${marks.uses ? '        ^^^^^^^^^^^' : '%'}
  By concavity.
\end{proof}
`;

test('\\uses is a reference: hover, definition, references, and undefined keys are reported', () => {
  // the statement's text without its metadata; the metadata on a line of its own
  checkHover(SPEC({}), expect`
    content.tex:8:9-8:20

    **Lemma** · \`lem:concave\` · content.tex:1

    *Lean: \`Real.strictConcaveOn_negMulLog\` · formalized*

    ---

    $h$ is strictly concave.
  `);
  checkDefinition(SPEC({ label: true }));
  checkReferences(SPEC({ uses: true }), false);
  checkDiagnostics(SPEC({}), 'content.tex', expect`
    8:22-8:33 error undefined-ref: Undefined reference: no \label{lem:missing} in this project
  `);
});
