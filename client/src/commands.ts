// Palette commands: restart, status, output, label preview and the statements of a file in the
// results panel.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { ResultItem, ResultsPanel } from './resultsPanel.js';
import type { StatusBar } from './statusBar.js';
import { enclosingEnvironment, labelAt, statementLatex } from './statements.js';
import { providerName } from './status.js';

export interface CommandDeps {
  client: () => LanguageClient | undefined;
  restart: () => Promise<void>;
  output: vscode.LogOutputChannel;
  panel: ResultsPanel;
  statusBar: StatusBar;
}

const toLocation = (l: vscode.Location | vscode.LocationLink): vscode.Location =>
  'targetUri' in l ? new vscode.Location(l.targetUri, l.targetSelectionRange ?? l.targetRange) : l;

/** Flattens document symbols with their full ranges. */
function flatten(symbols: readonly vscode.DocumentSymbol[], out: vscode.DocumentSymbol[] = []): vscode.DocumentSymbol[] {
  for (const s of symbols) { out.push(s); flatten(s.children, out); }
  return out;
}

async function symbolsOf(uri: vscode.Uri): Promise<vscode.DocumentSymbol[]> {
  const r = await vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation>>('vscode.executeDocumentSymbolProvider', uri);
  return flatten((r ?? []).filter((s): s is vscode.DocumentSymbol => 'children' in s));
}

const relative = (uri: vscode.Uri, line: number) => `${vscode.workspace.asRelativePath(uri, false)}:${line + 1}`;

/** The statement/equation around a label definition, as a panel item. */
export async function itemAt(loc: vscode.Location, label?: string): Promise<ResultItem> {
  const doc = await vscode.workspace.openTextDocument(loc.uri);
  const text = doc.getText();
  const offset = doc.offsetAt(loc.range.start);
  const env = enclosingEnvironment(text, offset);
  const symbols = await symbolsOf(loc.uri);
  // the innermost symbol containing the label: a theorem-like statement or a section
  const sym = symbols.filter((s) => s.range.contains(loc.range.start)).sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start))[0];
  const detail = [relative(loc.uri, loc.range.start.line), label].filter(Boolean).join(' · ');
  if (env) {
    const envRange = new vscode.Range(doc.positionAt(env.start), doc.positionAt(env.end));
    const title = sym && sym.kind !== vscode.SymbolKind.Namespace && sym.range.contains(envRange)
      ? sym.name
      : `${env.name[0].toUpperCase()}${env.name.slice(1).replace(/\*$/, '')}${env.title ? ` (${env.title})` : ''}`;
    return { title, latex: statementLatex(text, env), detail, location: new vscode.Location(loc.uri, envRange) };
  }
  // a section label: the section heading
  return { title: sym?.name ?? label ?? 'Label', latex: '', detail, location: loc };
}

async function showLabelPreview(deps: CommandDeps): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) { void vscode.window.showInformationMessage('MathSense: open a LaTeX document and put the cursor on a \\ref or \\label.'); return; }
  const pos = editor.selection.active;
  const label = labelAt(editor.document.lineAt(pos.line).text, pos.character);
  const defs = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>('vscode.executeDefinitionProvider', editor.document.uri, pos);
  const locs = (defs ?? []).map(toLocation);
  if (locs.length === 0) {
    void vscode.window.showInformationMessage(label ? `MathSense: no definition of \\label{${label}} found.` : 'MathSense: put the cursor on a \\ref or \\label to preview it.');
    return;
  }
  const items = await Promise.all(locs.map((l) => itemAt(l, label)));
  deps.panel.show(label ? `Preview of ${label}` : 'Label preview', items);
}

async function showStatements(deps: CommandDeps): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const symbols = (await symbolsOf(editor.document.uri)).filter((s) => s.kind === vscode.SymbolKind.Class);
  const items = await Promise.all(symbols.map(async (s) => {
    const it = await itemAt(new vscode.Location(editor.document.uri, s.selectionRange.end), s.detail || undefined);
    return { ...it, title: s.name };
  }));
  deps.panel.show(`Statements in ${vscode.workspace.asRelativePath(editor.document.uri, false)}`, items);
}

async function showStatus(deps: CommandDeps): Promise<void> {
  const s = await deps.statusBar.refresh();
  if (!s) { void vscode.window.showWarningMessage('MathSense: the language server is not running.'); return; }
  deps.output.info(`status: ${JSON.stringify(s)}`);
  const e = s.embeddings;
  const model = e?.state === 'ready' && e.provider ? `model on ${providerName(e.provider)}` : e?.state === 'unavailable' ? `model unavailable (${e.message})` : e ? `model ${e.state}` : 'no model';
  const pick = await vscode.window.showInformationMessage(`MathSense ${s.version ?? ''}: ${s.documents ?? 0} documents, ${model}.`, 'Show Log');
  if (pick) deps.output.show(true);
}

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = (id: string, f: () => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, async () => {
    try { await f(); } catch (e) { deps.output.error(`${id} failed: ${(e as Error).stack ?? e}`); void vscode.window.showErrorMessage(`MathSense: ${(e as Error).message}`); }
  }));
  reg('mathsense.restartServer', async () => { await deps.restart(); void vscode.window.setStatusBarMessage('MathSense: language server restarted', 3000); });
  reg('mathsense.showStatus', () => showStatus(deps));
  reg('mathsense.showOutput', () => deps.output.show(true));
  reg('mathsense.showLabelPreview', () => showLabelPreview(deps));
  reg('mathsense.showStatements', () => showStatements(deps));
  // server code actions ("Suggest results to cite") hand their results to this command
  context.subscriptions.push(vscode.commands.registerCommand('mathsense.showResults', (args?: ShowResultsArgs) => {
    if (!args || !Array.isArray(args.items)) return;
    deps.panel.show(args.heading ?? 'Results', args.items.map(toResultItem));
  }));
}

/** What the server's `mathsense.showResults` command carries (features/indexFeatures.ts). */
export interface ShowResultsArgs {
  heading: string;
  items: Array<{ title: string; latex: string; detail?: string; url?: string; uri?: string; line?: number; label?: string; score?: number }>;
}

export function toResultItem(i: ShowResultsArgs['items'][number]): ResultItem {
  // ProofWiki/PlanetMath entries are CC BY-SA: their source URL is always shown
  const detail = [i.detail, i.url, i.label, i.score !== undefined ? `score ${i.score.toFixed(2)}` : undefined].filter(Boolean).join(' · ');
  const location = i.uri ? new vscode.Location(vscode.Uri.parse(i.uri), new vscode.Position(Math.max(0, i.line ?? 0), 0)) : undefined;
  return { title: i.title, latex: i.latex, detail, location };
}
