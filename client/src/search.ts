// "MathSense: Search Results…": type a statement or a formula, see ranked results from the
// workspace and the bundled index as you type (the server command `mathsense.search`), then
// open one (a workspace result at its place, an index result's page in the browser), insert a
// workspace result's `\ref{…}` at the cursor, or show them all in the results panel (KaTeX).
import * as vscode from 'vscode';
import type { ResultItem, ResultsPanel } from './resultsPanel.js';
import { SEARCH_COMMAND, type SearchResponse } from 'mathsense-server/protocol';
import { pickText } from './searchLabels.js';
import { cursorPlace, insertCitation } from './library.js';
import { openPlace } from './openPlace.js';

export type { SearchResponse };


export function isSearchResponse(x: unknown): x is SearchResponse {
  const r = x as SearchResponse | undefined;
  return !!r && typeof r === 'object' && typeof r.query === 'string' && Array.isArray(r.items);
}

/** One line of a result's LaTeX for the pick list (the panel renders it in full). */
export function plainLine(latex: string, max = 160): string {
  const t = latex.replace(/\\(?:begin|end)\{[^{}]*\}|\\label\{[^{}]*\}/g, ' ').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

type Pick = vscode.QuickPickItem & { result?: SearchResponse['items'][number]; all?: true };

const DEBOUNCE_MS = 250;
const INSERT_REF: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('references'), tooltip: 'Insert \\ref{…} at the cursor' };
const INSERT_CITE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('quote'), tooltip: 'Insert citation (\\cite[Theorem~n]{key}) at the cursor' };

/** A library result cited at `place` (where the search was asked from). */
const citeAt = (i: SearchResponse['items'][number], place: ReturnType<typeof cursorPlace>) => (i.cite && place ? () => insertCitation({ ...i.cite!, ...place, at: 'cursor' }) : undefined);

export function toPanelItem(i: SearchResponse['items'][number], place?: ReturnType<typeof cursorPlace>): ResultItem {
  const location = i.uri ? new vscode.Location(vscode.Uri.parse(i.uri), new vscode.Position(i.range?.start.line ?? 0, i.range?.start.character ?? 0)) : undefined;
  const cite = citeAt(i, place);
  return { title: i.title, latex: i.latex, detail: [i.detail, `score ${i.score.toFixed(2)}`].join(' · '), ...(location ? { location } : {}), ...(i.url ? { url: i.url } : {}), ...(cite ? { cite } : {}) };
}

export async function searchResults(panel: ResultsPanel): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const place = cursorPlace();
  const qp = vscode.window.createQuickPick<Pick>();
  qp.title = 'MathSense: Search Results';
  qp.placeholder = 'A statement ("every compact metric space is complete") or a formula ("\\int_a^b f\'(t)\\,dt = f(b) - f(a)")';
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  let last: SearchResponse | undefined;
  let timer: NodeJS.Timeout | undefined;
  let asked = 0;
  const run = async (query: string) => {
    const mine = ++asked;
    if (!query.trim()) { qp.items = []; return; }
    qp.busy = true;
    try {
      const r = await vscode.commands.executeCommand<unknown>(SEARCH_COMMAND, { query, limit: 25, ...(place ? { uri: place.uri } : {}) });
      if (mine !== asked || !isSearchResponse(r)) return;
      last = r;
      const items: Pick[] = r.items.map((i) => ({
        ...pickText(i),
        detail: plainLine(i.latex),
        alwaysShow: true,
        result: i,
        buttons: i.label && editor ? [INSERT_REF] : i.cite && place ? [INSERT_CITE] : [],
      }));
      if (items.length) items.unshift({ label: `$(preview) Show all ${items.length} in the results panel`, description: r.kind, alwaysShow: true, all: true });
      qp.items = items;
      qp.placeholder = r.message ?? qp.placeholder;
    } catch (e) {
      if (mine === asked) qp.items = [{ label: `$(error) ${(e as Error).message}`, alwaysShow: true }];
    } finally {
      if (mine === asked) qp.busy = false;
    }
  };
  qp.onDidChangeValue((v) => { if (timer) clearTimeout(timer); timer = setTimeout(() => void run(v), DEBOUNCE_MS); });
  qp.onDidTriggerItemButton(async (e) => {
    const cite = e.item.result && citeAt(e.item.result, place);
    if (e.button === INSERT_CITE && cite) { qp.hide(); await cite(); return; }
    const label = e.item.result?.label;
    if (!label || !editor) return;
    await editor.edit((b) => b.insert(editor.selection.active, `\\ref{${label}}`));
    qp.hide();
  });
  qp.onDidAccept(async () => {
    const pick = qp.selectedItems[0];
    if (!pick) return;
    qp.hide();
    if (pick.all && last) { panel.show(`Search: ${last.query}`, last.items.map((i) => toPanelItem(i, place))); return; }
    const r = pick.result;
    if (!r) return;
    if (r.uri) {
      const at = new vscode.Position(r.range?.start.line ?? 0, r.range?.start.character ?? 0);
      await openPlace(vscode.Uri.parse(r.uri), new vscode.Range(at, at));
    } else if (r.url) {
      await vscode.env.openExternal(vscode.Uri.parse(r.url));
    }
  });
  qp.onDidHide(() => { if (timer) clearTimeout(timer); qp.dispose(); });
  qp.show();
}
