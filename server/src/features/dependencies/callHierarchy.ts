// LSP call hierarchy over the dependency graph: on a statement (or in its proof), "incoming
// calls" are the statements whose statement or proof uses it, "outgoing calls" what it and its
// proof use. Any LSP client shows it without custom UI (VS Code's Call Hierarchy view, Neovim's
// `vim.lsp.buf.incoming_calls()`).
import { SymbolKind, type CallHierarchyIncomingCall, type CallHierarchyItem, type CallHierarchyOutgoingCall, type Range } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../../project/workspace.js';
import type { AuxNumbers } from '../../project/auxNumbers.js';
import type { DepEdge, DependencyIndex, DepNode } from '../../analysis/dependencies/dependencyGraph.js';
import { distinctTargets, graphOf, nodeName, place } from './graphNames.js';

/** What an item carries to find its statement again: the document and the statement's start then. */
interface ItemData { uri: string; start: number }

type Numbers = (doc: Doc) => AuxNumbers | undefined;

export function prepareCallHierarchy(ws: Workspace, doc: Doc, offset: number, numbers?: Numbers): CallHierarchyItem[] | null {
  const g = graphOf(ws, numbers);
  const n = g.nodeAt(doc, offset);
  return n ? [item(g, n)] : null;
}

export function incomingCalls(ws: Workspace, it: CallHierarchyItem, numbers?: Numbers): CallHierarchyIncomingCall[] {
  const g = graphOf(ws, numbers);
  const n = nodeOf(ws, g, it);
  if (!n) return [];
  return distinctTargets(g.usedBy(n.key), 'from').flatMap(({ key, edges }) => {
    const from = g.node(key);
    return from ? [{ from: item(g, from), fromRanges: ranges(edges, from.doc) }] : [];
  });
}

export function outgoingCalls(ws: Workspace, it: CallHierarchyItem, numbers?: Numbers): CallHierarchyOutgoingCall[] {
  const g = graphOf(ws, numbers);
  const n = nodeOf(ws, g, it);
  if (!n) return [];
  return distinctTargets(g.uses(n.key), 'to').flatMap(({ key, edges }) => {
    const to = g.node(key);
    return to ? [{ to: item(g, to), fromRanges: ranges(edges, n.doc) }] : [];
  });
}

function item(g: DependencyIndex, n: DepNode): CallHierarchyItem {
  const env = n.su.st.env;
  const head = n.doc.range(env.start, Math.min(env.bodyStart, env.end));
  const data: ItemData = { uri: n.doc.uri, start: env.start };
  const label = n.su.st.labels[0]?.name;
  const name = nodeName(g, n);
  return {
    name,
    kind: n.su.provable ? SymbolKind.Function : SymbolKind.Class,
    detail: label && !name.includes(label) ? `${label} · ${place(n)}` : place(n),
    uri: n.doc.uri,
    range: n.doc.range(env.start, env.end),
    selectionRange: head,
    data,
  };
}

/** The item's statement now: where it started when the item was made, else the statement at its selection. */
function nodeOf(ws: Workspace, g: DependencyIndex, it: CallHierarchyItem): DepNode | undefined {
  const d = it.data as Partial<ItemData> | undefined;
  const doc = ws.get(it.uri);
  if (!doc) return undefined;
  const byStart = typeof d?.start === 'number' ? g.nodesIn(doc).find((n) => n.su.st.env.start === d.start) : undefined;
  return byStart ?? g.nodeAt(doc, doc.offsetAt(it.selectionRange.start));
}

/** The places of the edges written in `doc` (a proof elsewhere that names its statement is not). */
function ranges(edges: readonly DepEdge[], doc: Doc): Range[] {
  return edges.filter((e) => e.doc === doc).map((e) => doc.range(e.start, e.end));
}
