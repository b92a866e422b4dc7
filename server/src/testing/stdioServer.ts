// The bundled server over real stdio, for protocol tests: a temporary folder holding the
// test's files, the server spawned on it and initialized, then shut down and the folder removed.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest, InitializedNotification,
  PublishDiagnosticsNotification, WorkDoneProgressCreateRequest, ShutdownRequest, ExitNotification,
  type PublishDiagnosticsParams, type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { repoRoot } from './paths.js';

/**
 * A server over real stdio on a temporary folder holding `files`, initialized with
 * `capabilities`: `before` registers handlers before it listens, `run` drives it; then it is
 * shut down and the folder removed. `published` collects every publishDiagnostics.
 */
export async function withServer(
  files: Record<string, string>, capabilities: object,
  run: (s: { conn: ProtocolConnection; dir: string; published: PublishDiagnosticsParams[]; pid: number }) => Promise<void>,
  before?: (conn: ProtocolConnection, published: PublishDiagnosticsParams[]) => void,
  /** More of `initialize`'s parameters (initializationOptions, workspaceFolders given the temporary folder). */
  init?: (dir: string) => object,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-stdio-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  // MATHSENSE_TEST_SERVER: another build's bundle (a baseline for the crafted-input table)
  const bundle = process.env.MATHSENSE_TEST_SERVER ?? path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');
  const child = spawn(process.execPath, [bundle, 'lsp', '--stdio']);
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published: PublishDiagnosticsParams[] = [];
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => { published.push(p); });
  conn.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
  before?.(conn, published);
  conn.listen();
  try {
    await conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, workspaceFolders: null, capabilities, ...init?.(dir) });
    await conn.sendNotification(InitializedNotification.type, {});
    await run({ conn, dir, published, pid: child.pid! });
    await conn.sendRequest(ShutdownRequest.type);
    await conn.sendNotification(ExitNotification.type);
  } finally {
    conn.dispose();
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
