// Related equations over real stdio: the bundled server on the fixture workspace
// test/fixtures/related-equations (two chapters with twin equations in other letters). Code
// lenses on every display equation and labelled row; resolving the lens of (a+b)^2 = … runs
// the search, whose first result is (x+y)^2 = … in the other file with its label; the server
// command `mathsense.findRelatedEquations` answers for a position, for raw LaTeX, and with an
// empty result and a message for bad or huge input, without taking the server down.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeLensRequest, CodeLensResolveRequest, ExecuteCommandRequest, DidChangeConfigurationNotification,
  type ProtocolConnection, type CodeLens, type InitializeResult,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from './lspClient.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const serverBundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');
const fixture = path.join(repoRoot, 'test', 'fixtures', 'related-equations');

interface Related {
  query: { latex: string; uri?: string; line?: number; label?: string };
  results: Array<{ latex: string; score: number; source: string; uri?: string; file?: string; line?: number; label?: string; why: { fingerprint?: string; structure: number } }>;
  encoder: boolean;
  pending: number;
  message?: string;
}

describe('related equations over stdio', { timeout: 120_000 }, () => {
  let client: LspClient;
  let conn: ProtocolConnection;
  let init: InitializeResult;
  const algebra = path.join(fixture, 'chapters', 'algebra.tex');
  const algebraUri = pathToFileURL(algebra).href;
  const algebraText = fs.readFileSync(algebra, 'utf8');
  let noIndex: string;
  /** The lens setting the client reports (`all` first; the last test switches to `matches`). */
  let lensMode = 'all';
  let configAnswers = 0;
  /** Changes the lens setting and waits until the server has pulled it. */
  const setLensMode = async (mode: string) => {
    lensMode = mode;
    const before = configAnswers;
    await conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    for (let i = 0; i < 200 && configAnswers === before; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 20)); // the answer is applied
  };

  before(async () => {
    assert.ok(fs.existsSync(serverBundle), `${serverBundle} missing: run node scripts/build.mjs`);
    // an empty index folder: the results come from the workspace alone, whatever build/ holds
    noIndex = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-noindex-'));
    client = new LspClient({ bundle: serverBundle, settings: () => { configAnswers++; return { index: { path: noIndex }, relatedEquations: { lens: lensMode } }; } });
    conn = client.conn;
    init = await client.initialize(fixture, { workspace: { configuration: true }, window: { workDoneProgress: true } });
    await conn.sendRequest('mathsense/status'); // the workspace scan has finished
    client.open(algebraUri, algebraText);
  });

  after(async () => {
    try {
      await client.stop();
    } finally {
      client.kill();
      fs.rmSync(noIndex, { recursive: true, force: true });
    }
  });

  it('advertises code lenses with resolution and the findRelatedEquations command', () => {
    assert.deepEqual(init.capabilities.codeLensProvider, { resolveProvider: true });
    assert.deepEqual(init.capabilities.executeCommandProvider?.commands, ['mathsense.findRelatedEquations', 'mathsense.suggestCitations', 'mathsense.candidateProofs', 'mathsense.search', 'mathsense.library.add', 'mathsense.library.index', 'mathsense.library.remove', 'mathsense.library.search', 'mathsense.library.insertCitation']);
  });

  let lenses: CodeLens[];

  it('puts a cheap lens on every display equation and every labelled row', async () => {
    lenses = (await conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: algebraUri } })) ?? [];
    // equation (a+b)^2; the align, and its two labelled rows; the \[ \] sum
    assert.deepEqual(lenses.map((l) => l.range.start.line), [2, 6, 7, 8, 11]);
    for (const l of lenses) assert.equal(l.command, undefined, 'unresolved lenses carry no command');
  });

  it('resolving the lens of (a+b)^2 finds (x+y)^2 in the other file first, with its label', async () => {
    const lens = lenses.find((l) => l.range.start.line === 2)!;
    const resolved = await conn.sendRequest(CodeLensResolveRequest.type, lens);
    assert.ok(resolved.command, 'the resolved lens has a command');
    assert.equal(resolved.command.title, 'Same as eq:square-of-sum in analysis.tex');
    assert.equal(resolved.command.command, 'mathsense.showRelatedEquations');
    const r = resolved.command.arguments![0] as Related;
    assert.equal(r.query.label, 'eq:binomial-square');
    const top = r.results[0];
    assert.equal(top.label, 'eq:square-of-sum');
    assert.equal(top.file, path.join(fixture, 'chapters', 'analysis.tex'));
    assert.equal(top.line, 3);
    assert.equal(top.why.fingerprint, 'identity');
    assert.equal((top as { same?: boolean }).same, true);
    assert.equal(top.latex, '(x+y)^2 = x^2 + 2xy + y^2');
    assert.ok(r.results.every((x) => !(x.file === algebra && x.line === 3)), 'the query equation itself is excluded');
    assert.ok(r.results.filter((x) => !(x as { same?: boolean }).same).every((x, i, xs) => i === 0 || xs[i - 1].score >= x.score), 'best first after the confirmed ones');
  });

  it('a labelled align row finds its twin written with a document macro and another scale', async () => {
    const lens = lenses.find((l) => l.range.start.line === 8)!;
    const resolved = await conn.sendRequest(CodeLensResolveRequest.type, lens);
    const r = resolved.command!.arguments![0] as Related;
    assert.equal(r.query.label, 'eq:quadratic');
    assert.equal(r.results[0].label, 'eq:scaled-quadratic');
    assert.equal(r.results[0].why.fingerprint, 'equation');
  });

  it('the server command answers for a position, for raw LaTeX, and for Markdown notes', async () => {
    const byPos = await conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.findRelatedEquations', arguments: [{ uri: algebraUri, position: { line: 3, character: 4 } }] }) as Related;
    assert.equal(byPos.results[0].label, 'eq:square-of-sum');
    const byLatex = await conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.findRelatedEquations', arguments: [{ latex: '\\sum_{j=1}^{q} j = \\frac{q(q+1)}{2}' }] }) as Related;
    const files = byLatex.results.slice(0, 2).map((x) => path.basename(x.file!)).sort();
    assert.deepEqual(files, ['algebra.tex', 'notes.md']);
    assert.ok(byLatex.results.slice(0, 2).every((x) => x.why.fingerprint === 'identity'));
  });

  it('with `lens: matches` only displays with something worth opening get a lens, its title saying what', async () => {
    await setLensMode('matches');
    const got = (await conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: algebraUri } })) ?? [];
    const byLine = new Map(got.map((l) => [l.range.start.line, l.command?.title]));
    // (a+b)^2 and x^2 - 5x + 6 have twins in analysis.tex, the sum one in notes.md; a^2 - b^2 has none
    assert.equal(byLine.get(2), 'Same as eq:square-of-sum in analysis.tex');
    assert.equal(byLine.get(8), 'Same as eq:scaled-quadratic in analysis.tex');
    assert.match(byLine.get(11) ?? '', /^Same as line \d+ of notes\.md$/);
    assert.equal(byLine.has(7), false, 'no lens where nothing is worth opening');
    for (const l of got) assert.equal(l.command?.command, 'mathsense.showRelatedEquations');
    await setLensMode('off');
    assert.deepEqual(await conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: algebraUri } }), []);
    await setLensMode('all');
  });

  it('bad arguments and garbage or huge equations give an empty result with a message, never a crash', async () => {
    const cases: unknown[][] = [[], [42], [{ uri: algebraUri }], [{ uri: 'file:///nowhere.tex', position: { line: 0, character: 0 } }], [{ uri: algebraUri, position: { line: 0, character: 0 } }]];
    for (const args of cases) {
      const r = await conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.findRelatedEquations', arguments: args }) as Related;
      assert.deepEqual(r.results, [], JSON.stringify(args));
      assert.match(r.message ?? '', /mathsense\.findRelatedEquations: /, JSON.stringify(args));
    }
    const garbage = '\\frac{{{}}\\left( ^_^ \\begin{align} & \\\\ = = \\sqrt[\\end{x}';
    const huge = Array.from({ length: 4000 }, (_, i) => `x_{${i}}^{${i % 7}}`).join(' + ') + ' = 0';
    for (const latex of [garbage, huge]) {
      const t0 = Date.now();
      const r = await conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.findRelatedEquations', arguments: [{ latex }] }) as Related;
      assert.ok(Array.isArray(r.results));
      assert.ok(Date.now() - t0 < 10_000, `answered in ${Date.now() - t0} ms`);
    }
    const status = await conn.sendRequest('mathsense/status') as { equations: { sites: number; pending: number } };
    assert.equal(status.equations.sites, 9); // 5 in algebra.tex, 3 in analysis.tex, 1 in notes.md
    assert.deepEqual(client.errors(), []);
  });
});

