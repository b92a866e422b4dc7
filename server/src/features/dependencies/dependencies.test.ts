// The dependency graph on fixtures: which statement each reference, `\uses` and mention lands in,
// how proofs attach, what call hierarchy, lenses and the hover line say, the checks, and that an
// edit to one proof re-reads one document and gives the graph a fresh build gives.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture, type Fixture } from '../../testing/fixture.js';
import { expect } from '../../testing/snapshot.js';
import { check } from '../../testing/snapshot.js';
import { checkDiagnostics, cursorOf } from '../../testing/featureChecks.js';
import { Workspace } from '../../project/workspace.js';
import { dependencyIndex, type DependencyIndex } from '../../analysis/dependencies/dependencyGraph.js';
import { documentUses, documentUsesSteps } from '../../analysis/dependencies/documentUses.js';
import { dependencyGraph } from './graphView.js';
import { incomingCalls, outgoingCalls, prepareCallHierarchy } from './callHierarchy.js';
import { dependencyLenses, dependencyLine } from './dependencyLenses.js';
import { defaultDiagnosticSettings } from '../diagnostics/checkContext.js';

/** Every edge of the compilation of `file`, one a line: `from -> to kind/where`. */
function edges(fx: Fixture, file: string): string {
  const r = dependencyGraph(fx.ws, { doc: fx.doc(file), scope: 'whole' });
  return r.edges.map((e) => `${e.from} -> ${e.to} ${e.kind}/${e.where}`).join('\n');
}

const BOOK = String.raw`
%! main.tex
\documentclass{book}
\newtheorem{theorem}{Theorem}[chapter]
\newtheorem{lemma}[theorem]{Lemma}
\newcommand{\lemref}[1]{Lemma~\ref{lem:#1}}
\begin{document}
\chapter{One}
\input{one}
\end{document}
%! one.tex
\begin{lemma}[Zorn's lemma]\label{lem:zorn}
Every chain has a bound.
\end{lemma}
\begin{lemma}\label{lem:base}
An equation
\begin{equation}\label{eq:base} a = b \end{equation}
\end{lemma}
\begin{proof}
See Section~\ref{sec:none}, and the proof is trivial.
\end{proof}
\begin{theorem}\label{thm:main}
By \eqref{eq:base}, things hold.
\end{theorem}
\begin{proof}
By \lemref{base} and by Zorn's lemma. As in the proof of Lemma~\ref{lem:zorn}, done.
\end{proof}
\begin{lemma}\label{lem:late}
Later.
\end{lemma}
\begin{proof}[Proof of Theorem~\ref{thm:main}, again]
By Lemma 1.4 we are done.
\end{proof}
`;

test('edges: references in a statement and its proof, equations to their statement, sections to nothing, macros, names and numbers', () => {
  const fx = fixture(BOOK);
  check(edges(fx, 'main.tex'), expect`
    thm:main -> lem:base explicit/statement
    thm:main -> lem:base explicit/proof
    thm:main -> lem:zorn explicit/proof
    thm:main -> lem:late byName/proof
  `);
});

test('a proof attaches to the statement before it (a remark between does not count), or to the one its optional argument names', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{lemma}\label{a}A.\end{lemma}
\begin{definition}\label{d}D.\end{definition}
\begin{proof}Of nothing: \ref{a}.\end{proof}
\begin{lemma}\label{b}B.\end{lemma}
\begin{proof}[Proof of Lemma~\ref{a}]By Lemma~\ref{b}.\end{proof}
\begin{lemma}\label{c}C.\end{lemma}
\begin{remark}Said in passing.\end{remark}
\begin{proof}By Lemma~\ref{b}.\end{proof}
\end{document}
`);
  check(edges(fx, 'main.tex'), expect`
    a -> b explicit/proof
    c -> b explicit/proof
  `);
});

test('in a blueprint, proofs attach as plastexdepgraph attaches them: a remark before a proof takes it, \\proves names the statement, and a \\proves of no label falls back to the statement before', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{lemma}\label{a}A.\end{lemma}
\begin{lemma}\label{b}B.\end{lemma}
\begin{proof}\proves{a}\uses{b}\end{proof}
\begin{lemma}\label{c}C.\end{lemma}
\begin{remark}Said in passing.\end{remark}
\begin{proof}\uses{b}\end{proof}
\begin{lemma}\label{e}E.\end{lemma}
\begin{proof}\proves{Lean.name_of_e}\uses{c}\end{proof}
\end{document}
`);
  check(edges(fx, 'main.tex'), expect`
    a -> b explicit/proof
    e -> c explicit/proof
  `);
});

