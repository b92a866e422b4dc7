// LSP wiring: the connection, the capabilities, and routing. Each handler (handlers/) converts
// a request in, calls one feature entry point with the session, and converts the answer out;
// what a feature answers, and when background work runs, is decided below this layer. Every
// handler is guarded: a failure in one feature is logged and answered with an empty result,
// never allowed to take the server down.
import { createConnection, ProposedFeatures, ResponseError, StreamMessageWriter, type Connection, type InitializeParams, type InitializeResult, type Message, type MessageReader } from 'vscode-languageserver/node';
import { uriToPath } from '../project/files.js';
import { STATUS_CHANGED, type InitializationOptions } from '../ext/protocol.js';
import { Session, VERSION, type SessionClient } from '../session/session.js';
import type { Progress } from '../session/projectLoader.js';
import { holdFor, messageOut } from '../util/turns.js';
import { CAPABILITIES } from './capabilities.js';
import { registerDocuments, registerWorkspace } from './handlers/documents.js';
import { registerHover } from './handlers/hover.js';
import { registerCompletion } from './handlers/completion.js';
import { registerNavigation } from './handlers/navigation.js';
import { registerSymbols } from './handlers/symbols.js';
import { registerFolding } from './handlers/folding.js';
import { registerDocumentLinks } from './handlers/documentLinks.js';
import { registerInlayHints } from './handlers/inlayHints.js';
import { registerCodeActions } from './handlers/codeActions.js';
import { registerCodeLens } from './handlers/codeLens.js';
import { registerCommands } from './handlers/commands.js';
import { registerDependencies } from './handlers/dependencies.js';
import { registerStatus } from './handlers/status.js';

/** One per capability in CAPABILITIES (document sync and workspace events are registered apart). */
const HANDLERS: ReadonlyArray<(c: Connection, s: Session) => void> = [
  registerDocuments, registerHover, registerCompletion, registerNavigation, registerSymbols, registerFolding,
  registerDocumentLinks, registerInlayHints, registerCodeActions, registerCodeLens, registerCommands, registerStatus,
  registerDependencies,
];

/** The session's way to the client, over the connection. */
function connectionClient(conn: Connection): SessionClient {
  return {
    log: (m) => conn.console.log(m),
    error: (m) => conn.console.error(m),
    publishDiagnostics: (uri, version, diagnostics) => void conn.sendDiagnostics({ uri, version, diagnostics }),
    progress: async (title, message): Promise<Progress | undefined> => {
      const p = await conn.window.createWorkDoneProgress().catch(() => undefined);
      if (!p) return undefined;
      p.begin(title, 0, message, false);
      return { report: (msg, pct) => (pct === undefined ? p.report(msg) : p.report(pct, msg)), done: () => p.done() };
    },
    refreshLenses: async () => { await conn.sendRequest('workspace/codeLens/refresh'); },
    statusChanged: () => void conn.sendNotification(STATUS_CHANGED).catch(() => undefined),
    passThrough: (e) => e instanceof ResponseError,
    applyEdit: async (edit, label) => (await conn.workspace.applyEdit({ label, edit }).catch(() => ({ applied: false }))).applied,
  };
}

export class MathSenseServer {
  readonly session: Session;

  constructor(conn: Connection) {
    const client = connectionClient(conn);
    this.session = new Session(client);
    const s = this.session;
    conn.onInitialize((params: InitializeParams): InitializeResult => {
      const caps = params.capabilities;
      if (caps.workspace?.inlayHint?.refreshSupport) client.refreshInlayHints = async () => { await conn.sendRequest('workspace/inlayHint/refresh'); };
      if (caps.workspace?.configuration) client.configuration = (scopes) => conn.workspace.getConfiguration(scopes.map((scopeUri) => ({ section: 'mathsense', ...(scopeUri ? { scopeUri } : {}) })));
      const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
      s.initialize({
        folders: folders.map((u) => uriToPath(u)).filter((p): p is string => !!p),
        init: params.initializationOptions as InitializationOptions | undefined,
        lensRefresh: !!caps.workspace?.codeLens?.refreshSupport,
        versionedEdits: !!caps.workspace?.workspaceEdit?.documentChanges,
        foldingRangeLimit: caps.textDocument?.foldingRange?.rangeLimit,
        completionEditRange: !!caps.textDocument?.completion?.completionList?.itemDefaults?.includes('editRange'),
      });
      conn.onInitialized(() => {
        s.initialized();
        registerWorkspace(conn, s, !!caps.workspace?.workspaceFolders);
      });
      return { serverInfo: { name: 'mathsense', version: VERSION }, capabilities: CAPABILITIES };
    });
    for (const register of HANDLERS) register(conn, s);
    conn.onShutdown(() => s.shutdown());
  }
}

/** `writer`, holding background slices while a message it was given is not written yet (util/turns.ts#messageOut). */
function writingHeld(writer: StreamMessageWriter): StreamMessageWriter {
  const write = writer.write.bind(writer);
  writer.write = (msg: Message) => {
    const written = messageOut();
    return write(msg).finally(written);
  };
  return writer;
}

/** Turns of the event loop a message needs from read to dispatch, and from dispatch to its answer written. */
const READ_TURNS = 3;
const ANSWER_TURNS = 2;

export function startServer(): Connection {
  // background slices wait while a message goes through the connection (util/turns.ts): from
  // when its bytes are read (stdio and node-ipc; other transports from dispatch on) to its answer
  const options = { messageStrategy: { handleMessage: (m: Message, next: (m: Message) => void) => { holdFor(ANSWER_TURNS); next(m); } } };
  const stdio = process.argv.includes('--stdio');
  // over stdio the writer writes one message per turn: background slices wait while it has any
  // (stdin stays a stream, as the library takes it from --stdio: it then exits when the stream ends)
  const conn = stdio
    ? createConnection(ProposedFeatures.all, process.stdin as unknown as MessageReader, writingHeld(new StreamMessageWriter(process.stdout)), options)
    : createConnection(ProposedFeatures.all, options);
  if (stdio) process.stdin.on('data', () => holdFor(READ_TURNS));
  else if (process.argv.includes('--node-ipc')) process.on('message', () => holdFor(READ_TURNS));
  // stdout belongs to the protocol: route stray console output to the client's log
  console.log = (...a: unknown[]) => conn.console.log(a.map(String).join(' '));
  console.info = console.log;
  console.warn = (...a: unknown[]) => conn.console.warn(a.map(String).join(' '));
  console.error = (...a: unknown[]) => conn.console.error(a.map(String).join(' '));
  process.on('uncaughtException', (e) => conn.console.error(`uncaught: ${e.stack ?? e}`));
  process.on('unhandledRejection', (e) => conn.console.error(`unhandled rejection: ${e}`));
  new MathSenseServer(conn);
  conn.listen();
  return conn;
}
