// `\ref{` completion in an xr project (Stacks style): the other documents' labels come only
// once their prefix is typed (~100k names otherwise), but the prefixes themselves are offered
// from the first keystroke, so an empty `\ref{` already shows where those labels are.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../../testing/fixture.js';
import { expect } from '../../testing/snapshot.js';
import { checkCompletion, cursorOf } from '../../testing/featureChecks.js';
import { completion } from './labelCompletion.js';

const SPEC = (typed: string) => `
%! algebra.tex
\\documentclass{amsart}
\\begin{document}
\\begin{lemma}\\label{lemma-nak}Nakayama.\\end{lemma}
\\end{document}
%! schemes.tex
\\documentclass{amsart}
\\usepackage{xr-hyper}
\\externaldocument[algebra-]{algebra}
\\begin{document}
\\begin{lemma}\\label{lemma-local}Local.\\end{lemma}
By \\ref{${typed}<|>}.
\\end{document}
`;

test('\\ref{ completion offers xr prefixes from the first keystroke, their labels once a prefix is typed', () => {
  checkCompletion(SPEC(''), expect`
    lemma-local — Lemma [6:9-6:9]
    algebra- — external document prefix [6:9-6:9]
  `);
  // the client filters by what is typed
  checkCompletion(SPEC('a'), expect`
    lemma-local — Lemma [6:9-6:10]
    algebra- — external document prefix [6:9-6:10]
  `);
  checkCompletion(SPEC('algebra-'), expect`
    lemma-local — Lemma [6:9-6:17]
    algebra-lemma-nak — Lemma [6:9-6:17]
  `);
});

test('label completion in every reference command of the one table (syntax/blockAnalyser.ts#REF_COMMANDS)', () => {
  for (const cmd of ['ref', 'fullref', 'prettyref', 'zref', 'zcref', 'cpagerefrange', 'Crefrange', 'labelcref', 'uses']) {
    const fx = fixture(`
%! main.tex
\\documentclass{article}
\\begin{document}
\\section{A}\\label{sec:a}
See \\${cmd}{<|>}.
\\end{document}
`);
    const { doc, offset } = cursorOf(fx);
    assert.deepEqual(completion(fx.ws, doc, offset)?.items.map((i) => i.label), ['sec:a'], cmd);
  }
});