const BLUEPRINT = String.raw`
%! content.tex
\documentclass{report}
\begin{document}
\begin{definition}\label{def:a}\lean{A}\leanok A.\end{definition}
\begin{lemma}\label{lem:b}\uses{def:a}\leanok B.\end{lemma}
\begin{proof}\uses{lem:c}\leanok\end{proof}
\begin{lemma}\label{lem:c}\uses{def:a}\notready C.\end{lemma}
\begin{proof}\uses{lem:b}\end{proof}
\begin{theorem}\label{thm:d}\uses{lem:c} D.\end{theorem}
\begin{proof}\uses{lem:b, lem:c}\leanok\end{proof}
\end{document}
`;

test('blueprints: \\uses in statements and proofs, the marks, ready', () => {
  const fx = fixture(BLUEPRINT);
  const r = dependencyGraph(fx.ws, { doc: fx.doc('content.tex'), scope: 'whole' });
  assert.equal(r.blueprint, true);
  check(r.nodes.map((n) => `${n.id} ${n.status} ${JSON.stringify(n.blueprint)}`).join('\n'), expect`
    def:a definition {"statementDone":true,"proofDone":true,"mathlib":false,"notReady":false,"ready":true,"proofReady":true,"lean":["A"]}
    lem:b proved {"statementDone":true,"proofDone":true,"mathlib":false,"notReady":false,"ready":true,"proofReady":false}
    lem:c proved {"statementDone":false,"proofDone":false,"mathlib":false,"notReady":true,"ready":true,"proofReady":true}
    thm:d proved {"statementDone":false,"proofDone":true,"mathlib":false,"notReady":false,"ready":false,"proofReady":false}
  `);
  dependencyIndex(fx.ws);
  // lem:b's proof and lem:c's proof use each other; lem:c is \notready though all it uses is
  // formalized; thm:d's proof is formalized, its statement is not
  checkDiagnostics(fx, 'content.tex', expect`
    5:20-5:25 warning proof-cycle: Circular proofs: Lemma lem:b → Lemma lem:c → Lemma lem:b (each uses the next)
    7:20-7:25 warning proof-cycle: Circular proofs: Lemma lem:b → Lemma lem:c → Lemma lem:b (each uses the next)
    5:20-5:25 information used-before-stated: Lemma lem:c is used here before it is stated (content.tex:6)
    6:1-6:14 information blueprint-ready: Every result Lemma lem:c uses is formalized: it is ready to be formalized (remove \notready)
    8:1-8:16 warning blueprint-marks: The proof of Theorem thm:d is marked \leanok but its statement is not: mark the statement \leanok too
  `);
});

test('call hierarchy: incoming are the users, outgoing what the statement and its proof use, with the places', () => {
  const fx = fixture(BOOK.replace('\\begin{theorem}\\label{thm:main}', '\\begin{theorem}<|>\\label{thm:main}'));
  const { doc, offset } = cursorOf(fx);
  const [item] = prepareCallHierarchy(fx.ws, doc, offset)!;
  assert.equal(item.name, 'Theorem thm:main');
  const out = outgoingCalls(fx.ws, item).map((c) => `${c.to.name} ${c.to.detail} at ${c.fromRanges.map((r) => `${r.start.line + 1}:${r.start.character + 1}`).join(' ')}`);
  check(out.join('\n'), expect`
    Lemma lem:base one.tex:4 at 12:11 15:12
    Lemma (Zorn's lemma) lem:zorn · one.tex:1 at 15:69
    Lemma lem:late one.tex:17 at 21:4
  `);
  const zorn = prepareCallHierarchy(fx.ws, doc, doc.text.indexOf('lem:zorn'))!;
  check(incomingCalls(fx.ws, zorn[0]).map((c) => `${c.from.name} ${c.from.detail}`).join('\n'), expect`Theorem thm:main one.tex:11`);
});

test('lens and hover line: uses and used by, by name', () => {
  const fx = fixture(BOOK);
  dependencyIndex(fx.ws);
  const doc = fx.doc('one.tex');
  check(dependencyLenses(fx.ws, doc, { graphView: false }).map((l) => `${l.range.start.line + 1}: ${l.command!.title}`).join('\n'), expect`
    1: uses 0 · used by 1
    4: uses 0 · used by 1
    11: uses 3 · used by 0
    17: uses 0 · used by 1
  `);
  check(dependencyLine(fx.ws, doc, doc.text.indexOf('thm:main'))!, expect`
    *Uses Lemma \`lem:base\`, Lemma \`lem:zorn\`, Lemma \`lem:late\` · used by nothing yet*
  `);
});

