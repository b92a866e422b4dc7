// The VS Code client's pure modules (compiled by `tsc -b client` to client/out): workspace-trust
// filtering of path settings, the status bar text, and the statement extraction behind the
// results panel. The parts that need VS Code are covered by test/e2e (code-server).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'client', 'out');
const { sanitizeSettings, isInside } = require(path.join(out, 'trust.js'));
const { statusView, providerName } = require(path.join(out, 'status.js'));
const { enclosingEnvironment, statementLatex, labelAt } = require(path.join(out, 'statements.js'));
const { panelTitle } = require(path.join(out, 'panelTitle.js'));

test('trust: untrusted workspaces drop model/index paths outside the extension, keep the rest', () => {
  const ext = '/opt/ext/mathsense';
  const settings = { accelerator: 'cuda', models: { path: '/home/me/evil-models' }, index: { path: './index', sources: ['proofwiki'] }, diagnostics: { unusedLabels: true } };
  const trusted = sanitizeSettings(settings, { trusted: true, extensionPath: ext });
  assert.equal(trusted.settings, settings);
  assert.deepEqual(trusted.dropped, []);

  const { settings: s, dropped } = sanitizeSettings(settings, { trusted: false, extensionPath: ext });
  assert.equal(s.models.path, undefined);
  assert.equal(s.index.path, undefined, 'a relative path is resolved by the server, not inside the extension: dropped');
  assert.deepEqual(s.index.sources, ['proofwiki'], 'source ids are not paths');
  assert.equal(s.accelerator, 'cuda');
  assert.deepEqual(s.diagnostics, { unusedLabels: true });
  assert.deepEqual(dropped.map((d) => d.key).sort(), ['mathsense.index.path', 'mathsense.models.path']);
  assert.equal(settings.models.path, '/home/me/evil-models', 'the input is not modified');

  assert.deepEqual(sanitizeSettings({ models: { path: '' } }, { trusted: false, extensionPath: ext }).dropped, []);
  assert.deepEqual(sanitizeSettings({ models: { path: `${ext}/models` } }, { trusted: false, extensionPath: ext }).dropped, []);
  assert.equal(sanitizeSettings({ models: { path: `${ext}/../x` } }, { trusted: false, extensionPath: ext }).dropped.length, 1);
  assert.equal(sanitizeSettings({ models: { path: 42 } }, { trusted: false, extensionPath: ext }).dropped.length, 1);
  assert.deepEqual(sanitizeSettings({ index: { path: `${ext}/build/index` } }, { trusted: false, extensionPath: ext }).dropped, []);
  assert.ok(isInside(`${ext}/models`, ext) && !isInside('models', ext) && !isInside('/opt/ext/mathsense-other', ext));
});

test('status bar: provider when the server reports one, MathSense and progress otherwise', () => {
  assert.equal(providerName('cpu'), 'CPU');
  assert.equal(providerName('webgpu'), 'WebGPU');
  assert.equal(providerName('cuda'), 'CUDA');
  assert.match(statusView(undefined).text, /MathSense$/);
  assert.equal(statusView(undefined).final, false);
  const idx = statusView({ version: '0.1.0' }, { message: '3/10 a.tex', percentage: 30 });
  assert.match(idx.text, /MathSense 30%/);
  assert.match(idx.tooltip, /indexing — 3\/10 a\.tex/);
  const plain = statusView({ version: '0.1.0', documents: 4 });
  assert.equal(plain.text, '$(symbol-operator) MathSense');
  assert.ok(plain.final);
  const ready = statusView({ version: '0.1.0', embeddings: { state: 'ready', provider: 'cpu', accelerator: 'auto', fallbacks: [{ provider: 'cuda', error: 'Failed to load shared library' }] } });
  assert.equal(ready.text, '$(symbol-operator) MathSense: CPU');
  assert.match(ready.tooltip, /CUDA skipped: Failed to load shared library/);
  const off = statusView({ embeddings: { state: 'unavailable', message: 'model config missing' } });
  assert.ok(off.warning && off.final);
  assert.match(off.tooltip, /model config missing/);
  assert.equal(statusView({ embeddings: { state: 'loading' } }).final, false);
  assert.match(statusView({ index: { state: 'ready', entries: 45683 }, embeddings: { state: 'ready', provider: 'cpu' } }).tooltip, /Index: 45683 entries/);
  // an untrusted workspace says which included files outside it were not read
  assert.match(statusView({ version: '0.1.0', skippedOutside: ['/home/u/secret.tex'] }).tooltip, /Not read \(outside the workspace, which is not trusted\): \/home\/u\/secret\.tex/);
});

