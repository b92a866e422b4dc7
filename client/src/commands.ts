// Palette commands: restart, status, output, label preview, the statements of a file in the
// results panel, and related equations (from the code lens or at the cursor: references peek
// plus the results panel).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { ResultItem, ResultsPanel } from './resultsPanel.js';
import type { StatusBar } from './statusBar.js';
import { enclosingEnvironment, labelAt, statementLatex } from './statements.js';
import { providerName } from './status.js';
import { isRelatedResponse, relatedHeading, relatedItems, type RelatedResponse } from './relatedEquations.js';
import { searchResults } from './search.js';
import { addLibraryFolder, cursorPlace, insertCitation, reindexLibrary } from './library.js';
import {
  CANDIDATE_PROOFS_COMMAND, FIND_RELATED_COMMAND, SHOW_CANDIDATE_PROOFS_COMMAND, SHOW_RELATED_COMMAND, SHOW_RESULTS_TO_CITE_COMMAND, SUGGEST_CITATIONS_COMMAND,
  type PlaceArgs, type ShowResultsArgs,
} from 'mathsense-server/protocol';

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

async function findRelatedAt(uri: vscode.Uri, position: vscode.Position): Promise<RelatedResponse | undefined> {
  const r = await vscode.commands.executeCommand<unknown>(FIND_RELATED_COMMAND, { uri: uri.toString(), position: { line: position.line, character: position.character } } satisfies PlaceArgs);
  return isRelatedResponse(r) ? r : undefined;
}

/**
 * Related equations: the workspace hits in the references peek at the equation, and every hit
 * (workspace and index) in the results panel. From the code lens the results come with the
 * command; results computed while equations were still being analysed are asked for again.
 */
async function showRelatedEquations(deps: CommandDeps, arg?: unknown): Promise<void> {
  let r = isRelatedResponse(arg) ? arg : undefined;
  const editor = vscode.window.activeTextEditor;
  if (!r) {
    if (!editor) { void vscode.window.showInformationMessage('MathSense: put the cursor in a display equation to find related equations.'); return; }
    r = await findRelatedAt(editor.document.uri, editor.selection.active);
  } else if ((r.pending > 0 || r.provisional) && r.query.uri && r.query.line) {
    // at the display's own place (an indented display or one after text starts past column 0)
    r = (await findRelatedAt(vscode.Uri.parse(r.query.uri), new vscode.Position(r.query.line - 1, r.query.character ?? 0))) ?? r;
  }
  if (!r || r.results.length === 0) {
    void vscode.window.showInformationMessage(`MathSense: no related equations${r?.message ? ` (${r.message})` : ''}.`);
    return;
  }
  const where = (uri: string, line: number) => `${vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false)}:${line}`;
  const items = relatedItems(r, where);
  const toRange = (x: NonNullable<(typeof items)[number]['range']>) => new vscode.Range(x.start.line, x.start.character, x.end.line, x.end.character);
  // a library display is cited after the query's display (a formula typed in the search: at the cursor)
  const place = r.query.uri && r.query.after ? { uri: r.query.uri, position: r.query.after } : cursorPlace();
  const panelItems = items.map((i) => ({
    title: i.title, latex: i.latex, detail: i.detail, url: i.url,
    location: i.uri ? new vscode.Location(vscode.Uri.parse(i.uri), i.range ? toRange(i.range) : new vscode.Position(0, 0)) : undefined,
    ...(i.cite && place ? { cite: () => insertCitation({ ...i.cite!, ...place, at: 'cursor' }) } : {}),
  }));
  deps.panel.show(relatedHeading(r, where), panelItems);
  if (r.message) deps.output.info(`related equations: ${r.message}`);
  // the peek opens what the lens title counted ("Close: 1 in this project" is one place); the panel lists them all
  const counted = r.results.some((x) => x.counted);
  const locations = panelItems.flatMap((i, k) => (i.location && (!counted || r!.results[k].counted) ? [i.location] : []));
  const at = r.query.uri ? vscode.Uri.parse(r.query.uri) : editor?.document.uri;
  if (locations.length && at) {
    const pos = r.query.line ? new vscode.Position(r.query.line - 1, r.query.character ?? 0) : editor!.selection.active;
    await vscode.commands.executeCommand('editor.action.peekLocations', at, pos, locations, 'peek');
  }
}

