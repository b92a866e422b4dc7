// The capability list and the handlers agree: every handler module is registered in
// server.ts#HANDLERS, and every provider the server announces answers its request over real
// stdio (a capability without a handler would answer "method not found"). A newcomer adding a
// feature touches one feature module, one handler and the capability list; this test notices
// when one of the three is forgotten.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LspClient } from './lspClient.js';
import { CAPABILITIES } from './capabilities.js';
import { SERVER_COMMANDS, STATUS_REQUEST } from '../ext/protocol.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..', '..');
const srcDir = path.join(repoRoot, 'server', 'src', 'protocol');

test('every handler module is registered in HANDLERS', () => {
  const server = fs.readFileSync(path.join(srcDir, 'server.ts'), 'utf8');
  const list = /const HANDLERS\b[\s\S]*?=\s*\[([\s\S]*?)\];/.exec(server)?.[1] ?? '';
  const registeredApart = /registerWorkspace\(conn/.test(server) ? ['registerWorkspace'] : [];
  const handlers = fs.readdirSync(path.join(srcDir, 'handlers')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  assert.ok(handlers.length >= 10, `found ${handlers.length} handler modules`);
  assert.ok(list.includes('registerHover'), 'HANDLERS is found in protocol/server.ts');
  for (const f of handlers) {
    const src = fs.readFileSync(path.join(srcDir, 'handlers', f), 'utf8');
    const registers = [...src.matchAll(/export function (register\w+)\(/g)].map((m) => m[1]);
    assert.ok(registers.length > 0, `${f} exports a register function`);
    for (const r of registers) assert.ok(new RegExp(`\\b${r}\\b`).test(list) || registeredApart.includes(r), `${f}#${r} is in protocol/server.ts#HANDLERS`);
  }
});

/** The request each announced provider answers, with parameters for a document at its start. */
const REQUESTS: Record<string, (uri: string) => [string, unknown]> = {
  hoverProvider: (uri) => ['textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } }],
  codeActionProvider: (uri) => ['textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } }],
  definitionProvider: (uri) => ['textDocument/definition', { textDocument: { uri }, position: { line: 0, character: 0 } }],
  referencesProvider: (uri) => ['textDocument/references', { textDocument: { uri }, position: { line: 0, character: 0 }, context: { includeDeclaration: true } }],
  documentSymbolProvider: (uri) => ['textDocument/documentSymbol', { textDocument: { uri } }],
  workspaceSymbolProvider: () => ['workspace/symbol', { query: '' }],
  completionProvider: (uri) => ['textDocument/completion', { textDocument: { uri }, position: { line: 0, character: 0 } }],
  renameProvider: (uri) => ['textDocument/prepareRename', { textDocument: { uri }, position: { line: 0, character: 0 } }],
  documentHighlightProvider: (uri) => ['textDocument/documentHighlight', { textDocument: { uri }, position: { line: 0, character: 0 } }],
  foldingRangeProvider: (uri) => ['textDocument/foldingRange', { textDocument: { uri } }],
  documentLinkProvider: (uri) => ['textDocument/documentLink', { textDocument: { uri } }],
  codeLensProvider: (uri) => ['textDocument/codeLens', { textDocument: { uri } }],
  callHierarchyProvider: (uri) => ['textDocument/prepareCallHierarchy', { textDocument: { uri }, position: { line: 0, character: 0 } }],
  inlayHintProvider: (uri) => ['textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } } }],
  executeCommandProvider: () => ['workspace/executeCommand', { command: SERVER_COMMANDS[0], arguments: [{ latex: 'x^2 + y^2 = z^2' }] }],
};
/** Announced without a request of their own. */
const NOT_REQUESTS = new Set(['textDocumentSync', 'workspace']);

test('every announced provider answers over stdio', { timeout: 60_000 }, async () => {
  const announced = Object.keys(CAPABILITIES).filter((k) => !NOT_REQUESTS.has(k));
  assert.deepEqual(announced.filter((k) => !REQUESTS[k]), [], 'a new capability needs its request here');
  const client = new LspClient({ bundle: path.join(repoRoot, 'server', 'dist', 'mathsense.cjs') });
  const conn = client.conn;
  const uri = pathToFileURL(path.join(repoRoot, 'fixture-capabilities.tex')).href;
  try {
    const init = await client.initialize(undefined);
    assert.deepEqual(Object.keys(init.capabilities).sort(), Object.keys(CAPABILITIES).sort());
    client.open(uri, '\\section{A}\\label{sec:a}\nSee \\ref{sec:a}.\n');
    for (const k of announced) {
      const [method, params] = REQUESTS[k](uri);
      // a missing handler rejects with MethodNotFound; an answer of any shape is a handler
      await assert.doesNotReject(conn.sendRequest(method, params), `${k}: ${method}`);
    }
    const status = await conn.sendRequest(STATUS_REQUEST) as { version?: string };
    assert.equal(typeof status.version, 'string');
    await client.stop();
  } finally {
    client.kill();
  }
});
