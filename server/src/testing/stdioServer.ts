// The bundled server over real stdio, for protocol tests: a temporary folder holding the
// test's files, the server spawned on it (protocol/lspClient.ts) and initialized, then shut down
// and the folder removed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ProtocolConnection, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../protocol/lspClient.js';
import { repoRoot } from './paths.js';

/** The bundle tests run: this build's, or MATHSENSE_TEST_SERVER (another build's: a baseline for the crafted-input table). */
export const testBundle = (): string => process.env.MATHSENSE_TEST_SERVER ?? path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');

/**
 * A server over real stdio on a temporary folder holding `files`, initialized with
 * `capabilities`: `before` registers handlers before it is initialized, `run` drives it; then it
 * is shut down and the folder removed. `published` collects every publishDiagnostics.
 */
export async function withServer(
  files: Record<string, string>, capabilities: object,
  run: (s: { conn: ProtocolConnection; dir: string; published: PublishDiagnosticsParams[]; pid: number; client: LspClient }) => Promise<void>,
  before?: (conn: ProtocolConnection, published: PublishDiagnosticsParams[]) => void,
  /** More of `initialize`'s parameters (initializationOptions, workspaceFolders given the temporary folder). */
  init?: (dir: string) => object,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-stdio-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const client = new LspClient({ bundle: testBundle() });
  before?.(client.conn, client.published);
  try {
    await client.initialize(undefined, capabilities, init?.(dir));
    await run({ conn: client.conn, dir, published: client.published, pid: client.child.pid!, client });
    await client.stop();
  } finally {
    client.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
