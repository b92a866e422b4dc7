// Derivation steps end to end: the feature functions on a fixture, the CLI (`mathsense check
// --format json` reports planted wrong steps with code derivation-step), and the language
// server over stdio (diagnostic published again for the same version once the worker is
// done, hover with both sides at the counterexample, "Ignore this step" code action).
import { after, before, describe, it, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  HoverRequest, CodeActionRequest, type MarkupContent, type CodeAction,
} from 'vscode-languageserver-protocol/node';
import { fixture } from '../../testing/fixture.js';
import { derivationCodeActions, derivationDiagnostics, derivationHover, DERIVATION_CODE } from './derivation.js';
import { mathBlocks } from '../../math/blocks.js';
import { DerivationChecker } from '../../math/checker.js';
import { checkWorkspaceDocumentSync, DerivationService, inProcessRunner } from '../../math/service.js';
import { LspClient } from '../../protocol/lspClient.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = path.resolve(here, '..', '..', '..', 'dist', 'mathsense.cjs');

const DOC = [
  '\\documentclass{article}',
  '\\newcommand{\\sq}[1]{{#1}^2}',
  '\\begin{document}',
  'For real $x$:',
  '\\begin{align}',
  '\\sq{x+1} &= x^2 + 2x + 1 \\\\',
  '         &= x^2 + 3x + 1 \\label{eq:bad}',
  '\\end{align}',
  '\\[ \\sin^2 t + \\cos^2 t = 1, \\qquad \\frac{t^2 - 1}{t - 1} = t + 1 \\]',
  '\\begin{equation}',
  '(a - b)(a + b) = a^2 + ab - ba - b^2 = a^2 + b^2 % a planted sign mistake',
  '\\end{equation}',
  '\\begin{align*}',
  'y &= 2y - y \\\\',
  '  &= 3y % mathsense-ignore-step',
  '\\end{align*}',
  '\\end{document}',
  '',
].join('\n');

test('diagnostics, hover and code action on flagged steps (in process)', () => {
  const fx = fixture(`%! main.tex\n${DOC}`);
  const doc = fx.doc('main.tex');
  const steps = checkWorkspaceDocumentSync(fx.ws, doc, new DerivationChecker());
  const diags = derivationDiagnostics(doc, steps);
  assert.deepEqual(diags.map((d) => [d.code, d.range.start.line, doc.text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end))]), [
    [DERIVATION_CODE, 6, 'x^2 + 3x + 1'],
    [DERIVATION_CODE, 10, 'a^2 + b^2'],
  ]);
  assert.match(diags[0].message as string, /^does not follow: at x = [\d.]+ left side [\d.]+, right side [\d.]+$/);
  const at = doc.text.indexOf('3x + 1');
  const h = derivationHover(doc, steps, at);
  assert.ok(h);
  const md = (h!.contents as MarkupContent).value;
  assert.match(md, /\| left \| [\d.]+ \|/);
  assert.match(md, /\| right \| [\d.]+ \|/);
  assert.match(md, /\| `x` \| [\d.]+ \|/);
  assert.equal(derivationHover(doc, steps, doc.text.indexOf('\\sin^2')), null);
  const actions = derivationCodeActions(doc, steps, diags[0].range);
  assert.equal(actions.length, 1);
  assert.equal(actions[0].title, 'Ignore this step');
  const edits = actions[0].edit!.changes![doc.uri];
  assert.deepEqual(edits.map((e) => [e.range.start, e.newText]), [[{ line: 6, character: doc.text.split('\n')[6].length }, ' % mathsense-ignore-step']]);
  // unknown steps are silent unless asked for
  assert.ok(derivationDiagnostics(doc, steps, { enabled: true, showUnknown: true }).length >= diags.length);
});

