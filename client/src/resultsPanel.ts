// The results panel: a webview listing statements/equations rendered with KaTeX. Any command
// can show a list of {title, latex, location, url} items; clicking an item opens its location,
// clicking its link opens the source page in the browser (http(s) only, through VS Code); a
// library result's "Insert citation" cites it at the place the list was asked for.
// Strict Content-Security-Policy (no inline code, nonce'd local scripts, local styles/fonts
// only), theme-aware CSS (VS Code CSS variables), no network.
import * as vscode from 'vscode';
import { webviewPage, webviewRoots } from './webviewPage.js';
import { panelTitle } from './panelTitle.js';
import { openPlace } from './openPlace.js';

export interface ResultItem {
  /** Shown as the item's heading, e.g. "Key Lemma 1.2 (Pigeonhole principle)". */
  title: string;
  /** LaTeX to render: a statement body (text with `$…$`) or a display-math environment. */
  latex: string;
  /** Small print under the title, e.g. "chapters/one.tex:7 · lem:pigeonhole". */
  detail?: string;
  location?: vscode.Location;
  /** A source page (ProofWiki, PlanetMath): shown under the title as a link. */
  url?: string;
  /** A library result: its "Insert citation" button runs this. */
  cite?: () => Promise<void>;
}

interface WebviewItem { title: string; latex: string; detail?: string; hasLocation: boolean; link?: string; canCite?: boolean }

const httpUrl = (u: string | undefined): boolean => !!u && /^https?:\/\/[^\s]+$/.test(u);

export class ResultsPanel implements vscode.Disposable {
  static readonly viewType = 'mathsense.results';
  private panel: vscode.WebviewPanel | undefined;
  private items: ResultItem[] = [];
  private heading = '';
  private ready = false;

  constructor(private readonly extensionUri: vscode.Uri, private readonly log: (m: string) => void) {}

  /** Shows (or updates) the panel beside the active editor with these items. */
  show(heading: string, items: ResultItem[]): void {
    this.heading = heading;
    this.items = items;
    if (!this.panel) this.create();
    else this.panel.reveal(vscode.ViewColumn.Beside, true);
    this.panel!.title = panelTitle(heading);
    if (this.ready) this.post();
  }

  get visible(): boolean { return !!this.panel?.visible; }

  private create(): void {
    this.ready = false;
    const panel = vscode.window.createWebviewPanel(ResultsPanel.viewType, 'MathSense', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      enableCommandUris: false,
      enableForms: false,
      localResourceRoots: webviewRoots(this.extensionUri),
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'mathsense.svg');
    this.panel = panel;
    panel.webview.html = webviewPage(panel.webview, this.extensionUri, {
      title: 'MathSense', styles: ['results.css'], scripts: ['latex.js', 'results.js'],
      body: '<header id="heading" class="heading"></header>\n<main id="results" class="results" aria-live="polite"><p class="empty">No results yet.</p></main>',
    });
    panel.onDidDispose(() => { this.panel = undefined; this.ready = false; });
    panel.webview.onDidReceiveMessage(async (m: { type: string; index?: number; message?: string }) => {
      if (m.type === 'ready') { this.ready = true; this.post(); }
      else if (m.type === 'open' && typeof m.index === 'number') await this.open(m.index);
      else if (m.type === 'openLink' && typeof m.index === 'number') await this.openLink(m.index);
      else if (m.type === 'cite' && typeof m.index === 'number') await this.items[m.index]?.cite?.();
      else if (m.type === 'error') this.log(`results panel: ${m.message}`);
    });
  }

  private post(): void {
    const items: WebviewItem[] = this.items.map((i) => ({ title: i.title, latex: i.latex, detail: i.detail, hasLocation: !!i.location, ...(httpUrl(i.url) ? { link: i.url } : {}), ...(i.cite ? { canCite: true } : {}) }));
    void this.panel?.webview.postMessage({ type: 'show', heading: this.heading, items });
  }

  private async open(index: number): Promise<void> {
    const loc = this.items[index]?.location;
    if (loc) await openPlace(loc.uri, loc.range, vscode.ViewColumn.One);
  }

  private async openLink(index: number): Promise<void> {
    const url = this.items[index]?.url;
    if (url && httpUrl(url)) await vscode.env.openExternal(vscode.Uri.parse(url));
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
