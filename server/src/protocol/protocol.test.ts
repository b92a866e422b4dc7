// End-to-end protocol tests: the bundled server (server/dist/mathsense.cjs) is spawned with
// `lsp --stdio` and driven over real stdio by a vscode-languageserver-protocol client, on a
// small multi-file LaTeX project in a temporary folder.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  ResponseError, ErrorCodes,
  InitializeRequest, InitializedNotification, ShutdownRequest, ExitNotification,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification,
  ConfigurationRequest, WorkDoneProgressCreateRequest,
  HoverRequest, DefinitionRequest, ReferencesRequest, CompletionRequest, CompletionResolveRequest,
  PrepareRenameRequest, RenameRequest, DocumentSymbolRequest, WorkspaceSymbolRequest,
  FoldingRangeRequest, DocumentLinkRequest, DocumentHighlightRequest,
  type Position, type Hover, type MarkupContent,
  type Location, type CompletionList, type CompletionItem, type WorkspaceEdit, type TextEdit,
  type DocumentSymbol, type SymbolInformation, type Range, type ConfigurationParams, type WorkDoneProgressCreateParams,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from './lspClient.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..', '..');
const serverBundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');

const TIMEOUT = 20_000;

// ---- the fixture project --------------------------------------------------------------

const MAIN = String.raw`\documentclass{article}
\usepackage{amsmath,amsthm,cleveref}
\newtheorem{theorem}{Theorem}
\theoremstyle{definition}
\newtheorem{definition}[theorem]{Definition}
\begin{document}
\input{sec1}
\input{sec2}
\end{document}
`;

const SEC1 = String.raw`\section{Intro}\label{sec:intro}
Some words.
\begin{theorem}[Fundamental]\label{thm:main}
For every right triangle, $a^2+b^2=c^2$.
\end{theorem}
\begin{proof}
Obvious.
\end{proof}
\begin{align}
x &= y + 1 \label{eq:row1}\\
z &= w^{3} \label{eq:row2}
\end{align}
\begin{definition}\label{dup}
A thing.
\end{definition}
`;

const SEC2 = String.raw`\section{Results}
By \ref{thm:main} and \eqref{eq:row2}, see \cref{sec:intro,thm:main}.
Also \ref{nope} is wrong.
\label{dup}
`;

// ---- helpers ---------------------------------------------------------------------------

/** Position of the `occurrence`-th match of `needle` in `text`, shifted by `delta` characters. */
function posOf(text: string, needle: string, delta = 0, occurrence = 0): Position {
  let at = -1;
  for (let k = 0; k <= occurrence; k++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `'${needle}' (#${k}) not found`);
  }
  return offsetToPos(text, at + delta);
}

function offsetToPos(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

function posToOffset(text: string, p: Position): number {
  const lines = text.split('\n');
  let off = 0;
  for (let i = 0; i < p.line; i++) off += lines[i].length + 1;
  return off + p.character;
}

/** Applies an LSP range edit to `text` (what the server is told to do as well). */
function applyEdit(text: string, range: Range, newText: string): string {
  return text.slice(0, posToOffset(text, range.start)) + newText + text.slice(posToOffset(text, range.end));
}

/** Ranges of every `name` appearing as a whole argument item of a reference command. */
function refRanges(text: string, name: string): Range[] {
  const out: Range[] = [];
  const re = /\\(?:ref|eqref|cref|Cref|autoref|pageref)\*?\{([^{}]*)\}/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const argStart = m.index + m[0].indexOf('{') + 1;
    let off = 0;
    for (const part of m[1].split(',')) {
      const lead = part.length - part.trimStart().length;
      if (part.trim() === name) {
        const s = argStart + off + lead;
        out.push({ start: offsetToPos(text, s), end: offsetToPos(text, s + name.length) });
      }
      off += part.length + 1;
    }
  }
  return out;
}

function sortRanges(rs: Range[]): Range[] {
  return [...rs].sort((a, b) => a.start.line - b.start.line || a.start.character - b.start.character);
}

async function waitFor<T>(what: string, f: () => T | undefined | false, timeout = TIMEOUT): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() - started > timeout) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function text(m: string | MarkupContent): string {
  return typeof m === 'string' ? m : m.value;
}

function markdown(h: Hover | null): string {
  assert.ok(h, 'expected a hover');
  const c = h.contents as MarkupContent;
  assert.equal(c.kind, 'markdown');
  return c.value;
}

interface ProgressEvent { token: string | number; value: { kind: string; title?: string; message?: string; percentage?: number } }

/** The shared stdio client, recording what this suite asserts on: progress and configuration requests. */
class Client extends LspClient {
  readonly progress: ProgressEvent[] = [];
  readonly progressCreated: Array<string | number> = [];
  readonly configurationRequests: ConfigurationParams[] = [];

  constructor() {
    super({ bundle: serverBundle });
    this.conn.onNotification('$/progress', (p: ProgressEvent) => { this.progress.push(p); });
    this.conn.onRequest(ConfigurationRequest.type, (p) => {
      this.configurationRequests.push(p);
      return p.items.map(() => ({ diagnostics: { unusedLabels: false } }));
    });
    this.conn.onRequest(WorkDoneProgressCreateRequest.method, (p: WorkDoneProgressCreateParams) => { this.progressCreated.push(p.token); return null; });
  }

}

// ---- the tests -------------------------------------------------------------------------

