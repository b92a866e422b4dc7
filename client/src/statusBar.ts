// The status bar item: the model provider from `mathsense/status` (CPU/CUDA/WebGPU), indexing
// progress while the server scans, "MathSense" when the server reports no provider. Polls the
// status after each start until it is final (model ready or unavailable).
import * as vscode from 'vscode';
import type { ProgressState } from './progress.js';
import { statusView, type ServerStatus } from './status.js';

export class StatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private status: ServerStatus | undefined;
  private progress: ProgressState | undefined;
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;

  constructor(private readonly fetch: () => Promise<ServerStatus | undefined>, private readonly log: (m: string) => void) {
    this.item = vscode.window.createStatusBarItem('mathsense.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'MathSense';
    this.item.command = 'mathsense.showStatus';
    this.render();
    this.item.show();
  }

  latest(): ServerStatus | undefined { return this.status; }

  setProgress(p: ProgressState | undefined): void {
    this.progress = p;
    this.render();
  }

  /** Forget the last status (server restarting) and poll until it is final. */
  restart(): void {
    this.status = undefined;
    this.progress = undefined;
    this.render();
    void this.poll(++this.generation, 0);
  }

  async refresh(): Promise<ServerStatus | undefined> {
    await this.poll(++this.generation, 0);
    return this.status;
  }

  private async poll(gen: number, attempt: number): Promise<void> {
    clearTimeout(this.timer);
    let final = false;
    try {
      const s = await this.fetch();
      if (gen !== this.generation) return;
      this.status = s;
      final = this.render();
    } catch (e) {
      this.log(`mathsense/status failed: ${(e as Error).message}`);
    }
    if (!final && gen === this.generation && attempt < 60) {
      this.timer = setTimeout(() => void this.poll(gen, attempt + 1), Math.min(1000 * 2 ** Math.min(attempt, 3), 5000));
    }
  }

  private render(): boolean {
    const v = statusView(this.status, this.progress);
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.backgroundColor = v.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    return v.final;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.generation++;
    this.item.dispose();
  }
}
