// The diagnostics manager: one path for the server and `mathsense check`. Structure, references
// and derivation steps merged through the gate; what needs the whole project held back while it
// loads and published complete afterwards; a background derivation check publishing the
// document again at its version.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { Workspace, type Doc } from '../project/workspace.js';
import { DerivationChecker } from '../math/checker.js';
import { DerivationService, inProcessRunner } from '../math/service.js';
import { guards } from '../util/guard.js';
import { defaultDiagnosticSettings } from '../features/diagnostics/documentDiagnostics.js';
import { defaultDerivationSettings } from '../features/equations/derivation.js';
import { DiagnosticsManager } from './diagnosticsManager.js';
import { BackgroundDerivations, ImmediateDerivations } from './derivationSources.js';

const TEXT = [
  '\\documentclass{article}',
  '\\begin{document}',
  '\\begin{theorem}\\label{thm:a} Text. \\end{theorem}',
  'See \\ref{thm:a} and \\ref{thm:missing}.',
  '\\begin{equation}',
  '(a - b)(a + b) = a^2 + ab - ba - b^2 = a^2 + b^2',
  '\\end{equation}',
  '\\end{document}',
  '',
].join('\n');

const settings = { diagnostics: defaultDiagnosticSettings, derivations: defaultDerivationSettings };
const codes = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.range.start.line}:${d.code}`).sort();

function openDoc(ws: Workspace, text = TEXT): Doc {
  return ws.open('file:///fx/main.tex', 'latex', 1, text);
}

test('check: references and derivation steps in one list, through the gate', () => {
  const ws = new Workspace();
  const doc = openDoc(ws);
  const m = new DiagnosticsManager(ws, { settingsFor: () => settings, derivations: new ImmediateDerivations(new DerivationChecker()), guard: guards(() => {}, () => true).guard });
  assert.deepEqual(codes(m.diagnose(doc)), ['3:undefined-ref', '5:derivation-step']);
  assert.equal(m.steps(doc).filter((s) => s.verdict.kind === 'refuted').length, 1, 'the steps stay readable for hover and code actions');
  // without derivations: the rest unchanged
  const plain = new DiagnosticsManager(ws, { settingsFor: () => settings, guard: guards(() => {}, () => true).guard });
  assert.deepEqual(codes(plain.diagnose(doc)), ['3:undefined-ref']);
});

test('server: held back while the project loads, published complete once it is read', () => {
  const ws = new Workspace();
  const doc = openDoc(ws);
  let loading = true;
  const published: Array<{ uri: string; codes: string[] }> = [];
  const m = new DiagnosticsManager(ws, {
    settingsFor: () => settings,
    projectLoading: () => loading,
    guard: guards(() => {}).guard,
    publish: (d, ds) => published.push({ uri: d.uri, codes: codes(ds) }),
  });
  m.publish(doc);
  assert.deepEqual(published, [{ uri: doc.uri, codes: [] }], 'undefined-ref needs the whole project');
  m.projectLoaded();
  assert.equal(published.length, 1, 'still loading: nothing published again');
  loading = false;
  m.projectLoaded();
  assert.deepEqual(published[1], { uri: doc.uri, codes: ['3:undefined-ref'] });
  m.projectLoaded();
  assert.equal(published.length, 2, 'published again once only');
  m.stop();
});

test('server: a derivation check in the background publishes the document again at its version', async () => {
  const ws = new Workspace();
  const doc = openDoc(ws);
  const errors: string[] = [];
  const published: string[][] = [];
  let checked!: () => void;
  const done = new Promise<void>((r) => { checked = r; });
  const service = new DerivationService(inProcessRunner());
  const m = new DiagnosticsManager(ws, {
    settingsFor: () => settings,
    derivations: new BackgroundDerivations(service, (e) => errors.push(e)),
    guard: guards((e) => errors.push(e)).guard,
    publish: (_d, ds) => { published.push(codes(ds)); if (published.length === 2) checked(); },
  });
  m.publish(doc);
  assert.deepEqual(published[0], ['3:undefined-ref'], 'first answer at once, before the check');
  await done;
  assert.deepEqual(published[1], ['3:undefined-ref', '5:derivation-step']);
  assert.deepEqual(errors, []);
  m.stop();
});

test('a failing part is logged and the rest still published (server guard)', () => {
  const ws = new Workspace();
  const doc = openDoc(ws);
  const errors: string[] = [];
  const m = new DiagnosticsManager(ws, {
    settingsFor: () => settings,
    derivations: { steps: () => { throw new Error('worker gone'); } },
    guard: guards((e) => errors.push(e)).guard,
  });
  assert.deepEqual(codes(m.diagnose(doc)), ['3:undefined-ref']);
  assert.match(errors[0], /^derivations failed: Error: worker gone/);
});

/** A document with `n` displays in the letter `v`, the last one a slip (blocks read are kept per content: tests use their own letter). */
function manyDisplays(n: number, v: string): string {
  const parts = ['\\documentclass{article}', '\\begin{document}'];
  for (let i = 0; i < n; i++) parts.push('', `For $${v} > 0$ we have\n\\begin{equation}\n(${v} + ${i})^2 = ${v}^2 + ${2 * i}${v} + ${i * i}\n\\end{equation}`);
  parts.push('', 'Finally\n\\begin{equation}\n(a - b)(a + b) = a^2 + ab - ba - b^2 = a^2 + b^2\n\\end{equation}', '\\end{document}', '');
  return parts.join('\n');
}

test('server: a document\'s displays are read in slices between turns, then checked and published', { timeout: 60_000 }, async () => {
  const ws = new Workspace();
  const doc = openDoc(ws, manyDisplays(200, 'x'));
  const published: string[][] = [];
  let turns = 0;
  const ticker = setInterval(() => { turns++; }, 0);
  let second!: () => void;
  const done = new Promise<void>((r) => { second = r; });
  const m = new DiagnosticsManager(ws, {
    settingsFor: () => settings,
    // slices of one block each: the reading spans many turns of the event loop
    derivations: new BackgroundDerivations(new DerivationService(inProcessRunner()), () => {}, { sliceMs: 0, budgetMs: 60_000 }),
    guard: guards(() => {}).guard,
    publish: (_d, ds) => { published.push(codes(ds).filter((c) => c.includes('derivation'))); if (published.at(-1)!.length) second(); },
  });
  m.publish(doc);
  assert.deepEqual(published[0], [], 'first answer at once, before the reading ends');
  await done;
  clearInterval(ticker);
  assert.ok(turns > 0, 'timers ran while the displays were read');
  assert.deepEqual(published.at(-1), [`${doc.text.split('\n').length - 4}:derivation-step`]);
  m.stop();
});

test('server: a document over its reading budget is published with a note instead of derivation steps', { timeout: 60_000 }, async () => {
  const ws = new Workspace();
  const doc = openDoc(ws, manyDisplays(50, 'y'));
  const published: Diagnostic[][] = [];
  let noted!: () => void;
  const done = new Promise<void>((r) => { noted = r; });
  const derivations = new BackgroundDerivations(new DerivationService(inProcessRunner()), () => {}, { sliceMs: 0, budgetMs: 0 });
  const m = new DiagnosticsManager(ws, {
    settingsFor: () => settings,
    derivations,
    guard: guards(() => {}).guard,
    publish: (_d, ds) => { published.push(ds); if (ds.some((d) => d.code === 'derivations-skipped')) noted(); },
  });
  m.publish(doc);
  await done;
  const last = published.at(-1)!;
  assert.deepEqual(last.map((d) => `${d.range.start.line}:${d.code}:${d.severity}`), ['0:derivations-skipped:3']);
  assert.match(String(last[0].message), /not checked: reading its displays took over 0 s.*Labels, references and structure are checked/);
  assert.equal(derivations.skipped(doc), last[0].message);
  // the next version reads on from where this one stopped (what was read is kept)
  ws.change(doc.uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '%\n' }], 2);
  assert.equal(derivations.skipped(doc), undefined, 'the note is for the version that ran out');
  m.stop();
});
