// Lean blueprints (leanblueprint): `\uses{…}` and `\proves{…}` are references, `\lean{…}`,
// `\leanok`, `\mathlibok`, `\notready` are metadata shown apart from the statement.
import { test } from 'node:test';
import { expect } from '../testing/snapshot.js';
import { checkDefinition, checkDiagnostics, checkHover, checkReferences } from '../testing/featureChecks.js';

const PRINT = String.raw`
%! print.tex
\documentclass{report}
\begin{document}
\input{content}
\end{document}
`;

test('\\uses is a reference: hover, definition, references, and undefined keys are reported', () => {
  // from the theorem's \uses: the lemma's label is the definition
  const fx = checkDefinition(PRINT + String.raw`%! content.tex
\begin{lemma}\label{lem:concave}
                    ^^^^^^^^^^^
  \lean{Real.strictConcaveOn_negMulLog}
  \leanok
  $h$ is strictly concave.
\end{lemma}
\begin{theorem}\label{thm:main}
  \uses{lem:concave, lem:missing}
%        |
  \notready
  The main result.
\end{theorem}
\begin{proof}
  \uses{lem:concave}
  By concavity.
\end{proof}
`);
  // the statement's text without its metadata; the metadata on a line of its own
  checkHover(fx, expect`
    content.tex:7:9-7:20

    **Lemma** · \`lem:concave\` · content.tex:1

    *Lean: \`Real.strictConcaveOn_negMulLog\` · formalized*

    ---

    $h$ is strictly concave.
  `);
  checkDiagnostics(fx, 'content.tex', expect`
    7:22-7:33 error undefined-ref: Undefined reference: no \label{lem:missing} in this project
  `);
  // both \uses are its references
  checkReferences(PRINT + String.raw`%! content.tex
\begin{lemma}\label{lem:concave}
  \lean{Real.strictConcaveOn_negMulLog}
  \leanok
  $h$ is strictly concave.
\end{lemma}
\begin{theorem}\label{thm:main}
  \uses{lem:concave, lem:missing}
        ^^^^^^^^^^^
%        |
  \notready
  The main result.
\end{theorem}
\begin{proof}
  \uses{lem:concave}
        ^^^^^^^^^^^
  By concavity.
\end{proof}
`, false);
});