test('unused statements: off by default; lemmas nothing uses, not the last result of a section', () => {
  const spec = String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\section{A}
\begin{lemma}\label{a}A.\end{lemma}
\begin{lemma}\label{b}B.\end{lemma}
\begin{proof}By Lemma~\ref{a}.\end{proof}
\begin{lemma}\label{c}C.\end{lemma}
\begin{lemma}\label{d}D.\end{lemma}
\end{document}
`;
  const fx = fixture(spec);
  dependencyIndex(fx.ws);
  checkDiagnostics(fx, 'main.tex', expect``);
  checkDiagnostics(fx, 'main.tex', expect`
    5:1-5:14 hint unused-statement: Lemma b is never used: no reference, \uses or mention by name in this project
    7:1-7:14 hint unused-statement: Lemma c is never used: no reference, \uses or mention by name in this project
  `, { ...defaultDiagnosticSettings, unusedStatements: true });
});

test('no cycle from a mention in passing, a conclusion, a hypothesis cited by its equation, or a statement pointing ahead', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{lemma}\label{a}A; compare Lemma~\ref{b}.\end{lemma}
\begin{proof}As in the proof of Lemma~\ref{b}.\end{proof}
\begin{lemma}\label{b}B.\end{lemma}
\begin{proof}By Lemma~\ref{a}.\end{proof}
\begin{theorem}\label{main}Under \begin{equation}\label{hyp} x > 0 \end{equation} it holds.\end{theorem}
\begin{proof}By Lemma~\ref{c}.\end{proof}
\begin{lemma}\label{c}Assume \eqref{hyp}. Then C.\end{lemma}
\begin{proof}Directly. This completes the proof of Lemma~\ref{c} and thus Theorem~\ref{main}.\end{proof}
\end{document}
`);
  dependencyIndex(fx.ws);
  checkDiagnostics(fx, 'main.tex', expect`
    8:28-8:29 information used-before-stated: Lemma c is used here before it is stated (main.tex:9)
  `);
});

/** Every node and edge, to compare an updated graph with a fresh one. */
function dump(g: DependencyIndex): string {
  const lines: string[] = [];
  for (const d of g.documents().sort((a, b) => a.uri.localeCompare(b.uri))) {
    for (const n of g.nodesIn(d)) {
      lines.push(`${d.uri}#${n.su.ordinal} ${n.su.st.labels.map((l) => l.name).join(',')}`);
      for (const e of g.uses(n.key)) { const t = g.node(e.to)!; lines.push(`  -> ${t.doc.uri}#${t.su.ordinal} ${e.kind}/${e.where}`); }
      for (const e of g.usedBy(n.key).sort((a, b) => a.from.localeCompare(b.from))) { const f = g.node(e.from)!; lines.push(`  <- ${f.doc.uri}#${f.su.ordinal}`); }
    }
  }
  return lines.join('\n');
}

test('an edit updates the graph: a proof re-reads one document; a label renamed elsewhere re-resolves its users; the result is a fresh build\'s', () => {
  const fx = fixture(BOOK);
  const g = dependencyIndex(fx.ws);
  const one = fx.doc('one.tex');
  const fresh = () => {
    const ws = new Workspace({ fs: fx.fs });
    for (const d of fx.ws.all()) ws.open(d.uri, 'latex', 1, d.text);
    return dump(dependencyIndex(ws));
  };
  const edit = (from: string, to: string) => {
    const at = one.text.indexOf(from);
    assert.ok(at >= 0, from);
    fx.ws.edit(one.uri, [{ range: { start: one.positionAt(at), end: one.positionAt(at + from.length) }, text: to }], one.version + 1);
    return dependencyIndex(fx.ws);
  };
  // typing that says nothing new moves the statements, and what the graph says stays (the session
  // re-checks open documents only when it changes)
  const meant = g.meaningVersion;
  edit('See Section', 'So, see Section');
  assert.deepEqual(g.lastSync, { reread: 1, full: false });
  assert.equal(g.meaningVersion, meant);
  edit('and the proof is trivial', 'and by Lemma~\\ref{lem:late} it is trivial');
  assert.deepEqual(g.lastSync, { reread: 1, full: false });
  assert.notEqual(g.meaningVersion, meant);
  assert.equal(dump(g), fresh());
  edit('\\label{lem:late}', '\\label{lem:later}');
  assert.equal(g.lastSync.full, false);
  assert.equal(dump(g), fresh());
  edit('\\begin{lemma}\\label{lem:later}', '\\begin{lemma}[Later]\\label{lem:later}');
  assert.equal(g.lastSync.full, true);
  assert.equal(dump(g), fresh());
});

