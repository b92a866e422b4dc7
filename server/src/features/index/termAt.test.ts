// Which words a hover looks up as an ambiguous term (termAt.ts) and what kind of text a position
// is in (structure/textPlace.ts): only prose, the longest listed phrase under the cursor, plurals by
// their singular, a phrase the index knows around the word kept with it, never a lone everyday
// word or an idiom, never math, comments, the preamble or a label.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LatexDocument } from '../../model/latexDocument.js';
import { clauseAround, modifierOnly, namesCompound, readingDomain, readingEvidence, sentenceAround, sentenceReadings, termAt, titleNames } from './termAt.js';
import { textPlaceAt } from '../structure/textPlace.js';

const TERMS = new Set(['upper bound', 'rectangle', 'loop', 'above', 'left', 'vertex', 'family', 'left adjoint', 'normal', 'space', 'field', 'graph', 'section', 'integral', 'closed', 'word', 'term', 'formula', 'continuous', 'character', 'mean', 'divergence', 'column', 'linear algebra', 'universe', 'structure', 'smooth', 'complex', 'algebra']);
const PHRASES = new Set(['measure space', 'ordered field', 'normal subgroup', 'closed ball', 'lipschitz continuous', 'continuous function']);
const TITLES: Record<string, string[]> = { smooth: ['Definition:Smooth Manifold', 'Definition:Topological Manifold/Smooth Manifold', 'Definition:Smooth Real Function'], complex: ['Definition:Complex (Group Theory)', 'Definition:Complex Number'] };
const lookup = {
  isTerm: (t: string) => TERMS.has(t.toLowerCase()),
  isPhrase: (a: string, b: string) => PHRASES.has(`${a} ${b}`.toLowerCase()),
  titles: (t: string) => TITLES[t.toLowerCase()] ?? [`Definition:${t}`],
};

/** The term at `|` of a body put in a document: "term", "term (marked)", "term [phrase words]". */
function at(body: string, preamble = ''): string | undefined {
  const src = `\\documentclass{article}\n${preamble}\\begin{document}\n${body}\n\\end{document}\n`;
  const offset = src.indexOf('|');
  const doc = new LatexDocument('file:///t.tex', src.replace('|', ''), 1);
  const hit = termAt(doc, offset, lookup);
  return hit && `${hit.term}${hit.marked ? ' (marked)' : ''}${hit.phrase.length ? ` [${hit.phrase.join(' ')}]` : ''}`;
}

function place(body: string): string {
  const src = `\\documentclass{article}\n\\newcommand{\\R}{\\mathbb{R}} % a comment\n\\begin{document}\n${body}\n\\end{document}\n`;
  const offset = src.indexOf('|');
  return textPlaceAt(new LatexDocument('file:///t.tex', src.replace('|', ''), 1), offset);
}

test('term under the cursor: longest phrase, plurals, prose words skipped unless marked', () => {
  assert.equal(at('Both lo|ops are based at $x$.'), 'loop');
  assert.equal(at('the ver|tices of $G$'), 'vertex');
  assert.equal(at('two famil|ies of sets'), undefined, 'an everyday word alone');
  assert.equal(at('By Lemma~\\ref{x} ab|ove, we have'), undefined);
  assert.equal(at('the le|ft side equals'), undefined);
  assert.equal(at('$F$ is a le|ft adjoint of $G$'), 'left adjoint');
  assert.equal(at('we call it \\emph{le|ft} here'), 'left (marked)');
});