test('status bar: the index line follows the server (loading, ranking not yet known, semantic, keyword only), polled until settled', () => {
  const model = { state: 'ready', provider: 'cpu' };
  const loading = statusView({ index: { state: 'loading' }, embeddings: model });
  assert.match(loading.tooltip, /Loading the index/);
  assert.equal(loading.final, false, 'polled again: the index has not settled');
  const undecided = statusView({ index: { state: 'ready', entries: 10 }, embeddings: model });
  assert.doesNotMatch(undecided.tooltip, /keyword search only/, 'not known yet is not keyword only');
  assert.equal(undecided.final, false);
  const semantic = statusView({ index: { state: 'ready', entries: 10, semantic: true }, embeddings: model });
  assert.match(semantic.tooltip, /Index: 10 entries \(semantic ranking\)/);
  assert.ok(semantic.final);
  const keyword = statusView({ index: { state: 'ready', entries: 10, semantic: false }, embeddings: model });
  assert.match(keyword.tooltip, /keyword search only/);
  assert.ok(keyword.final);
  assert.ok(statusView({ index: { state: 'unavailable', message: 'no index' }, embeddings: model }).final);
  // whether index suggestions abstain below a calibrated relevance, or why not
  assert.match(statusView({ index: { state: 'ready', entries: 10, semantic: true, relevance: { calibrated: true } }, embeddings: model }).tooltip, /Index suggestions: shown only when likely relevant/);
  assert.match(statusView({ index: { state: 'ready', entries: 10, semantic: true, relevance: { calibrated: false, problem: 'no models folder' } }, embeddings: model }).tooltip, /Index suggestions shown as ranked \(no models folder\)/);
  // each library folder: its papers, indexing, or why it is unavailable
  const lib = statusView({ library: [{ folder: '/p', state: 'ready', papers: 3, entries: 8, vectors: true }, { folder: '/q', state: 'indexing', papers: 0, entries: 0, vectors: false }, { folder: '/r', state: 'unavailable', papers: 0, entries: 0, vectors: false, problem: 'no such folder: /r' }], embeddings: model }).tooltip;
  assert.match(lib, /Library \/p: 3 papers, 8 entries\nLibrary \/q: indexing…\nLibrary \/r: unavailable \(no such folder: \/r\)/);
});

test('statements: the environment around a label, without scaffolding', () => {
  const text = [
    '\\begin{document}',
    '\\begin{lemma}[Gauss]\\label{lem:g}',
    'For $n \\ge 1$, % a comment \\end{lemma}',
    '\\begin{equation}\\label{eq:s}',
    '  \\sum_{k=1}^n k = \\frac{n(n+1)}{2}.',
    '\\end{equation}',
    '\\end{lemma}',
    '\\end{document}',
  ].join('\n');
  const lem = enclosingEnvironment(text, text.indexOf('lem:g'));
  assert.equal(lem.name, 'lemma');
  assert.equal(lem.title, 'Gauss');
  const body = statementLatex(text, lem);
  assert.ok(body.startsWith('For $n \\ge 1$,'), body);
  assert.ok(body.includes('\\begin{equation}') && !body.includes('\\label') && !body.includes('a comment'));
  assert.ok(body.trimEnd().endsWith('\\end{equation}'));
  const eq = enclosingEnvironment(text, text.indexOf('eq:s'));
  assert.equal(eq.name, 'equation');
  assert.equal(statementLatex(text, eq), '\\begin{equation}\n  \\sum_{k=1}^n k = \\frac{n(n+1)}{2}.\n\\end{equation}');
  assert.equal(enclosingEnvironment(text, text.indexOf('\\end{document}')), undefined, 'document is transparent');

  const line = 'By \\cref{lem:a,lem:b} and \\ref{thm:x}.';
  assert.equal(labelAt(line, line.indexOf('lem:b') + 2), 'lem:b');
  assert.equal(labelAt(line, line.indexOf('\\cref')), 'lem:a');
  assert.equal(labelAt(line, line.indexOf('thm:x')), 'thm:x');
  assert.equal(labelAt(line, 1), undefined);
  assert.equal(labelAt('\\label{sec:intro}', 8), 'sec:intro');
});

test('results panel: the tab shows the heading up to its first formula, never raw LaTeX', () => {
  assert.equal(panelTitle('Results to cite for: For every integer $n \\ge 1$, $\\sum_{k=1}^{n} k^3 = T_n^2$.'), 'MathSense: Results to cite for: For every integer …');
  assert.equal(panelTitle('Preview of lem:gauss'), 'MathSense: Preview of lem:gauss');
  const long = panelTitle(`Statements in ${'x'.repeat(100)}`);
  assert.ok(long.length < 80 && long.endsWith(' …'), long);
});

