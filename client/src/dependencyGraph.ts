// The dependency graph view: the server's mathsense/dependencyGraph answer (the neighbourhood of
// the statement at the cursor, or the whole compilation) drawn in a webview (media/graph.js,
// laid out by graphLayout.ts); a click on a statement opens it. One panel, reused. Same strict
// Content-Security-Policy as the results panel: nonce'd local scripts, local styles and fonts.
import * as vscode from 'vscode';
import { webviewPage, webviewRoots } from './webviewPage.js';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  DEPENDENCY_GRAPH_REQUEST, SHOW_DEPENDENCY_GRAPH_COMMAND, SHOW_WHOLE_DEPENDENCY_GRAPH_COMMAND,
  type DependencyGraphParams, type DependencyGraphResponse,
} from 'mathsense-server/protocol';

/** The view's frame: its toolbar, legend, the stage the graph is drawn on, the statement pane. */
const GRAPH_BODY = `<div class="toolbar">
<button data-depth="1">Neighbourhood</button><button data-depth="2">2 steps</button><button data-depth="3">3 steps</button><button data-depth="whole">Whole document</button>
<label hidden><input type="checkbox" id="mayuse"> may use</label>
<span id="summary" class="summary"></span>
</div>
<div class="legend"><span class="plain l-proved">proved</span><span class="plain l-stated">stated</span><span class="plain l-cited">cited</span><span class="bp l-sdone">statement formalized</span><span class="bp l-pdone">proof formalized</span><span class="bp l-ready">ready</span><span class="bp l-mathlib">Mathlib</span></div>
<div class="main"><div id="stage" class="stage"><div id="canvas" class="canvas"></div></div><aside id="pane" class="pane">Point at a statement to read it; click to open it.</aside></div>`;

interface Asked { uri: string; position?: { line: number; character: number }; scope: 'whole' | 'neighbourhood'; depth: number }

export class DependencyGraphPanel implements vscode.Disposable {
  static readonly viewType = 'mathsense.dependencyGraph';
  private panel: vscode.WebviewPanel | undefined;
  private graph: DependencyGraphResponse | undefined;
  private asked: Asked | undefined;
  private ready = false;
  /** Milliseconds from the graph's arrival to its drawing, as the webview reports it (the e2e suite reads it from the log). */
  lastDraw: { ms: number; nodes: number; engine: string } | undefined;

  constructor(private readonly extensionUri: vscode.Uri, private readonly client: () => LanguageClient | undefined, private readonly log: (m: string) => void) {}

  async show(asked: Asked): Promise<void> {
    const client = this.client();
    if (!client) { void vscode.window.showWarningMessage('MathSense: the language server is not running.'); return; }
    const params: DependencyGraphParams = { uri: asked.uri, scope: asked.scope, depth: asked.depth, ...(asked.position ? { position: asked.position } : {}) };
    const graph = await client.sendRequest<DependencyGraphResponse>(DEPENDENCY_GRAPH_REQUEST, params);
    if (graph.message && graph.nodes.length === 0) { void vscode.window.showInformationMessage(`MathSense: ${graph.message}`); return; }
    this.asked = asked;
    this.graph = graph;
    if (!this.panel) this.create();
    else this.panel.reveal(vscode.ViewColumn.Beside, true);
    const focus = graph.nodes.find((n) => n.id === graph.focus);
    // a number counted from the source is marked as the graph's boxes mark it: the PDF may print another
    const number = focus?.number ? ` ${focus.numberFrom === 'counted' ? '≈' : ''}${focus.number}` : '';
    this.panel!.title = asked.scope === 'whole' ? 'MathSense: dependency graph' : `MathSense: what ${focus ? `${focus.kind}${number}` : 'this statement'} rests on`;
    if (this.ready) this.post();
    // may-use suggestions wait for vectors: asked again once, shortly
    if (graph.suggestionsPending && asked.scope === 'neighbourhood') setTimeout(() => { if (this.asked === asked) void this.show(asked).catch(() => undefined); }, 1500);
  }

  private create(): void {
    this.ready = false;
    const panel = vscode.window.createWebviewPanel(DependencyGraphPanel.viewType, 'MathSense: dependency graph', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true, enableCommandUris: false, enableForms: false, localResourceRoots: webviewRoots(this.extensionUri), retainContextWhenHidden: true,
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'mathsense.svg');
    this.panel = panel;
    panel.webview.html = webviewPage(panel.webview, this.extensionUri, { title: 'MathSense: dependency graph', styles: ['graph.css'], scripts: ['latex.js', 'dist:graphLayout.js', 'graph.js'], body: GRAPH_BODY });
    panel.onDidDispose(() => { this.panel = undefined; this.ready = false; });
    panel.webview.onDidReceiveMessage(async (m: { type: string; id?: string; depth?: string; ms?: number; nodes?: number; engine?: string; message?: string }) => {
      if (m.type === 'ready') { this.ready = true; this.post(); }
      else if (m.type === 'open' && typeof m.id === 'string') await this.open(m.id);
      else if (m.type === 'depth' && this.asked) {
        const whole = m.depth === 'whole';
        await this.show({ ...this.asked, scope: whole ? 'whole' : 'neighbourhood', depth: whole ? 1 : Number(m.depth) || 1, position: whole ? undefined : this.asked.position ?? this.focusPosition() });
      } else if (m.type === 'drawn') { this.lastDraw = { ms: m.ms ?? 0, nodes: m.nodes ?? 0, engine: m.engine ?? '' }; this.log(`dependency graph drawn: ${m.nodes} statements in ${m.ms} ms (${m.engine})`); }
      else if (m.type === 'error') this.log(`dependency graph view: ${m.message}`);
    });
  }

  private focusPosition(): { line: number; character: number } | undefined {
    return this.graph?.nodes.find((n) => n.id === this.graph?.focus)?.range.start;
  }

  private post(): void {
    if (this.graph) void this.panel?.webview.postMessage({ type: 'graph', graph: this.graph });
  }

  private async open(id: string): Promise<void> {
    const n = this.graph?.nodes.find((x) => x.id === id);
    if (!n) return;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(n.uri));
    const start = new vscode.Position(n.range.start.line, n.range.start.character);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(start, start) });
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

/** The two commands: from the palette (the active editor's cursor) or a lens (its statement). */
export function registerDependencyGraph(context: vscode.ExtensionContext, panel: DependencyGraphPanel, output: vscode.LogOutputChannel): void {
  const run = (scope: 'whole' | 'neighbourhood') => async (arg?: { uri?: string; position?: { line: number; character: number } }) => {
    try {
      const editor = vscode.window.activeTextEditor;
      const uri = arg?.uri ?? editor?.document.uri.toString();
      if (!uri) { void vscode.window.showInformationMessage('MathSense: open a LaTeX document first.'); return; }
      const p = arg?.position ?? (editor ? { line: editor.selection.active.line, character: editor.selection.active.character } : undefined);
      await panel.show({ uri, scope, depth: 1, position: scope === 'whole' ? undefined : p });
    } catch (e) {
      output.error(`dependency graph failed: ${(e as Error).stack ?? e}`);
      void vscode.window.showErrorMessage(`MathSense: ${(e as Error).message}`);
    }
  };
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_DEPENDENCY_GRAPH_COMMAND, run('neighbourhood')));
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_WHOLE_DEPENDENCY_GRAPH_COMMAND, run('whole')));
}