test('a word inside a phrase the index knows is that phrase; a neighbour that makes none is a boundary', () => {
  assert.equal(at('Let $(X,\\mathcal M,\\mu)$ be a measure sp|ace.'), 'space [measure]');
  assert.equal(at('Let $F$ be an ordered fi|eld and $x \\in F$.'), 'field [ordered]');
  assert.equal(at('a nor|mal subgroup of $G$'), 'normal [subgroup]');
  assert.equal(at('Then show that the clo|sed ball is compact'), 'closed [ball]');
  assert.equal(at('$f$ is Lipschitz contin|uous.'), 'continuous [Lipschitz]');
  assert.equal(at('If the gr|aph of a function looks locally like a line'), 'graph');
  assert.equal(at('The gr|aph looks like a line'), 'graph', 'a verb after it is no phrase');
  assert.equal(at('Let $F$ be a fi|eld and $x \\in F$.'), 'field');
  assert.equal(at('a fi|eld\n$F$'), 'field');
  assert.equal(at('the Haar char|acter of $G$'), undefined, 'a modifier making a phrase the index does not know');
  assert.equal(at('The Kullback-Leibler diverg|ence is'), undefined);
  assert.equal(at('there are only two col|umns'), 'column', 'a number is no modifier');
  assert.equal(at('two independent col|umns'), undefined);
  assert.equal(at('a real or comp|lex Lie group'), undefined, 'a capitalised name after it');
  assert.equal(at('and smo|oth open embeddings'), undefined, 'a word the index only uses as a modifier, before a noun');
  assert.equal(at('Let $f$ be smo|oth.'), 'smooth');
  assert.equal(at('conditional $f$-diverg|ences'), undefined, 'a compound with math');
  assert.equal(at('a $\\sigma$-alg|ebra on $X$'), undefined);
});

test('capitals inside a sentence make a title or a name, not a term', () => {
  assert.equal(at('landscapes in Linear Alge|bra.'), undefined);
  assert.equal(at('versions of our Univ|erse with'), undefined);
  assert.equal(at('Linear alge|bra is'), 'Linear algebra');
  assert.equal(at('Done.\nCol|umns in $C$'), 'Column', 'at the start of a sentence');
});

test('idioms and everyday words are no terms', () => {
  assert.equal(at('In other wo|rds, zeros are isolated.'), undefined);
  assert.equal(at('Solve for $y$ in te|rms of $x$.'), undefined);
  assert.equal(at('there is no simple form|ula for it'), undefined);
  assert.equal(at('See the next sec|tion.'), undefined);
  assert.equal(at('a \\emph{form|ula} of first-order logic'), 'formula (marked)');
  assert.equal(at('This me|ans that $f$ is continuous'), undefined);
  assert.equal(at('by me|ans of a limit'), undefined);
  assert.equal(at('with a ringType struct|ure'), undefined);
  assert.equal(at('the arithmetic me|an of the data'), undefined, 'an unknown modifier');
  assert.equal(at('the me|an of the data'), 'mean');
  assert.equal(at('has a least up|per bound,'), undefined, 'a superlative makes another term (the supremum)');
  assert.equal(at('an up|per bound of $E$'), 'upper bound');
});

test('terms only in prose: not in math, comments, the preamble, labels, references or other names', () => {
  assert.equal(at('Let $\\mathrm{sp|ace}$ be'), undefined);
  assert.equal(at('\\begin{equation}\n  \\text{a measure sp|ace } X\n\\end{equation}'), 'space [measure]', '\\text inside math is prose');
  assert.equal(at('\\begin{equation}\n  sp|ace = 1\n\\end{equation}'), undefined);
  assert.equal(at('% a measure sp|ace\nText.'), undefined);
  assert.equal(at('Text.', '% a measure sp|ace\n'), undefined);
  assert.equal(at('\\section{Graphs}\\label{sec:gr|aph}'), undefined);
  assert.equal(at('see \\ref{dalemb:sect|ion}'), undefined);
  assert.equal(at('\\begin{fi|eld}\\end{field}'), undefined);
  assert.equal(at('\\section{The gr|aph of a map}'), 'graph', 'a section title is prose');
  assert.equal(at('\\begin{theorem}[Gr|aphs of maps]\nText.\n\\end{theorem}'), 'Graph', 'a statement title is prose');
});

