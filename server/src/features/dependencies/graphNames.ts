// How the dependency features name a statement ("Lemma 3.2 (Zorn)", its label when it has no
// number) and reach the workspace's graph with the numbers of the last LaTeX run.
import type { Doc, Workspace } from '../../project/workspace.js';
import type { AuxNumbers } from '../../project/auxNumbers.js';
import { currentDependencyIndex, dependencyIndex, lastDependencyIndex, type DepEdge, type DependencyIndex, type DepNode, type NodeKey } from '../../analysis/dependencies/dependencyGraph.js';
import { uriBaseName } from '../../project/files.js';
import { texText } from '../../project/texText.js';

/** The workspace's graph, current, with the `.aux` numbers the context knows of (built now if it never was: a request the user made). */
export function graphOf(ws: Workspace, numbers?: (doc: Doc) => AuxNumbers | undefined): DependencyIndex {
  return dependencyIndex(ws, numbers);
}

/**
 * For what appears unasked (lenses, a hover's line), which never waits for the graph to catch up
 * with an edit (on a large project that can take a second): `current`, the graph only when it
 * holds every document as it is now; `last`, as the session last updated it (it catches up
 * after a pause in typing and asks for lenses again).
 */
export function builtGraphOf(ws: Workspace, mode: 'current' | 'last'): DependencyIndex | undefined {
  return mode === 'current' ? currentDependencyIndex(ws) : lastDependencyIndex(ws);
}

/** The number the last LaTeX run printed (a counted number is never shown as if printed). */
function printed(g: DependencyIndex, n: DepNode): { number: string } | undefined {
  const num = g.numberOf(n.key);
  return num?.from === 'aux' ? num : undefined;
}

/** "Lemma 3.2", as printed; "Lemma `lem:x`" without a printed number; "Lemma (Zorn)" without a label. */
export function numberedKind(g: DependencyIndex, n: DepNode): string {
  const num = printed(g, n);
  if (num) return `${n.su.st.kind.title} ${num.number}`;
  const label = n.su.st.labels[0]?.name;
  if (label) return `${n.su.st.kind.title} \`${label}\``;
  const title = n.su.st.title ? texText(n.su.st.title) || n.su.st.title : undefined;
  return title ? `${n.su.st.kind.title} (${title})` : `${n.su.st.kind.title} at ${place(n)}`;
}

/** "Lemma 3.2 (Zorn)"; "Lemma (Zorn)" or "Lemma lem:zorn" without a printed number; "Lemma at file.tex:12" with neither. */
export function nodeName(g: DependencyIndex, n: DepNode): string {
  const num = printed(g, n);
  const title = n.su.st.title ? texText(n.su.st.title) || n.su.st.title : undefined;
  const kind = n.su.st.kind.title;
  if (num) return title ? `${kind} ${num.number} (${title})` : `${kind} ${num.number}`;
  if (title) return `${kind} (${title})`;
  const label = n.su.st.labels[0]?.name;
  return label ? `${kind} ${label}` : `${kind} at ${place(n)}`;
}

/** `file.tex:12`, the statement's `\begin` line. */
export function place(n: DepNode): string {
  return `${uriBaseName(n.doc.uri)}:${n.doc.positionAt(n.su.st.env.start).line + 1}`;
}

/** The distinct statements an edge list reaches, in order, each with its edges. */
export function distinctTargets(edges: readonly DepEdge[], end: 'to' | 'from'): Array<{ key: NodeKey; edges: DepEdge[] }> {
  const out = new Map<NodeKey, DepEdge[]>();
  for (const e of edges) {
    const k = e[end];
    const l = out.get(k);
    if (l) l.push(e); else out.set(k, [e]);
  }
  return [...out].map(([key, es]) => ({ key, edges: es }));
}