test('an align* of separate identities: a wrong row is flagged; equations being solved stay unflagged', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{align*}
(a+b)^2 &= a^2 + 2ab + b^2 \\
\sin^2 x + \cos^2 x &= 2 \\
                       ^
(x-1)(x+1) &= x^2 - 1
\end{align*}
Solving:
\begin{align*}
2x + 3 &= 7 \\
2x &= 4 \\
x &= 2
\end{align*}
\begin{align*}
(a+b)^2 &= a^2 + 2ab + b^2 \\
x^2 - 5x + 6 &= 0
\end{align*}
\end{document}
`);
  const doc = fx.doc('main.tex');
  const diags = derivationDiagnostics(doc, checkWorkspaceDocumentSync(fx.ws, doc, new DerivationChecker()));
  // exactly the marked right side
  assert.deepEqual(diags.map((d) => d.range), fx.ranges.map((r) => r.range));
  assert.match(diags[0].message as string, /read as an identity: other rows of this display hold as identities/);
});

test('only changed blocks are checked again after an edit', async () => {
  const fx = fixture(`%! main.tex\n${DOC}`);
  const doc = fx.doc('main.tex');
  const checker = new DerivationChecker();
  const service = new DerivationService(inProcessRunner(checker));
  const blocks = mathBlocks(doc);
  await service.steps(blocks, [], '');
  const before = checker.checked;
  const edited = (doc.text as string).replace('= a^2 + b^2', '= a^2 - b^2');
  fx.ws.change(doc.uri, [{ text: edited }], 2);
  const blocks2 = mathBlocks(doc);
  const { missing } = service.current(blocks2);
  assert.equal(missing.length, 1);
  const steps = await service.steps(blocks2, [], '');
  assert.equal(checker.checked - before, 1);
  assert.equal(steps.filter((s) => s.verdict.kind === 'refuted' && !s.ignored).length, 1);
});

test('mathsense check --format json reports planted wrong steps with code derivation-step', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-deriv-'));
  try {
    fs.writeFileSync(path.join(dir, 'main.tex'), DOC);
    const r = spawnSync(process.execPath, [bundle, 'check', '--format', 'json', 'main.tex'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Array<{ code: string; file: string; range: { start: { line: number } }; message: string }>;
    const d = out.filter((x) => x.code === 'derivation-step');
    assert.deepEqual(d.map((x) => [x.file, x.range.start.line]), [['main.tex', 6], ['main.tex', 10]]);
    const off = spawnSync(process.execPath, [bundle, 'check', '--format', 'json', '--no-derivations', 'main.tex'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(JSON.parse(off.stdout).filter((x: { code: string }) => x.code === 'derivation-step').length, 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('derivation steps over the language server protocol', { timeout: 60_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-deriv-lsp-'));
  const file = path.join(dir, 'main.tex');
  const uri = pathToFileURL(file).href;
  const client = new LspClient({ bundle });
  const conn = client.conn;
  const published = client.published;

  before(async () => {
    fs.writeFileSync(file, DOC);
    await client.initialize(undefined, {}, { rootUri: pathToFileURL(dir).href });
    client.open(uri, DOC);
  });
  after(() => {
    client.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('publishes derivation warnings for the same version once the worker is done', async () => {
    const got = await client.diagnostics(uri, (p) => p.version === 1 && p.diagnostics.some((d) => d.code === DERIVATION_CODE));
    // the first publication for the version came at once (without waiting for the worker)
    assert.ok(published.findIndex((p) => p.uri === uri && p.version === 1) <= published.indexOf(got!));
    assert.deepEqual(got!.diagnostics.filter((d) => d.code === DERIVATION_CODE).map((d) => d.range.start.line), [6, 10]);
  });

  it('hover shows both sides at the counterexample; the code action inserts the ignore comment', async () => {
    const line = DOC.split('\n')[6];
    const h = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 6, character: line.indexOf('3x') } });
    assert.ok(h);
    assert.match((h!.contents as MarkupContent).value as string, /Step does not follow[\s\S]*\| left \|[\s\S]*\| right \|/);
    const actions = (await conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: { start: { line: 6, character: 0 }, end: { line: 6, character: 1 } }, context: { diagnostics: [] },
    })) as CodeAction[];
    assert.equal(actions.length, 1);
    assert.equal(actions[0].title, 'Ignore this step');
    assert.equal(actions[0].edit!.changes![uri][0].newText, ' % mathsense-ignore-step');
  });
});

// ProofNet exercises (Herstein 4.2.5, Dummit–Foote 1.1.25, Axler): the letters are ring or
// group elements and operators, said in the exercise far above the display or in words the
// near context lacks ("abelian", "eigenvectors"); numbers would refute each of these steps.
test('no warnings where the setting says the letters are not real numbers', () => {
  const filler = 'Therefore some intermediate remark holds here. '.repeat(12);
  const src = [
    '\\paragraph{Exercise 4.2.5} Let $R$ be a ring in which $x^3 = x$ for every $x \\in R$. Prove that $R$ is commutative.',
    '\\begin{proof}', filler, 'We then show that', '$$', 'x+x^2=\\left(x+x^2\\right)^3=x^3+3 x^4+3 x^5+x^6=4\\left(x+x^2\\right) .', '$$', '\\end{proof}', '',
    '\\paragraph{Exercise 1.1.25} Prove that if $x^{2}=1$ for all $x \\in G$ then $G$ is abelian.',
    '\\begin{proof} Now let $a, b \\in G$. We have', '$$', 'a b=(a b)^{-1}=b^{-1} a^{-1}=b a .', '$$', '\\end{proof}', '',
    'There is an orthonormal basis of eigenvectors of $T$, and each $\\lambda_j$ equals 0 or 1.', filler,
    '\\begin{align*}', 'T^2 e_j & =\\left(\\lambda_j\\right)^2 e_j \\\\', '& =\\lambda_j e_j', '\\end{align*}', '',
    'Unrelated: for real $x$,', '$$ (x+1)^2 = (x+1)(x+1) = x^2 + 1 $$', '',
    // the setting is the display's own environment: a group above an example says nothing of it
    'Let $G$ be a group and $H$ a subgroup; its cosets partition $G$.',
    '\\begin{example} For real $t$, \\[ \\sin 2t = 2 \\sin t \\cos t = \\sin t \\cos t. \\] \\end{example}', '',
  ].join('\n');
  const fx = fixture(`%! main.tex\n${src}`);
  const doc = fx.doc('main.tex');
  const steps = checkWorkspaceDocumentSync(fx.ws, doc, new DerivationChecker());
  const diags = derivationDiagnostics(doc, steps);
  assert.deepEqual(diags.map((d) => doc.text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end))), ['x^2 + 1', '\\sin t \\cos t']);
});