test('by name: a whole name with its kind word, a name of the project\'s own unnumbered kind, "the previous lemma"; a proof after a statement wrapped in samepage', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\newtheorem{thm}{Theorem}
\newtheorem{lemma}[thm]{Lemma}
\newtheorem*{wop}{Well ordering property of $\mathbb{N}$}
\begin{document}
\begin{wop}\label{wop}Every set has a least element.\end{wop}
\begin{thm}[Mean value theorem]\label{mvt}M.\end{thm}
\begin{thm}[Mean-value property]\label{mvp}H.\end{thm}
\begin{samepage}
\begin{lemma}\label{a}A.\end{lemma}
\end{samepage}
\begin{proof}By the mean value theorem, and by the \hyperlink{w}{well ordering property}.\end{proof}
\begin{lemma}\label{b}B.\end{lemma}
\begin{proof}By the previous lemma.\end{proof}
\end{document}
`);
  check(edges(fx, 'main.tex'), expect`
    a -> mvt byName/proof
    a -> wop byName/proof
    b -> a byName/proof
  `);
});

test('labels and references made through the project\'s own stateful macros are edges; a kind named by a language macro prints its word; no number is counted within chapters the source does not show', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\usepackage{thmtools,cleveref}
\newcommand*{\theolpart}{udf}
\newcommand*{\theolsection}{udf}
\DeclareDocumentCommand \olfileid { m m }{\renewcommand*{\theolpart}{#1}\renewcommand*{\theolsection}{#2}}
\newcommand*{\ollabel}[1]{\label{\theolpart:\theolsection:#1}}
\DeclareDocumentCommand \olref { o o m }{\cref{\IfNoValueTF{#1}{\theolpart:\theolsection}{\IfNoValueTF{#2}{\theolpart:#1}{#1:#2}}:#3}}
\declaretheorem[name=\lemmaname, numberwithin=chapter]{lem}
\newcommand{\olchapter}[1]{\chapter{#1}}
\begin{document}
\olchapter{One}
\input{a}
\input{b}
\end{document}
%! a.tex
\olfileid{fol}{syn}
\begin{lem}\ollabel{lem:base} Base. \end{lem}
%! b.tex
\olfileid{fol}{sem}
\begin{lem}\ollabel{lem:main} Main, by \olref{lem:aux}. \end{lem}
\begin{proof} By \olref[syn]{lem:base} and \olref[set][pai]{lem:none}. \end{proof}
\begin{lem}\ollabel{lem:aux} Aux. \end{lem}
`);
  check(edges(fx, 'main.tex'), expect`
    fol:sem:lem:main -> fol:sem:lem:aux explicit/statement
    fol:sem:lem:main -> fol:syn:lem:base explicit/proof
  `);
  const g = dependencyGraph(fx.ws, { doc: fx.doc('main.tex'), scope: 'whole' });
  check(g.nodes.map((n) => `${n.id} ${n.kind} ${n.number ?? '(no number)'}`).join('\n'), expect`
    fol:syn:lem:base Lemma (no number)
    fol:sem:lem:main Lemma (no number)
    fol:sem:lem:aux Lemma (no number)
  `);
});

test('a chapter\'s uses are read in slices: documentUsesSteps pauses within a long document and gives what documentUses gives', () => {
  const body = Array.from({ length: 600 }, (_, i) => `\\begin{lemma}\\label{lem:${i}}\nStatement ${i}.\n\\end{lemma}\n\\begin{proof}\nBy \\ref{lem:${Math.max(0, i - 1)}}.\n\\end{proof}\n`).join('');
  const spec = `%! long.tex\n\\documentclass{article}\n\\newtheorem{lemma}{Lemma}\n\\begin{document}\n${body}\\end{document}\n`;
  const sliced = fixture(spec);
  const steps = documentUsesSteps(sliced.ws, sliced.doc('long.tex'));
  let pauses = 0;
  let r = steps.next();
  while (!r.done) { pauses++; r = steps.next(); }
  assert.ok(pauses > 3, `paused ${pauses} times`);
  const whole = fixture(spec);
  const at = documentUses(whole.ws, whole.doc('long.tex'));
  const shape = (u: typeof at) => u.statements.map((s) => `${s.st.labels[0]?.name}: ${s.proofs.length} proof(s), uses ${s.uses.map((x) => x.name).join(',')}`).join('\n');
  assert.equal(r.value.statements.length, 600);
  assert.equal(shape(r.value), shape(at));
});
