// ProofWiki's notation macros written out wherever an indexed text is shown.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { expandProofWikiMacros } from './proofwikiMacros.js';

test('ProofWiki\'s macros become standard LaTeX; other text is left as it is', () => {
  // (each expansion with arguments is a brace group, as TeX reads it)
  assert.equal(
    expandProofWikiMacros('Let $\\map f x = \\paren {x + 1}^2$ on $\\closedint a b$ and $\\struct {G, \\circ}$.'),
    'Let ${f\\left(x\\right)} = {\\left(x + 1\\right)}^2$ on ${\\left[a \\,.\\,.\\, b\\right]}$ and ${\\left(G, \\circ\\right)}$.',
  );
  assert.equal(expandProofWikiMacros('$\\ds \\sum_{k \\mathop = 1}^n k$ in $\\R$'), '$\\displaystyle \\sum_{k \\mathop = 1}^n k$ in $\\mathbb{R}$');
  assert.equal(expandProofWikiMacros('no macros here'), 'no macros here');
  // a control word before an argument keeps its space: `\langle x_n`, never `\langlex_n`
  assert.equal(expandProofWikiMacros('$\\sequence {x_n}$'), '${\\left\\langle x_n\\right\\rangle}$');
  assert.equal(expandProofWikiMacros('$\\norm {v}$'), '${\\left\\lVert v\\right\\rVert}$');
  // a long page, paragraph by paragraph: every one written out
  const long = Array.from({ length: 300 }, (_, i) => `$\\paren {${i}}$`).join('\n\n');
  assert.doesNotMatch(expandProofWikiMacros(long), /\\paren/);
});
