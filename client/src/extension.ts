// VS Code client: starts the bundled MathSense language server for LaTeX and Markdown, and adds
// the status bar item, the results panel, palette commands and workspace-trust handling.
// Works alone and alongside LaTeX Workshop (it only adds language features; no build, no viewer).
import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import { registerCommands } from './commands.js';
import { createClient, HOVER_MATH_COLOR, hoverMathColor } from './languageClient.js';
import { ProgressTracker } from './progress.js';
import { ResultsPanel } from './resultsPanel.js';
import { DependencyGraphPanel, registerDependencyGraph } from './dependencyGraph.js';
import { STATUS_CHANGED, STATUS_REQUEST, type ServerStatus } from './status.js';
import { StatusBar } from './statusBar.js';

let client: LanguageClient | undefined;

export interface MathSenseApi {
  /** Shows items in the results panel (for other extensions and tests). */
  showResults: ResultsPanel['show'];
  status(): Promise<ServerStatus | undefined>;
}

export async function activate(context: vscode.ExtensionContext): Promise<MathSenseApi> {
  const output = vscode.window.createOutputChannel('MathSense', { log: true });
  context.subscriptions.push(output);
  output.info(`MathSense ${context.extension.packageJSON.version} activating (workspace ${vscode.workspace.isTrusted ? 'trusted' : 'untrusted'})`);

  const c = createClient(context, output);
  client = c;
  const progress = new ProgressTracker(c);
  c.registerFeature(progress);

  const fetchStatus = async (): Promise<ServerStatus | undefined> => (c.state === State.Running ? c.sendRequest<ServerStatus>(STATUS_REQUEST) : undefined);
  const statusBar = new StatusBar(fetchStatus, (m) => output.warn(m));
  const panel = new ResultsPanel(context.extensionUri, (m) => output.warn(m));
  context.subscriptions.push(statusBar, panel, progress.onDidChange((p) => statusBar.setProgress(p)));
  context.subscriptions.push(c.onDidChangeState((e) => {
    output.info(`language server ${State[e.newState].toLowerCase()}`);
    if (e.newState === State.Running) statusBar.restart();
    else progress.clear();
  }));

  // settings and trust: re-send settings when trust is granted (path settings become usable)
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => {
    output.info('workspace trusted: model/index path settings are now honoured, and included files outside the workspace are read');
    // the server learns of trust when it starts (includes outside the folders are read from then on)
    if (c.state === State.Running) void c.restart();
  }));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('mathsense')) statusBar.restart();
  }));
  // hover math is drawn in the theme's text colour: a new theme, a new colour
  context.subscriptions.push(vscode.window.onDidChangeActiveColorTheme((t) => {
    if (c.state === State.Running) void c.sendNotification(HOVER_MATH_COLOR, { color: hoverMathColor(t.kind) });
  }));
  // the server says when its state changes (index loaded, semantic ranking decided): the item follows
  context.subscriptions.push(c.onNotification(STATUS_CHANGED, () => void statusBar.refresh()));

  registerCommands(context, {
    client: () => client,
    restart: async () => { output.info('restarting the language server'); await c.restart(); },
    output, panel, statusBar,
  });
  const graphPanel = new DependencyGraphPanel(context.extensionUri, () => client, (m) => output.info(m));
  context.subscriptions.push(graphPanel);
  registerDependencyGraph(context, graphPanel, output);

  try {
    await c.start();
  } catch (e) {
    output.error(`the language server did not start: ${(e as Error).message}`);
    void vscode.window.showErrorMessage(`MathSense: the language server did not start (${(e as Error).message}).`, 'Show Log').then((p) => p && output.show());
  }
  return { showResults: (h, items) => panel.show(h, items), status: fetchStatus };
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