test('text place: prose, math (inline and display), comments, preamble, command arguments', () => {
  assert.equal(place('Some pr|ose.'), 'prose');
  assert.equal(place('Inline $x^|2$ math.'), 'math');
  assert.equal(place('Inline \\(x^|2\\) math.'), 'math');
  assert.equal(place('After $x$ and $y$ back in pr|ose.'), 'prose');
  assert.equal(place('An escaped \\$5 is pr|ose.'), 'prose');
  assert.equal(place('$$ a + b = c |$$'), 'math');
  assert.equal(place('\\[ a \\text{ for all |x} \\]'), 'prose');
  assert.equal(place('\\[ a \\text{ for all $|x$} \\]'), 'math');
  assert.equal(place('Text % a com|ment'), 'comment');
  assert.equal(place('\\label{a:|b}'), 'argument');
  assert.equal(place('\\cite[p.~3]{ke|y}'), 'argument');
  assert.equal(place('\\cite[p.~|3]{key}'), 'argument');
  assert.equal(place('\\emph{an em|phasis}'), 'prose');
  assert.equal(place('\\textcolor{r|ed}{text}'), 'argument');
  assert.equal(place('\\textcolor{red}{te|xt}'), 'prose');
  assert.equal(place('\\footnote{A {nested} no|te}'), 'prose');
  assert.equal(place('\\includegraphics[width=3cm]{fig|ure}'), 'argument');
  assert.equal(place('\\item[(a)] an it|em'), 'prose');
  assert.equal(place('a closed rectangle\\index{rect|angle}'), 'argument', 'an index entry is read in the index, not here');
});

test('a word the index only uses as a modifier', () => {
  assert.ok(modifierOnly('smooth', ['Definition:Smooth Manifold', 'Definition:Topological Manifold/Smooth Manifold']));
  assert.ok(!modifierOnly('complex', ['Definition:Complex (Group Theory)', 'Definition:Complex Number']));
  assert.ok(!modifierOnly('closed', ['Definition:Closed Set', 'Definition:Closed (Topology)']));
  assert.ok(!modifierOnly('x', []));
});

test('a title that makes a noun term the modifier of another noun names another thing', () => {
  assert.ok(namesCompound('mean', 'Definition:Mean Deviation'));
  assert.ok(!namesCompound('mean', 'Definition:Arithmetic Mean'));
  assert.ok(!namesCompound('upper bound', 'Definition:Upper Bound of Set'));
  assert.ok(!namesCompound('measure', 'Definition:Measure (Measure Theory)'));
  assert.ok(!namesCompound('column', 'Definition:Matrix/Column'));
  assert.ok(!namesCompound('bounded', 'Definition:Bounded Sequence'), 'an adjective modifies by nature');
});

test('the readings of a phrase name its words as written, plurals aside', () => {
  assert.ok(titleNames('Definition:Differentiable Function', ['differentiable']));
  assert.ok(!titleNames('Definition:Differentiable Functional', ['function']));
  assert.ok(!titleNames('Definition:Measurable Space', ['measure']));
  assert.ok(titleNames('Definition:Measure Space', ['measures']));
});

test('a reading is shown only where the context says something of its domain', () => {
  assert.ok(readingEvidence('Definition:Matrix/Column', 'column', 'the first column of the matrix $A$'));
  assert.ok(!readingEvidence('Definition:Product of Cardinals', 'product', 'The products fill the row space of $A$.'));
  assert.ok(!readingEvidence('Definition:Integral (Calculus)', 'integral', 'the integrals of the two functions agree on all measurable sets'));
  assert.ok(readingEvidence('Definition:Measure (Measure Theory)', 'measure', 'for a measure $\\xi$ on $\\{0,1\\}$'), 'no domain word beyond the term');
  assert.ok(readingEvidence('Definition:Composition of Morphisms', 'composition', 'If you have three morphisms $f$, $g$, $h$'));
  assert.ok(!readingEvidence('Definition:Height of Prime Ideal', 'height', 'verification of RH up to height $T$ for the prime number theorem'));
  assert.ok(!readingEvidence('Definition:Integral Element of Ring Extension', 'integral', 'the integrals of measurable functions, by the extensionality theorem'));
  assert.ok(!readingEvidence('Definition:Compactification', 'compact', 'and $K_1 \\times [0, 1]$ is compact'), 'another word than the term');
  assert.ok(!readingEvidence('Definition:Differentiable Functional', 'differentiable', 'A function $f$ is differentiable if'));
  assert.ok(readingEvidence('Definition:Matrix/Column', 'column', 'the columns of these matrices'));
  assert.ok(readingEvidence('Definition:Completion (Normed Division Ring)', 'completion', 'the completions of $N$ at the infinite places; the ring of adeles'));
  assert.ok(readingEvidence('Definition:Linearly Independent', 'independent', 'two independent columns'));
});

