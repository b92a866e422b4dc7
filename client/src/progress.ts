// Tracks the server's work-done progress (`window/workDoneProgress/create` + `$/progress`,
// e.g. "MathSense: indexing") for the status bar, and shows it in the window's progress area
// like the built-in handler does. Registered as a client feature after the built-in ones, so its
// handler is the one in effect (also after a restart).
import * as vscode from 'vscode';
import {
  WorkDoneProgress, WorkDoneProgressCreateRequest, type BaseLanguageClient, type ClientCapabilities,
  type FeatureState, type StaticFeature, type WorkDoneProgressBegin, type WorkDoneProgressReport,
} from 'vscode-languageclient/node';

export interface ProgressState { title: string; message?: string; percentage?: number }

export class ProgressTracker implements StaticFeature {
  private readonly active = new Map<string | number, ProgressState>();
  private readonly changed = new vscode.EventEmitter<ProgressState | undefined>();
  /** Fires with the latest active progress, or undefined when none is left. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly client: BaseLanguageClient) {}

  getState(): FeatureState { return { kind: 'static' }; }
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    (capabilities.window ??= {}).workDoneProgress = true;
  }

  initialize(): void {
    this.client.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      let resolveDone!: () => void;
      const done = new Promise<void>((r) => { resolveDone = r; });
      let report: ((v: { message?: string; increment?: number }) => void) | undefined;
      let last = 0;
      const sub = this.client.onProgress(WorkDoneProgress.type, token, (v) => {
        if (v.kind === 'begin') {
          const b = v as WorkDoneProgressBegin;
          this.active.set(token, { title: b.title, message: b.message, percentage: b.percentage });
          void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: b.title }, (p) => {
            report = (x) => p.report(x);
            report({ message: b.message });
            return done;
          });
        } else if (v.kind === 'report') {
          const r = v as WorkDoneProgressReport;
          const cur = this.active.get(token);
          if (cur) this.active.set(token, { ...cur, message: r.message ?? cur.message, percentage: r.percentage ?? cur.percentage });
          const pct = r.percentage ?? last;
          report?.({ message: r.message, increment: pct - last });
          last = pct;
        } else {
          this.active.delete(token);
          sub.dispose();
          resolveDone();
        }
        this.changed.fire(this.current());
      });
    });
  }

  current(): ProgressState | undefined {
    let last: ProgressState | undefined;
    for (const v of this.active.values()) last = v;
    return last;
  }

  clear(): void {
    this.active.clear();
    this.changed.fire(undefined);
  }
}
