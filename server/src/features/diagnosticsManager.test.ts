// The diagnostics manager: one path for the server and `mathsense check`. Structure, references
// and derivation steps merged through the gate; what needs the whole project held back while it
// loads and published complete afterwards; a background derivation check publishing the
// document again at its version.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver';
import { Workspace, type Doc } from '../project/workspace.js';
import { DerivationChecker } from '../math/checker.js';
import { DerivationService, inProcessRunner } from '../math/service.js';
import { guards } from '../util/guard.js';
import { defaultDiagnosticSettings } from './diagnostics.js';
import { defaultDerivationSettings } from './derivation.js';
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
