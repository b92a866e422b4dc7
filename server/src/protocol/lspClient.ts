// A client of the bundled server over real stdio, as an editor drives it: the one used by the
// protocol tests (testing/stdioServer.ts builds on it), and by the benchmarks and evaluations of
// the offline package (mathsense-server/api/cli). It keeps what the server sends (diagnostics,
// log messages) and resolves waits on those events instead of sleeping.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest, InitializedNotification,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, PublishDiagnosticsNotification,
  ConfigurationRequest, WorkDoneProgressCreateRequest, LogMessageNotification, ShutdownRequest, ExitNotification,
  CodeLensRefreshRequest, InlayHintRefreshRequest, ApplyWorkspaceEditRequest,
  type ApplyWorkspaceEditParams, type ClientCapabilities, type ConfigurationItem, type InitializeParams, type InitializeResult, type ProtocolConnection,
  type PublishDiagnosticsParams, type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';

export interface LspClientOptions {
  /** The server's bundle (server/dist/mathsense.cjs of a build). */
  bundle: string;
  /** The command line after the bundle (default `lsp --stdio`). */
  args?: readonly string[];
  /** Node's own options before the bundle (`--cpu-prof`, `--max-old-space-size=…`). */
  nodeArgs?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** The answer to each item of `workspace/configuration` (the `mathsense` section): none by default. */
  settings?: (item: ConfigurationItem) => unknown;
  /** Answer `workspace/configuration` only after releaseSettings(): what the test does first happens before the server's scan and index load. */
  holdSettings?: boolean;
}

export interface Exit { code: number | null; signal: NodeJS.Signals | null }

type Waiter = () => boolean;

/** Characters of stderr kept (its end: what a failure shows). */
const STDERR_KEPT = 64 * 1024;

export class LspClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly conn: ProtocolConnection;
  /** Every publishDiagnostics, in order. */
  readonly published: PublishDiagnosticsParams[] = [];
  /** Every window/logMessage, with its type (1 error … 4 log). */
  readonly logs: Array<{ type: number; message: string }> = [];
  /** Every `workspace/applyEdit` the server asked for (each answered as applied). */
  readonly appliedEdits: ApplyWorkspaceEditParams[] = [];
  /** How many times the server asked the client to request lenses and inlay hints again. */
  readonly refreshes = { codeLens: 0, inlayHint: 0 };
  /** The end of what the server wrote to stderr. */
  stderr = '';
  exit: Exit | undefined;
  private readonly waiters = new Set<Waiter>();
  private release: () => void = () => {};
  private readonly released: Promise<void>;

  constructor(readonly options: LspClientOptions) {
    this.released = options.holdSettings ? new Promise<void>((r) => { this.release = r; }) : Promise.resolve();
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.bundle, ...(options.args ?? ['lsp', '--stdio'])], { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env });
    this.child.stderr.on('data', (d: Buffer) => { this.stderr = (this.stderr + d.toString()).slice(-STDERR_KEPT); });
    this.child.on('exit', (code, signal) => { this.exit = { code, signal }; this.wake(); });
    this.conn = createProtocolConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => { this.published.push(p); this.wake(); });
    this.conn.onNotification(LogMessageNotification.type, (p) => { this.logs.push({ type: p.type, message: p.message }); this.wake(); });
    this.conn.onRequest(ConfigurationRequest.type, async (p) => {
      await this.released;
      return p.items.map((i) => options.settings?.(i) ?? {});
    });
    this.conn.onRequest(WorkDoneProgressCreateRequest.method, () => null);
    this.conn.onRequest(ApplyWorkspaceEditRequest.type, (p) => { this.appliedEdits.push(p); this.wake(); return { applied: true }; });
    this.conn.onRequest(CodeLensRefreshRequest.method, () => { this.refreshes.codeLens++; this.wake(); return null; });
    this.conn.onRequest(InlayHintRefreshRequest.method, () => { this.refreshes.inlayHint++; this.wake(); return null; });
    this.conn.onError(() => { /* a test sees it through its own assertions */ });
    this.conn.listen();
  }

  /** `initialize` (on `folder` as the one workspace folder, when given) and `initialized`. */
  async initialize(folder: string | undefined, capabilities: ClientCapabilities = {}, more: Partial<InitializeParams> = {}): Promise<InitializeResult> {
    const uri = folder ? pathToFileURL(folder).href : null;
    const r = await this.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid, rootUri: uri, workspaceFolders: folder ? [{ uri: uri!, name: path.basename(folder) }] : null, capabilities, ...more,
    });
    await this.conn.sendNotification(InitializedNotification.type, {});
    return r;
  }

  releaseSettings(): void { this.release(); }

  /** Opens a file (a path or a URI) with `text`; returns its URI. */
  open(file: string, text: string, version = 1, languageId = /\.md$/i.test(file) ? 'markdown' : 'latex'): string {
    const uri = file.includes('://') ? file : pathToFileURL(file).href;
    void this.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
    return uri;
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): void {
    void this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
  }

  close(uri: string): void {
    void this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Every publishDiagnostics for `uri`, in order. */
  forUri(uri: string): PublishDiagnosticsParams[] {
    return this.published.filter((p) => p.uri === uri);
  }

  /** The latest publishDiagnostics for `uri` (of `version`, when given). */
  latest(uri: string, version?: number): PublishDiagnosticsParams | undefined {
    for (let i = this.published.length - 1; i >= 0; i--) {
      const p = this.published[i];
      if (p.uri === uri && (version === undefined || p.version === version)) return p;
    }
    return undefined;
  }

  /**
   * Resolves with `f()`'s first value that is not undefined or false, checked now and after each
   * message the server sends (diagnostics, logs, exit); fails after `timeout` ms naming `what`.
   */
  until<T>(what: string, f: () => T | undefined | false, timeout = 30_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check: Waiter = () => {
        let v: T | undefined | false;
        try { v = f(); } catch (e) { done(); reject(e as Error); return true; }
        if (v === undefined || v === false) return false;
        done();
        resolve(v);
        return true;
      };
      const timer = setTimeout(() => { done(); reject(new Error(`timed out waiting for ${what}`)); }, timeout);
      const done = () => { clearTimeout(timer); this.waiters.delete(check); };
      if (!check()) this.waiters.add(check);
    });
  }

  /** The publishDiagnostics for `uri` (and `version`) that satisfies `pred`, when it comes (or has come). */
  diagnostics(uri: string, pred: (p: PublishDiagnosticsParams) => boolean = () => true, timeout?: number): Promise<PublishDiagnosticsParams> {
    return this.until(`diagnostics for ${uri}`, () => this.forUri(uri).find(pred), timeout);
  }

  /** Error messages the server logged. */
  errors(): string[] {
    return this.logs.filter((l) => l.type === 1).map((l) => l.message);
  }

  /** `shutdown` (unless told not to), then `exit`; resolves with how the process ended. */
  async stop(shutdown = true): Promise<Exit> {
    if (shutdown) await this.conn.sendRequest(ShutdownRequest.type);
    await this.conn.sendNotification(ExitNotification.type);
    return this.until('the server to exit', () => this.exit, 20_000);
  }

  /** `stop`, then the process is ended whatever it did: for a caller that only wants it gone. */
  async end(): Promise<void> {
    try { await this.stop(); } catch { /* gone already, or it did not exit in time */ }
    this.kill();
  }

  /** Ends the connection and the process, whatever state they are in. */
  kill(): void {
    try { this.conn.dispose(); } catch { /* closed already */ }
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}