describe('related-equation lenses for a client that refreshes them', { timeout: 120_000 }, () => {
  it('the list searches nothing; the displays are searched in the background and the client asked to draw the lenses again', async () => {
    const noIndex = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-noindex-'));
    const client = new LspClient({ bundle: serverBundle, settings: () => ({ index: { path: noIndex }, relatedEquations: { lens: 'matches' } }) });
    try {
      await client.initialize(fixture, { workspace: { configuration: true, codeLens: { refreshSupport: true } }, window: { workDoneProgress: true } });
      await client.conn.sendRequest('mathsense/status');
      const uri = pathToFileURL(path.join(fixture, 'chapters', 'algebra.tex')).href;
      client.open(uri, fs.readFileSync(path.join(fixture, 'chapters', 'algebra.tex'), 'utf8'));
      const titles = async () => new Map(((await client.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? []).map((l) => [l.range.start.line, l.command?.title]));
      // lists answered before the search are drawn again when it has found what they lacked
      // (a refresh counted from before the list that it follows: it may come before the answer is read)
      let asked = client.refreshes.codeLens;
      let got = await titles();
      assert.equal(got.get(2), undefined, 'the first list answers before anything is searched');
      // (the search goes down the document: line 7, between them, has been searched once line 8 has)
      for (let i = 0; i < 20 && (got.get(2) === undefined || got.get(8) === undefined); i++) {
        await client.until('a code lens refresh', () => client.refreshes.codeLens > asked, 60_000);
        asked = client.refreshes.codeLens;
        got = await titles();
      }
      assert.equal(got.get(2), 'Same as eq:square-of-sum in analysis.tex');
      assert.equal(got.get(8), 'Same as eq:scaled-quadratic in analysis.tex');
      assert.equal(got.has(7), false, 'no lens where nothing is worth opening');
    } finally {
      try { await client.stop(); } finally { client.kill(); fs.rmSync(noIndex, { recursive: true, force: true }); }
    }
  });
});
