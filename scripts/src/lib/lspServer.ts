// The bundled server over stdio as an editor drives it, for the eval scripts that ask it what
// a user would see at real positions (bin/evalHovers.ts, bin/evalMacroRefs.ts, …): the server's
// own stdio client (mathsense-server/api/cli) opened on a project folder, with the few requests
// the scripts ask.
import * as rpc from 'vscode-languageserver-protocol/node';
import { LspClient } from 'mathsense-server/api/cli';
import type { ServerStatus } from 'mathsense-server/protocol';

export class StdioServer extends LspClient {
  /** `bundle`: the server's .cjs; `root`: the project folder it is opened on. */
  constructor(bundle: string, readonly root: string) {
    super({ bundle });
  }

  /** `capabilities`: the client's, besides configuration and workspace folders. */
  async start(capabilities: rpc.ClientCapabilities = {}): Promise<void> {
    const caps = { ...capabilities, workspace: { configuration: true, workspaceFolders: true, ...capabilities.workspace } };
    await this.initialize(this.root, caps, { initializationOptions: {} });
  }

  /** Opens a document as LaTeX (what the evaluations were judged with, whatever the file's extension). */
  override open(uri: string, text: string): string { return super.open(uri, text, 1, 'latex'); }

  /** `mathsense/status` (answered once the workspace scan and includes are read). */
  status(): Promise<ServerStatus> { return this.conn.sendRequest<ServerStatus>('mathsense/status'); }

  /** The hover's Markdown at `position`, '' for none. */
  async hover(uri: string, position: rpc.Position): Promise<string> {
    const h = await this.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri }, position });
    return h ? (typeof h.contents === 'string' ? h.contents : (h.contents as { value?: string }).value ?? '') : '';
  }

  definition(uri: string, position: rpc.Position) { return this.conn.sendRequest(rpc.DefinitionRequest.type, { textDocument: { uri }, position }); }
}