describe('language server over stdio', { timeout: 120_000 }, () => {
  let dir: string;
  let client: Client;
  let mainUri: string;
  let sec1Uri: string;
  let sec2Uri: string;
  /** What the client believes sec2.tex contains (kept in sync with every didChange). */
  let sec2 = SEC2;
  let sec2Version = 1;

  const change = (range: Range, text: string): number => {
    sec2 = applyEdit(sec2, range, text);
    sec2Version++;
    void client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: sec2Uri, version: sec2Version },
      contentChanges: [{ range, text }],
    });
    return sec2Version;
  };

  before(async () => {
    assert.ok(fs.existsSync(serverBundle), `${serverBundle} missing: run node scripts/build.mjs`);
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-lsp-')));
    fs.writeFileSync(path.join(dir, 'main.tex'), MAIN);
    fs.writeFileSync(path.join(dir, 'sec1.tex'), SEC1);
    fs.writeFileSync(path.join(dir, 'sec2.tex'), SEC2);
    mainUri = pathToFileURL(path.join(dir, 'main.tex')).href;
    sec1Uri = pathToFileURL(path.join(dir, 'sec1.tex')).href;
    sec2Uri = pathToFileURL(path.join(dir, 'sec2.tex')).href;
    client = new Client();
  });

  after(() => {
    client?.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('initializes and announces its capabilities', { timeout: TIMEOUT }, async () => {
    const folderUri = pathToFileURL(dir).href;
    const result = await client.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: folderUri,
      workspaceFolders: [{ uri: folderUri, name: 'fixture' }],
      capabilities: {
        window: { workDoneProgress: true },
        workspace: { configuration: true, workspaceFolders: true },
        textDocument: {
          hover: { contentFormat: ['markdown', 'plaintext'] },
          completion: { completionItem: { documentationFormat: ['markdown', 'plaintext'] } },
          rename: { prepareSupport: true },
          publishDiagnostics: { versionSupport: true },
        },
      },
    });
    assert.equal(result.serverInfo?.name, 'mathsense');
    const caps = result.capabilities;
    assert.ok(caps.hoverProvider);
    assert.ok(caps.definitionProvider);
    assert.ok(caps.referencesProvider);
    assert.ok(caps.documentSymbolProvider);
    assert.ok(caps.foldingRangeProvider);
    assert.ok(caps.documentLinkProvider);
    assert.ok(caps.documentHighlightProvider);
    assert.ok(caps.workspaceSymbolProvider);
    assert.deepEqual(caps.renameProvider, { prepareProvider: true });
    assert.equal(caps.completionProvider?.resolveProvider, true);
    assert.ok(caps.completionProvider?.triggerCharacters?.includes('{'));
    await client.conn.sendNotification(InitializedNotification.type, {});
  });

  it('pulls settings and reports $/progress begin/report/end for the workspace scan', { timeout: TIMEOUT }, async () => {
    await waitFor('$/progress end', () => client.progress.some((p) => p.value.kind === 'end'));
    assert.ok(client.configurationRequests.length >= 1, 'workspace/configuration was requested');
    // the workspace's settings, then the folder's (resource-scoped settings differ per folder)
    assert.deepEqual(client.configurationRequests[0].items.map((i) => i.section), ['mathsense', 'mathsense']);
    assert.equal(client.configurationRequests[0].items[1].scopeUri, pathToFileURL(dir).href);
    assert.equal(client.progressCreated.length, 1, 'one window/workDoneProgress/create');
    const token = client.progressCreated[0];
    const events = client.progress.filter((p) => p.token === token);
    assert.equal(events.length, client.progress.length, 'every $/progress uses the created token');
    const kinds = events.map((e) => e.value.kind);
    assert.equal(kinds[0], 'begin');
    assert.equal(kinds[kinds.length - 1], 'end');
    assert.ok(kinds.includes('report'), `a report between begin and end: ${kinds.join(',')}`);
    assert.equal(kinds.filter((k) => k === 'begin').length, 1);
    assert.equal(kinds.filter((k) => k === 'end').length, 1);
    assert.match(events[0].value.title ?? '', /MathSense/);
    const reports = events.filter((e) => e.value.kind === 'report');
    assert.equal(reports[reports.length - 1].value.percentage, 100);
    for (let i = 1; i < reports.length; i++) {
      assert.ok((reports[i].value.percentage ?? 0) >= (reports[i - 1].value.percentage ?? 0), 'percentages never decrease');
    }
    // the scan is complete once the status request answers
    const status = await client.conn.sendRequest('mathsense/status') as { documents: number };
    assert.equal(status.documents, 3);
  });

  it('publishes versioned diagnostics when sec2.tex is opened', { timeout: TIMEOUT }, async () => {
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: sec2Uri, languageId: 'latex', version: sec2Version, text: sec2 },
    });
    const pub = await waitFor('diagnostics for sec2 v1', () => client.latest(sec2Uri, 1));
    const diags = [...pub.diagnostics].sort((a, b) => String(a.code).localeCompare(String(b.code)));
    assert.deepEqual(diags.map((d) => d.code), ['duplicate-label', 'undefined-ref'], JSON.stringify(pub.diagnostics));
    const [dup, undef] = diags;
    assert.equal(undef.severity, 1);
    assert.equal(undef.source, 'mathsense');
    assert.match(text(undef.message), /nope/);
    assert.deepEqual(undef.range, { start: posOf(sec2, 'nope'), end: posOf(sec2, 'nope', 4) });
    assert.equal(dup.severity, 1);
    assert.deepEqual(dup.range, { start: posOf(sec2, '{dup}', 1), end: posOf(sec2, '{dup}', 4) });
    assert.match(text(dup.message), /dup/);
    assert.match(text(dup.message), /sec1\.tex:13/);
  });

  it('an incremental change fixing the undefined reference republishes for the new version', { timeout: TIMEOUT }, async () => {
    const start = posOf(sec2, 'nope');
    const v = change({ start, end: posOf(sec2, 'nope', 4) }, 'thm:main');
    assert.match(sec2, /Also \\ref\{thm:main\} is wrong/);
    const pub = await waitFor(`diagnostics for sec2 v${v}`, () => client.latest(sec2Uri, v));
    assert.deepEqual(pub.diagnostics.map((d) => d.code), ['duplicate-label'], JSON.stringify(pub.diagnostics));
  });

  it('publishes diagnostics for every version of 5 quick successive changes', { timeout: TIMEOUT }, async () => {
    const versions: number[] = [];
    for (let i = 0; i < 5; i++) {
      // typing at the end of the second line, one character at a time
      const lineEnd = posOf(sec2, ', see', 0);
      const p = { line: lineEnd.line, character: sec2.split('\n')[lineEnd.line].length };
      versions.push(change({ start: p, end: p }, 'abcde'[i]));
    }
    // plus a multi-line insertion and a deletion in the same burst
    const p = posOf(sec2, '\\label{dup}');
    versions.push(change({ start: p, end: p }, 'More text.\n\n'));
    versions.push(change({ start: p, end: offsetToPos(sec2, posToOffset(sec2, p) + 'More text.\n\n'.length) }, ''));
    for (const v of versions) {
      const pub = await waitFor(`diagnostics for sec2 v${v}`, () => client.latest(sec2Uri, v));
      assert.deepEqual(pub.diagnostics.map((d) => d.code), ['duplicate-label'], `version ${v}`);
    }
    const seen = new Set(client.published.filter((d) => d.uri === sec2Uri).map((d) => d.version));
    for (const v of versions) assert.ok(seen.has(v), `version ${v} published`);
    // no stale version is published after a newer one
    const order = client.published.filter((d) => d.uri === sec2Uri).map((d) => d.version ?? -1);
    for (let i = 1; i < order.length; i++) assert.ok(order[i] >= order[i - 1], `versions in order: ${order.join(',')}`);
    assert.match(sec2, /thm:main\}\.?abcde\n/);
  });

  it('hover on \\ref{thm:main} shows the theorem, its title and its math', { timeout: TIMEOUT }, async () => {
    const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'thm:main', 3) });
    const md = markdown(h);
    assert.match(md, /Theorem/);
    assert.match(md, /Fundamental/);
    assert.ok(md.includes('a^2+b^2=c^2'), md);
    assert.ok(md.includes('thm:main'), md);
    assert.ok(md.includes('sec1.tex:3'), md);
    assert.ok(!md.includes('\\label'), md);
    assert.deepEqual(h!.range, { start: posOf(sec2, 'thm:main'), end: posOf(sec2, 'thm:main', 8) });
  });

  it('hover on \\eqref{eq:row2} shows only that row of the align', { timeout: TIMEOUT }, async () => {
    const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'eq:row2', 2) });
    const md = markdown(h);
    assert.match(md, /Equation/);
    assert.ok(md.includes('w^{3}'), md);
    assert.ok(!md.includes('y + 1'), `the other row leaks into the hover:\n${md}`);
    assert.ok(!md.includes('\\label'), md);
    // display math reaches a client without hoverMath as a fenced latex block, TeX intact
    assert.match(md, /```latex\n[^`]*w\^\{3\}[^`]*\n```/, md);
  });

  it('hover on a label shows what it labels and how often it is referenced', { timeout: TIMEOUT }, async () => {
    const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: sec1Uri }, position: posOf(SEC1, '{thm:main}', 2) });
    const md = markdown(h);
    assert.match(md, /Fundamental/);
    const n = refRanges(sec2, 'thm:main').length;
    assert.match(md, new RegExp(`Referenced ${n} times`));
  });

  it('definition on a reference goes to the label in sec1.tex', { timeout: TIMEOUT }, async () => {
    const defs = await client.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'thm:main', 1) }) as Location[];
    assert.deepEqual(defs, [{ uri: sec1Uri, range: { start: posOf(SEC1, '{thm:main}', 1), end: posOf(SEC1, '{thm:main}', 9) } }]);
    const eq = await client.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'eq:row2') }) as Location[];
    assert.deepEqual(eq, [{ uri: sec1Uri, range: { start: posOf(SEC1, '{eq:row2}', 1), end: posOf(SEC1, '{eq:row2}', 8) } }]);
    // inside a \cref list, the second name
    const second = await client.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'intro,thm:main', 8) }) as Location[];
    assert.equal(second.length, 1);
    assert.deepEqual(second[0].range.start, posOf(SEC1, '{thm:main}', 1));
    // an include leads to the included file
    const inc = await client.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: mainUri }, position: posOf(MAIN, '{sec1}', 2) }) as Location[];
    assert.deepEqual(inc.map((l) => l.uri), [sec1Uri]);
  });

  it('references from the label find the references in sec2.tex', { timeout: TIMEOUT }, async () => {
    const at = { textDocument: { uri: sec1Uri }, position: posOf(SEC1, '{thm:main}', 4) };
    const expected = refRanges(sec2, 'thm:main');
    assert.equal(expected.length, 3);
    const without = await client.conn.sendRequest(ReferencesRequest.type, { ...at, context: { includeDeclaration: false } }) as Location[];
    assert.ok(without.every((l) => l.uri === sec2Uri), JSON.stringify(without));
    assert.deepEqual(sortRanges(without.map((l) => l.range)), sortRanges(expected));
    const withDecl = await client.conn.sendRequest(ReferencesRequest.type, { ...at, context: { includeDeclaration: true } }) as Location[];
    assert.equal(withDecl.length, expected.length + 1);
    const decl = withDecl.filter((l) => l.uri === sec1Uri);
    assert.deepEqual(decl.map((l) => l.range), [{ start: posOf(SEC1, '{thm:main}', 1), end: posOf(SEC1, '{thm:main}', 9) }]);
    // from a reference, the same set
    const fromRef = await client.conn.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: sec2Uri }, position: posOf(sec2, 'thm:main'), context: { includeDeclaration: true },
    }) as Location[];
    assert.equal(fromRef.length, withDecl.length);
  });

  it('completion inside \\ref{ lists labels with their kinds; resolve adds documentation', { timeout: TIMEOUT }, async () => {
    const list = await client.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri: sec2Uri }, position: posOf(sec2, '\\ref{thm:main}', 5),
    }) as CompletionList;
    assert.ok(list && Array.isArray(list.items));
    const byLabel = new Map(list.items.map((i) => [i.label, i]));
    for (const name of ['sec:intro', 'thm:main', 'eq:row1', 'eq:row2', 'dup']) assert.ok(byLabel.has(name), `${name} offered`);
    assert.equal(byLabel.get('thm:main')!.detail, 'Theorem (Fundamental)');
    assert.equal(byLabel.get('eq:row2')!.detail, 'Equation');
    assert.match(byLabel.get('sec:intro')!.detail ?? '', /^Section/);
    assert.match(byLabel.get('dup')!.detail ?? '', /^(Definition|Section)/);
    // the text edit replaces the whole name under the cursor
    const te = byLabel.get('thm:main')!.textEdit as TextEdit;
    assert.deepEqual(te.range, { start: posOf(sec2, 'thm:main'), end: posOf(sec2, 'thm:main', 8) });
    assert.equal(te.newText, 'thm:main');

    const resolved = await client.conn.sendRequest(CompletionResolveRequest.type, byLabel.get('thm:main')!) as CompletionItem;
    const doc = resolved.documentation as MarkupContent;
    assert.equal(doc.kind, 'markdown');
    assert.ok(doc.value.includes('a^2+b^2=c^2'), doc.value);
    assert.ok(doc.value.includes('sec1.tex'), doc.value);
    const eq = await client.conn.sendRequest(CompletionResolveRequest.type, byLabel.get('eq:row2')!) as CompletionItem;
    const eqDoc = (eq.documentation as MarkupContent).value;
    assert.ok(eqDoc.includes('w^{3}') && !eqDoc.includes('y + 1'), eqDoc);

    // after a comma in a \cref list
    const inList = await client.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri: sec2Uri }, position: posOf(sec2, 'intro,thm:main', 6),
    }) as CompletionList;
    assert.ok(inList.items.some((i) => i.label === 'eq:row2'));
    // outside of a reference: nothing
    const outside = await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'By') });
    assert.equal(outside, null);
  });

  it('prepareRename + rename edit the label and every reference; invalid names are refused', { timeout: TIMEOUT }, async () => {
    const at = { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'thm:main', 2) };
    const prep = await client.conn.sendRequest(PrepareRenameRequest.type, at) as { range: Range; placeholder: string };
    assert.deepEqual(prep, { range: { start: posOf(sec2, 'thm:main'), end: posOf(sec2, 'thm:main', 8) }, placeholder: 'thm:main' });
    const edit = await client.conn.sendRequest(RenameRequest.type, { ...at, newName: 'thm:pythagoras' }) as WorkspaceEdit;
    assert.ok(edit.changes, JSON.stringify(edit));
    assert.deepEqual(Object.keys(edit.changes).sort(), [sec1Uri, sec2Uri].sort());
    assert.deepEqual(edit.changes[sec1Uri], [{ range: { start: posOf(SEC1, '{thm:main}', 1), end: posOf(SEC1, '{thm:main}', 9) }, newText: 'thm:pythagoras' }]);
    assert.deepEqual(sortRanges(edit.changes[sec2Uri].map((e) => e.range)), sortRanges(refRanges(sec2, 'thm:main')));
    assert.ok(edit.changes[sec2Uri].every((e) => e.newText === 'thm:pythagoras'));
    // applying the edits yields text where every old name is gone
    let renamed = sec2;
    for (const e of [...edit.changes[sec2Uri]].sort((a, b) => posToOffset(sec2, b.range.start) - posToOffset(sec2, a.range.start))) {
      renamed = applyEdit(renamed, e.range, e.newText);
    }
    assert.ok(!renamed.includes('thm:main'), renamed);
    assert.match(renamed, /\\cref\{sec:intro,thm:pythagoras\}/);

    for (const bad of ['has space', 'a,b', 'br{ace', '', 'pct%']) {
      await assert.rejects(
        client.conn.sendRequest(RenameRequest.type, { ...at, newName: bad }),
        (e: unknown) => e instanceof ResponseError && e.code === ErrorCodes.InvalidParams,
        `'${bad}' refused`,
      );
    }
    // prepareRename outside of a label/reference gives null
    assert.equal(await client.conn.sendRequest(PrepareRenameRequest.type, { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'By') }), null);
  });

  it('documentSymbol of sec1.tex nests the theorem under its section', { timeout: TIMEOUT }, async () => {
    const symbols = await client.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: sec1Uri } }) as DocumentSymbol[];
    assert.equal(symbols.length, 1, JSON.stringify(symbols));
    const [sec] = symbols;
    assert.equal(sec.name, 'Section: Intro');
    assert.equal(sec.detail, 'sec:intro');
    const names = (sec.children ?? []).map((c) => c.name);
    assert.deepEqual(names, ['Theorem (Fundamental)', 'Definition'], JSON.stringify(sec.children));
    const thm = sec.children![0];
    assert.equal(thm.detail, 'thm:main');
    assert.deepEqual(thm.range.start, posOf(SEC1, '\\begin{theorem}'));
  });

  it('folding ranges, document links and highlights', { timeout: TIMEOUT }, async () => {
    const folds = await client.conn.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: sec1Uri } });
    // the section to the end of the file; theorem, proof, align and definition up to their \end lines
    assert.deepEqual(folds?.map((f) => `${f.startLine}-${f.endLine}`), ['0-14', '2-3', '5-6', '8-10', '12-13']);
    const links = await client.conn.sendRequest(DocumentLinkRequest.type, { textDocument: { uri: mainUri } });
    assert.deepEqual(links?.map((l) => `${l.range.start.line}:${l.range.start.character} ${path.basename(l.target ?? '')}`), ['6:7 sec1.tex', '7:7 sec2.tex']);
    const hl = await client.conn.sendRequest(DocumentHighlightRequest.type, { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'thm:main', 1) });
    // every reference to thm:main in sec2.tex as the client has it now (read: kind 2), among
    // them the second key of \cref{sec:intro,thm:main}; the label is in sec1.tex
    const want = [...sec2.matchAll(/thm:main/g)].map((m) => { const p = offsetToPos(sec2, m.index!); return `${p.line}:${p.character} 2`; });
    assert.ok(want.length >= 2);
    assert.deepEqual(hl?.map((h) => `${h.range.start.line}:${h.range.start.character} ${h.kind}`), want);
  });

  it('workspace/symbol finds "Fundamental"', { timeout: TIMEOUT }, async () => {
    const found = await client.conn.sendRequest(WorkspaceSymbolRequest.type, { query: 'Fundamental' }) as SymbolInformation[];
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0].name, 'Theorem (Fundamental)');
    assert.equal(found[0].location.uri, sec1Uri);
    assert.equal(found[0].containerName, 'thm:main');
    const sections = await client.conn.sendRequest(WorkspaceSymbolRequest.type, { query: 'section' }) as SymbolInformation[];
    assert.deepEqual(sections.map((s) => s.name).sort(), ['Section: Intro', 'Section: Results']);
  });

  it('changing a label in another open document republishes the referencing document', { timeout: TIMEOUT }, async () => {
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: sec1Uri, languageId: 'latex', version: 1, text: SEC1 } });
    await waitFor('diagnostics for sec1 v1', () => client.latest(sec1Uri, 1));
    const start = posOf(SEC1, '{thm:main}', 1);
    const end = posOf(SEC1, '{thm:main}', 9);
    let published = client.published.length;
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: sec1Uri, version: 2 }, contentChanges: [{ range: { start, end }, text: 'thm:gone' }],
    });
    const broken = await waitFor('sec2 republished with thm:main undefined', () => {
      const last = client.published.slice(published).filter((d) => d.uri === sec2Uri).pop();
      return last && last.diagnostics.some((d) => d.code === 'undefined-ref') ? last : undefined;
    });
    assert.equal(broken.version, sec2Version, 'republished for the current version of sec2');
    assert.deepEqual(
      sortRanges(broken.diagnostics.filter((d) => d.code === 'undefined-ref').map((d) => d.range)),
      sortRanges(refRanges(sec2, 'thm:main')),
    );
    published = client.published.length;
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: sec1Uri, version: 3 }, contentChanges: [{ range: { start, end: { line: end.line, character: end.character } }, text: 'thm:main' }],
    });
    await waitFor('sec2 republished without undefined refs', () => {
      const last = client.published.slice(published).filter((d) => d.uri === sec2Uri).pop();
      return last && !last.diagnostics.some((d) => d.code === 'undefined-ref');
    });
    await client.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: sec1Uri } });
    await waitFor('sec1 diagnostics cleared', () => client.latest(sec1Uri)?.version === undefined && client.latest(sec1Uri)?.diagnostics.length === 0);
  });

  it('malformed and binary-looking content never crashes the server', { timeout: 60_000 }, async () => {
    const bad: Array<{ name: string; languageId: string; text: string }> = [
      { name: 'nul.tex', languageId: 'latex', text: 'a\0b\0\\ref{\0}\\label{x\0y}\\begin{\0}\u0000'.repeat(50) },
      { name: 'unclosed.tex', languageId: 'latex', text: '\\begin{theorem}[oops\\label{u}\n\\ref{u\n\\section{ \\begin{align} x &= \\\\ \n$$ a' },
      { name: 'braces.tex', languageId: 'latex', text: '{'.repeat(50_000) },
      { name: 'closers.tex', languageId: 'latex', text: '}'.repeat(20_000) + '\\end{x}'.repeat(2_000) },
      { name: 'begins.tex', languageId: 'latex', text: '\\begin{a}'.repeat(10_000) + '\\label{deep}' },
      { name: 'surrogates.tex', languageId: 'latex', text: '\uD800\\label{\uDC00}\\ref{\uD83D}' + '\uFFFF'.repeat(100) },
      { name: 'note.md', languageId: 'markdown', text: '# $$\n\\label{m\0}\n$$ $ $$$ ``` \n' + '['.repeat(5000) + '$'.repeat(5000) },
    ];
    const uris: string[] = [];
    for (const b of bad) {
      const uri = pathToFileURL(path.join(dir, 'bad', b.name)).href;
      uris.push(uri);
      await client.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: b.languageId, version: 1, text: b.text } });
    }
    for (const uri of uris) await waitFor(`diagnostics for ${uri}`, () => client.latest(uri, 1), 30_000);
    // requests on the broken documents answer (with whatever result)
    for (const uri of uris) {
      await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 3 } });
      await client.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
      await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 8 } });
      // positions far outside the document are clamped, not fatal
      await client.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: 99999, character: 99999 } });
    }
    // edits of the broken documents, including a range past the end
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uris[2], version: 2 },
      contentChanges: [{ range: { start: { line: 0, character: 25_000 }, end: { line: 0, character: 25_010 } }, text: '}\\label{z}' }],
    });
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uris[1], version: 2 },
      contentChanges: [{ range: { start: { line: 50, character: 0 }, end: { line: 60, character: 0 } }, text: '\\end{theorem}' }],
    });
    await waitFor('diagnostics for braces.tex v2', () => client.latest(uris[2], 2), 30_000);
    await waitFor('diagnostics for unclosed.tex v2', () => client.latest(uris[1], 2), 30_000);
    // requests for a document the server never heard of
    assert.equal(await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: 'file:///nowhere/x.tex' }, position: { line: 0, character: 0 } }), null);
    assert.equal(await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: 'untitled:Untitled-1' }, position: { line: 0, character: 0 } }), null);
    for (const uri of uris) await client.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });

    // still alive and still right
    assert.equal(client.exit, undefined, client.stderr);
    const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: sec2Uri }, position: posOf(sec2, 'thm:main', 3) });
    assert.match(markdown(h), /Fundamental/);
    assert.deepEqual(client.errors(), [], 'no handler failed');
  });

  it('incremental edits leave the same analysis as opening the final text', { timeout: TIMEOUT }, async () => {
    // Two standalone documents (no \documentclass, nothing includes them): `inc.tex` is built
    // by an incremental edit, `full.tex` is opened with the resulting text. Both must be
    // analysed identically. The edit closes a \newcommand body left open three blocks earlier:
    // the block splitter skips definition bodies with a look-ahead of up to 50,000 characters,
    // so an edit can change block boundaries *before* the block it touches.
    const start = String.raw`\newcommand{\foo}{
\section{Alpha}\label{sec:a}
See \ref{sec:a}.

\section{Beta}
Text.
`;
    const incUri = pathToFileURL(path.join(dir, 'standalone', 'inc.tex')).href;
    const fullUri = pathToFileURL(path.join(dir, 'standalone', 'full.tex')).href;
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: incUri, languageId: 'latex', version: 1, text: start } });
    const at = posOf(start, 'Text.', 5);
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: incUri, version: 2 }, contentChanges: [{ range: { start: at, end: at }, text: '}' }],
    });
    const final = applyEdit(start, { start: at, end: at }, '}');
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: fullUri, languageId: 'latex', version: 2, text: final } });
    const incDiags = await waitFor('diagnostics for inc.tex v2', () => client.latest(incUri, 2));
    const fullDiags = await waitFor('diagnostics for full.tex v2', () => client.latest(fullUri, 2));
    assert.deepEqual(incDiags.diagnostics, fullDiags.diagnostics);
    const incSymbols = await client.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: incUri } }) as DocumentSymbol[];
    const fullSymbols = await client.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: fullUri } }) as DocumentSymbol[];
    assert.deepEqual(incSymbols.map((s) => s.name), fullSymbols.map((s) => s.name), 'sections after an incremental edit differ from a fresh parse of the same text');
    const incDef = await client.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: incUri }, position: posOf(final, 'See \\ref{sec:a}', 10) }) as Location[];
    const fullDef = await client.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: fullUri }, position: posOf(final, 'See \\ref{sec:a}', 10) }) as Location[];
    assert.deepEqual(incDef.map((l) => l.range), fullDef.map((l) => l.range));
    for (const uri of [incUri, fullUri]) await client.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  });

  it('a workspace folder added later is scanned', { timeout: TIMEOUT }, async () => {
    const other = path.join(dir, '..', path.basename(dir) + '-other');
    fs.mkdirSync(other, { recursive: true });
    try {
      fs.writeFileSync(path.join(other, 'paper.tex'), String.raw`\documentclass{article}
\newtheorem{lemma}{Lemma}
\begin{document}
\begin{lemma}[Zorn]\label{lem:zorn}
Every chain has an upper bound.
\end{lemma}
\end{document}
`);
      await client.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
        event: { added: [{ uri: pathToFileURL(other).href, name: 'other' }], removed: [] },
      });
      let symbols: SymbolInformation[] = [];
      const started = Date.now();
      while (Date.now() - started < TIMEOUT) {
        symbols = await client.conn.sendRequest(WorkspaceSymbolRequest.type, { query: 'Zorn' }) as SymbolInformation[];
        if (symbols.length) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(symbols.map((s) => s.name), ['Lemma (Zorn)']);
      assert.equal(symbols[0].location.uri, pathToFileURL(path.join(other, 'paper.tex')).href);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('shuts down and exits cleanly', { timeout: TIMEOUT }, async () => {
    assert.deepEqual(client.errors(), []);
    const r = await client.conn.sendRequest(ShutdownRequest.type);
    assert.equal(r, null);
    const exited = new Promise<number | null>((resolve) => {
      if (client.child.exitCode !== null) resolve(client.child.exitCode);
      else client.child.once('exit', (code) => resolve(code));
    });
    await client.conn.sendNotification(ExitNotification.type);
    assert.equal(await exited, 0);
  });
});

