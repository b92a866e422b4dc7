// The bundled server over stdio as an editor drives it, for the eval scripts that ask it what
// a user would see at real positions (bin/evalHovers.ts, bin/evalMacroRefs.ts): initialize on a
// project folder, open files, hover, go to definition, shut down.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import * as rpc from 'vscode-languageserver-protocol/node';
import type { ProtocolConnection } from 'vscode-languageserver-protocol/node';
import type { ServerStatus } from 'mathsense-server/protocol';

export class StdioServer {
  readonly root: string;
  readonly child: ChildProcessWithoutNullStreams;
  readonly conn: ProtocolConnection;

  /** `bundle`: the server's .cjs; `root`: the project folder it is opened on. */
  constructor(bundle: string, root: string) {
    this.root = root;
    this.child = spawn(process.execPath, [bundle, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] }) as unknown as ChildProcessWithoutNullStreams;
    this.conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(this.child.stdout), new rpc.StreamMessageWriter(this.child.stdin));
    this.conn.onRequest(rpc.ConfigurationRequest.type, (p) => p.items.map(() => ({})));
    this.conn.onRequest(rpc.WorkDoneProgressCreateRequest.method, () => null);
    this.conn.onRequest(rpc.CodeLensRefreshRequest.method, () => null);
    this.conn.onRequest(rpc.InlayHintRefreshRequest.method, () => null);
    // every other notification is dropped
    (this.conn as unknown as { onNotification(h: () => void): void }).onNotification(() => {});
    this.conn.listen();
  }

  /** `capabilities`: the client's, besides configuration and workspace folders. */
  async start(capabilities: rpc.ClientCapabilities = {}) {
    const uri = pathToFileURL(this.root).href;
    const caps = { ...capabilities, workspace: { configuration: true, workspaceFolders: true, ...capabilities.workspace } };
    await this.conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: uri, workspaceFolders: [{ uri, name: path.basename(this.root) }], capabilities: caps, initializationOptions: {} });
    await this.conn.sendNotification(rpc.InitializedNotification.type, {});
  }

  /** `mathsense/status` (answered once the workspace scan and includes are read). */
  status(): Promise<ServerStatus> { return this.conn.sendRequest<ServerStatus>('mathsense/status'); }

  open(uri: string, text: string) { return this.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text } }); }

  /** The hover's Markdown at `position`, '' for none. */
  async hover(uri: string, position: rpc.Position): Promise<string> {
    const h = await this.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri }, position });
    return h ? (typeof h.contents === 'string' ? h.contents : (h.contents as { value?: string }).value ?? '') : '';
  }

  definition(uri: string, position: rpc.Position) { return this.conn.sendRequest(rpc.DefinitionRequest.type, { textDocument: { uri }, position }); }

  async stop() {
    try { await this.conn.sendRequest(rpc.ShutdownRequest.type); await this.conn.sendNotification(rpc.ExitNotification.type); } catch { /* gone */ }
    setTimeout(() => { if (this.child.exitCode === null) this.child.kill('SIGKILL'); }, 2000).unref();
    this.conn.dispose();
  }
}