test('a reading\'s objects are all named around it; a field in parentheses only where nothing else says the domain (issue 36)', () => {
  // the kernel of a ring homomorphism is no kernel of a homomorphism of differential complexes
  assert.deepEqual(readingDomain('Definition:Kernel of Homomorphism of Differential Complexes', 'kernel'), { objects: ['homomorphism', 'complex'], field: [] });
  assert.ok(!readingEvidence('Definition:Kernel of Homomorphism of Differential Complexes', 'kernel', 'Let $\\varphi\\colon R \\to S$ be a ring homomorphism. The kernel of $\\varphi$ is an ideal.'));
  assert.ok(readingEvidence('Definition:Kernel of Ring Homomorphism', 'kernel', 'Let $\\varphi\\colon R \\to S$ be a ring homomorphism. The kernel of $\\varphi$ is an ideal.'));
  // a closed subset of a topological space is no multiplicatively closed subset of a ring
  assert.ok(!readingEvidence('Definition:Multiplicatively Closed Subset of Ring', 'closed subset', 'Let $X$ be a topological space. Every closed subset of a compact space is compact.'));
  // the field in parentheses is rarely written out: the object after it says the domain
  assert.deepEqual(readingDomain('Definition:Spectrum (Spectral Theory)/Bounded Linear Operator', 'spectrum'), { objects: ['operator'], field: ['spectral'] });
  assert.ok(readingEvidence('Definition:Spectrum (Spectral Theory)/Bounded Linear Operator', 'spectrum', 'Let $T$ be a bounded operator on a Hilbert space. The spectrum of $T$ is compact.'));
  assert.ok(readingEvidence('Definition:Trace (Linear Algebra)/Matrix', 'trace', 'Let $A$ be a square matrix. The trace of $A$ is the sum of its eigenvalues.'));
});

test('the sentence\'s own objects decide between readings the paragraph allows (issue 36)', () => {
  const text = 'Let $G$ be a group of order $15$. The number of Sylow $5$-subgroups divides $3$, so the Sylow $5$-subgroup is normal. Hence';
  const sentence = sentenceAround(text, text.indexOf('normal'));
  assert.equal(sentence, 'The number of Sylow $5$-subgroups divides $3$, so the Sylow $5$-subgroup is normal');
  const readings = [{ title: 'Definition:Normal Number' }, { title: 'Definition:Normal Subgroup' }, { title: 'Definition:Normal' }];
  // in the clause: the subgroup, and the reading with no domain of its own
  assert.deepEqual(sentenceReadings(readings, 'normal', 'so the Sylow $5$-subgroup is normal').map((r) => r.title), ['Definition:Normal Subgroup', 'Definition:Normal']);
  assert.deepEqual(sentenceReadings(readings, 'normal', 'the space is normal').map((r) => r.title), readings.map((r) => r.title), 'nothing named: all stay');
  // the clause first: "number" is in the sentence, but not in the term's clause
  const at = text.indexOf('normal');
  assert.equal(clauseAround(text, at).trim(), 'the Sylow $5$-subgroup is normal');
  assert.deepEqual(sentenceReadings(readings, 'normal', clauseAround(text, at), sentence).map((r) => r.title), ['Definition:Normal Subgroup', 'Definition:Normal']);
  assert.deepEqual(sentenceReadings(readings, 'normal', 'it is normal', sentence).map((r) => r.title), readings.map((r) => r.title), 'the sentence names both: all stay');
});