describe('language server: startup race, settings, watched files, close', { timeout: 120_000 }, () => {
  let dir: string;
  let client: Client;
  let sec1Uri: string;
  let sec2Uri: string;
  let unusedLabels = false;

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-lsp2-')));
    fs.writeFileSync(path.join(dir, 'main.tex'), MAIN);
    fs.writeFileSync(path.join(dir, 'sec1.tex'), SEC1);
    fs.writeFileSync(path.join(dir, 'sec2.tex'), SEC2);
    sec1Uri = pathToFileURL(path.join(dir, 'sec1.tex')).href;
    sec2Uri = pathToFileURL(path.join(dir, 'sec2.tex')).href;
    client = new Client();
    // answers reflect the current test's settings
    client.conn.onRequest(ConfigurationRequest.type, (p) => {
      client.configurationRequests.push(p);
      return p.items.map(() => ({ diagnostics: { unusedLabels } }));
    });
  });

  after(() => {
    client?.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a document opened right after initialized ends with the right diagnostics once the scan is done', { timeout: TIMEOUT }, async () => {
    const folderUri = pathToFileURL(dir).href;
    await client.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid, rootUri: folderUri, workspaceFolders: [{ uri: folderUri, name: 'fixture' }],
      capabilities: { window: { workDoneProgress: true }, workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } } },
    });
    await client.conn.sendNotification(InitializedNotification.type, {});
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: sec2Uri, languageId: 'latex', version: 1, text: SEC2 },
    });
    await waitFor('$/progress end', () => client.progress.some((p) => p.value.kind === 'end'));
    await client.conn.sendRequest('mathsense/status');
    const pub = await waitFor('correct diagnostics for sec2 v1', () => {
      const last = client.latest(sec2Uri);
      return last && last.version === 1 && last.diagnostics.length === 2 ? last : undefined;
    });
    assert.deepEqual(pub.diagnostics.map((d) => d.code).sort(), ['duplicate-label', 'undefined-ref']);
  });

  it('a client without the workspaceFolders capability gets no error from initialized', { timeout: TIMEOUT }, async () => {
    // this client declared no `workspace.workspaceFolders` capability: the server must not
    // subscribe to folder change events (vscode-languageserver throws when it does)
    assert.deepEqual(client.errors(), [], 'errors logged during initialization');
  });

  it('a configuration change is pulled and applied to open documents', { timeout: TIMEOUT }, async () => {
    unusedLabels = true;
    const before = client.configurationRequests.length;
    const published = client.published.length;
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await waitFor('configuration pulled again', () => client.configurationRequests.length > before);
    const pub = await waitFor('republished with unused-label hints', () => {
      const last = client.published.slice(published).filter((d) => d.uri === sec2Uri).pop();
      return last?.diagnostics.some((d) => d.code === 'unused-label') ? last : undefined;
    });
    const unused = pub.diagnostics.filter((d) => d.code === 'unused-label');
    assert.equal(unused.length, 1, JSON.stringify(pub.diagnostics));
    assert.equal(unused[0].severity, 4);
    assert.deepEqual(unused[0].range.start, posOf(SEC2, '{dup}', 1));
    unusedLabels = false;
    const published2 = client.published.length;
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await waitFor('republished without hints', () => {
      const last = client.published.slice(published2).filter((d) => d.uri === sec2Uri).pop();
      return last && !last.diagnostics.some((d) => d.code === 'unused-label');
    });
  });

  it('a label renamed on disk (didChangeWatchedFiles) updates the open document', { timeout: TIMEOUT }, async () => {
    fs.writeFileSync(path.join(dir, 'sec1.tex'), SEC1.replace('\\label{thm:main}', '\\label{thm:other}'));
    const published = client.published.length;
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: sec1Uri, type: 2 }] });
    const pub = await waitFor('sec2 republished with thm:main undefined', () => {
      const last = client.published.slice(published).filter((d) => d.uri === sec2Uri).pop();
      return last && last.diagnostics.filter((d) => d.code === 'undefined-ref').length === 3 ? last : undefined;
    });
    assert.equal(pub.version, 1);
    assert.deepEqual(
      sortRanges(pub.diagnostics.filter((d) => d.code === 'undefined-ref').map((d) => d.range)),
      sortRanges([...refRanges(SEC2, 'thm:main'), ...refRanges(SEC2, 'nope')]),
    );
    // deleting the file makes its labels disappear as well
    fs.rmSync(path.join(dir, 'sec1.tex'));
    const published2 = client.published.length;
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: sec1Uri, type: 3 }] });
    const pub2 = await waitFor('sec2 republished after deletion', () => {
      const last = client.published.slice(published2).filter((d) => d.uri === sec2Uri).pop();
      return last && !last.diagnostics.some((d) => d.code === 'duplicate-label') ? last : undefined;
    });
    // main.tex inputs a file that is gone: the project's labels are no longer known in full, so
    // no reference is called undefined (the missing file is what main.tex reports)
    assert.equal(pub2.diagnostics.filter((d) => d.code === 'undefined-ref').length, 0, JSON.stringify(pub2.diagnostics));
  });

  it('closing a document clears its diagnostics', { timeout: TIMEOUT }, async () => {
    const published = client.published.length;
    await client.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: sec2Uri } });
    const pub = await waitFor('empty diagnostics for sec2', () => client.published.slice(published).find((d) => d.uri === sec2Uri));
    assert.deepEqual(pub.diagnostics, []);
    // nothing is published for a closed document afterwards
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(client.published.slice(published).filter((d) => d.uri === sec2Uri).map((d) => d.diagnostics.length), [0]);
    assert.deepEqual(client.errors().filter((m) => !/workspace folder change events/.test(m)), []);
  });
});

