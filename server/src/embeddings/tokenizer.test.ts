// Golden tests: token ids of the committed vocabulary are pinned, so a change of tokenizer
// behaviour (which would silently invalidate the shipped model) fails here.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MathTokenizer } from './tokenizer.js';
import { Vocabulary, SPECIAL_TOKENS } from './vocabulary.js';
import { expandMacros, readMacroDefinitions } from './macroExpansion.js';
import { vocabFile } from '../testing/modelPaths.js';

const tok = MathTokenizer.load(vocabFile);

test('golden ids: text words, math letters, commands and symbols', () => {
  const s = 'Let $G$ be a group and $H \\le G$ a subgroup.';
  assert.deepEqual(tok.tokens(s), ['let', '$G', 'be', 'a', 'group', 'and', '$H', '$\\le', '$G', 'a', 'subgroup', '.']);
  assert.deepEqual(tok.encode(s), [813, 74, 815, 643, 900, 812, 78, 111, 74, 643, 1121, 9]);
});

test('golden ids: labels and comments dropped, \\(..\\) is math, unknown text commands', () => {
  const s = '\\begin{lemma}\\label{lemma-x} If $x\\in\\mathbb{R}$ then \\(x^2 \\geq 0\\).\\end{lemma} % comment';
  assert.deepEqual(tok.encode(s), [7, 828, 13, 32, 221, 42, 820, 13, 10, 18, 159, 29, 9]);
});

test('golden ids: a reference reads as its label\'s words; the statement\'s own label and page references stay dropped', () => {
  const s = 'By Lemma \\ref{algebra-lemma-flat-base-change} and \\eqref{eq:mainEstimate}, \\cref{thm:heine-borel,lem3} on page \\pageref{lemma-x}.\\label{lemma-y}';
  assert.deepEqual(tok.tokens(s), ['by', 'lemma', 'algebra', 'flat', 'base', 'change', 'and', 'main', 'estimate', ',', 'heine', 'borel', 'on', 'page', '.']);
  assert.deepEqual(tok.encode(s), [817, 822, 859, 884, 926, 981, 812, 2048, 4543, 15, 3503, 2184, 829, 940, 9]);
});

test('golden ids: word pieces for rare words; \\text{..} inside math is text', () => {
  const s = 'Hypercohomologically $\\text{for all } a$';
  assert.deepEqual(tok.tokens(s), ['hyp', '##erc', '##oh', '##omo', '##logica', '##lly', 'for', 'all', '$a']);
  assert.deepEqual(tok.encode(s), [9921, 8239, 9262, 7414, 8914, 7213, 821, 849, 28]);
});

test('math tokens are distinct from text tokens', () => {
  const [text, math] = tok.encode('a $a$');
  assert.notEqual(text, math);
  assert.equal(tok.vocab.tokens[math], '$a');
});

test('user macros are expanded first', () => {
  const withMacro = tok.encode('\\newcommand{\\R}{\\mathbb{R}} $f: \\R \\to \\R$');
  assert.deepEqual(withMacro, tok.encode('$f: \\mathbb{R} \\to \\mathbb{R}$'));
  const macros = readMacroDefinitions('\\newcommand{\\norm}[1]{\\lVert #1 \\rVert}\\DeclareMathOperator{\\Hom}{Hom}').macros;
  assert.equal(expandMacros('$\\norm{x} + \\Hom(A, B)$', macros), '$\\lVert x \\rVert + \\operatorname{Hom}(A, B)$');
  assert.deepEqual(tok.encode('$\\norm{v}$', { macros }), tok.encode('$\\lVert v \\rVert$'));
});

test('macro expansion is bounded (self-recursive definitions terminate)', () => {
  const macros = readMacroDefinitions('\\newcommand{\\loop}{\\loop\\loop}').macros;
  const out = expandMacros('$\\loop$', macros);
  assert.ok(out.length < 20_000);
});

test('maxTokens stops the scan; empty text gives no ids', () => {
  assert.equal(tok.encode('x '.repeat(10_000), { maxTokens: 16 }).length, 16);
  assert.deepEqual(tok.encode(''), []);
});

test('the vocabulary starts with the special tokens and has a stable hash', () => {
  const v = Vocabulary.load(vocabFile);
  assert.deepEqual(v.tokens.slice(0, SPECIAL_TOKENS.length), [...SPECIAL_TOKENS]);
  assert.equal(v.size, 12000);
  assert.equal(v.hash, 'bbd518d756ab5ace');
});