/** What a server command that ranks results for the statement at a place is asked and says. */
interface PlaceResults { command: string; heading: string; nowhere: string; none: string }
const CANDIDATE_PROOFS: PlaceResults = {
  command: CANDIDATE_PROOFS_COMMAND, heading: 'Candidate proofs',
  nowhere: 'put the cursor in a theorem, lemma, exercise or proof to find candidate proofs.',
  none: 'no candidate proofs here (put the cursor in a theorem-like environment or its proof).',
};
const RESULTS_TO_CITE: PlaceResults = {
  command: SUGGEST_CITATIONS_COMMAND, heading: 'Results to cite',
  nowhere: 'put the cursor in a theorem, lemma, exercise or proof to find results to cite.',
  none: 'no results to cite here (put the cursor in a theorem-like environment or its proof).',
};

/** What the server withheld, in words. */
export const withheldNote = (n: number): string => `${n} indexed ${n === 1 ? 'result' : 'results'} withheld as unlikely to be relevant`;

/** Results for the statement at the action's place, else at the cursor (ranked by the server now), in the results panel. */
async function showPlaceResults(deps: CommandDeps, what: PlaceResults, arg?: { uri?: string; position?: { line: number; character: number } }): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const uri = arg?.uri ?? editor?.document.uri.toString();
  const position = arg?.position ?? (editor ? { line: editor.selection.active.line, character: editor.selection.active.character } : undefined);
  if (!uri || !position) { void vscode.window.showInformationMessage(`MathSense: ${what.nowhere}`); return; }
  const r = await vscode.commands.executeCommand<ShowResultsArgs | null>(what.command, { uri, position } satisfies PlaceArgs);
  const withheld = r && typeof r.withheld === 'number' && r.withheld > 0 ? withheldNote(r.withheld) : '';
  if (!r || !Array.isArray(r.items) || r.items.length === 0) { void vscode.window.showInformationMessage(`MathSense: ${withheld ? `nothing indexed is likely to be relevant here: ${withheld}.` : what.none}`); return; }
  deps.panel.show(`${r.heading ?? what.heading}${withheld ? ` (${withheld})` : ''}`, r.items.map(toResultItem));
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
  reg('mathsense.addLibraryFolder', () => addLibraryFolder());
  reg('mathsense.reindexLibrary', () => reindexLibrary(() => deps.statusBar.refresh()));
  // the code lens "Find related equations" carries the server's results; from the palette: at the cursor
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_RELATED_COMMAND, async (arg?: unknown) => {
    try { await showRelatedEquations(deps, arg); } catch (e) { deps.output.error(`mathsense.showRelatedEquations failed: ${(e as Error).stack ?? e}`); void vscode.window.showErrorMessage(`MathSense: ${(e as Error).message}`); }
  }));
  // "Search results…": statements and formulas, the workspace's and the index's, as you type
  context.subscriptions.push(vscode.commands.registerCommand('mathsense.searchResults', async () => {
    try { await searchResults(deps.panel); } catch (e) { deps.output.error(`mathsense.searchResults failed: ${(e as Error).stack ?? e}`); void vscode.window.showErrorMessage(`MathSense: ${(e as Error).message}`); }
  }));
  // "Find candidate proofs", "Suggest results to cite" (code actions or palette): the server ranks them when asked
  for (const [name, what] of [[SHOW_CANDIDATE_PROOFS_COMMAND, CANDIDATE_PROOFS], [SHOW_RESULTS_TO_CITE_COMMAND, RESULTS_TO_CITE]] as const) {
    context.subscriptions.push(vscode.commands.registerCommand(name, async (arg?: { uri?: string; position?: { line: number; character: number } }) => {
      try { await showPlaceResults(deps, what, arg); } catch (e) { deps.output.error(`${name} failed: ${(e as Error).stack ?? e}`); void vscode.window.showErrorMessage(`MathSense: ${(e as Error).message}`); }
    }));
  }
}

export function toResultItem(i: ShowResultsArgs['items'][number]): ResultItem {
  // ProofWiki/PlanetMath entries are CC BY-SA: their source URL is always shown
  const detail = [i.detail, i.url, i.label, i.score !== undefined ? `score ${i.score.toFixed(2)}` : undefined].filter(Boolean).join(' · ');
  const location = i.uri ? new vscode.Location(vscode.Uri.parse(i.uri), new vscode.Position(Math.max(0, i.line ?? 0), 0)) : undefined;
  const cite = i.cite;
  return { title: i.title, latex: i.latex, detail, location, ...(cite ? { cite: () => insertCitation(cite) } : {}) };
}