// ---- a file deleted on disk while open (defect: the open document went dead) ------------

describe('language server: an open document deleted on disk', { timeout: 120_000 }, () => {
  let dir: string;
  let client: Client;
  const GONE = '\\section{Gone}\\label{sec:gone}\n';
  const ORPHAN = '%!TEX root = ../main.tex\n\\section{Orphan}\nRef \\ref{sec:gone}.\n';

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-lsp3-')));
    fs.mkdirSync(path.join(dir, 'ch'));
    fs.writeFileSync(path.join(dir, 'main.tex'), '\\documentclass{article}\n\\begin{document}\n\\input{ch/gone}\n\\end{document}\n');
    fs.writeFileSync(path.join(dir, 'ch', 'gone.tex'), GONE);
    fs.writeFileSync(path.join(dir, 'ch', 'orphan.tex'), ORPHAN);
    client = new Client();
  });

  after(() => {
    client?.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its buffer (hover, symbols, diagnostics, references into it) until it is closed', { timeout: 60_000 }, async () => {
    const folderUri = pathToFileURL(dir).href;
    const gonePath = path.join(dir, 'ch', 'gone.tex');
    const goneUri = pathToFileURL(gonePath).href;
    const orphanUri = pathToFileURL(path.join(dir, 'ch', 'orphan.tex')).href;
    await client.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid, rootUri: folderUri, workspaceFolders: [{ uri: folderUri, name: 'fixture' }], capabilities: { window: { workDoneProgress: true } },
    });
    await client.conn.sendNotification(InitializedNotification.type, {});
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: orphanUri, languageId: 'latex', version: 1, text: ORPHAN } });
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: goneUri, languageId: 'latex', version: 1, text: GONE } });
    await client.conn.sendRequest('mathsense/status');
    const undefinedRefs = (uri: string) => client.latest(uri)?.diagnostics.filter((d) => d.code === 'undefined-ref').length;
    await waitFor('orphan published clean', () => undefinedRefs(orphanUri) === 0);

    fs.rmSync(gonePath);
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: goneUri, type: 3 }] });
    // the open buffer still answers
    const labelAt = posOf(GONE, 'sec:gone', 2);
    assert.match(markdown(await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: goneUri }, position: labelAt })), /Section.*sec:gone/);
    const symbols = await client.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: goneUri } }) as DocumentSymbol[];
    assert.deepEqual(symbols.map((s) => s.name), ['Section: Gone']);
    // and is still edited and published
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: goneUri, version: 2 }, contentChanges: [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: 'See \\ref{nope}.\n' }],
    });
    const v2 = await waitFor('gone.tex v2 published', () => client.latest(goneUri, 2));
    assert.deepEqual(v2.diagnostics.map((d) => d.code), ['undefined-ref']);
    // its label stays defined for the project (orphan is re-validated after the change)
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(undefinedRefs(orphanUri), 0);

    // recreated on disk while open: nothing changes
    fs.writeFileSync(gonePath, GONE);
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: goneUri, type: 1 }] });
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(undefinedRefs(orphanUri), 0);
    assert.equal(client.latest(goneUri)?.version, 2);

    // deleted again, then closed: now it is gone for the project
    fs.rmSync(gonePath);
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: goneUri, type: 3 }] });
    const published = client.published.length;
    await client.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: goneUri } });
    // main.tex now inputs a file that is not there: what it defined is unknown, so the orphan's
    // reference is not called undefined (the missing file is the problem, reported where it is read)
    await waitFor('orphan republished after the close', () => client.published.slice(published).some((d) => d.uri === orphanUri));
    assert.equal(undefinedRefs(orphanUri), 0);
    const defs = await client.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: orphanUri }, position: posOf(ORPHAN, 'sec:gone') }) as Location[] | null;
    assert.equal(defs?.length ?? 0, 0);
    assert.equal(await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: goneUri }, position: labelAt }), null);
    assert.deepEqual(client.errors(), []);
  });
});
