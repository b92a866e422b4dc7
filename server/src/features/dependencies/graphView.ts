// The dependency graph as the graph view and `mathsense graph` show it: the statements of a
// document's compilation (or the neighbourhood of one statement) with their numbers, titles,
// text and status, and what uses what. Statements of xr external documents that the
// compilation uses are nodes too, marked external.
import type { Doc, Workspace } from '../../project/workspace.js';
import type { AuxNumbers } from '../../project/auxNumbers.js';
import type { BlueprintStatus, DependencyGraphParams, DependencyGraphResponse, GraphEdge, GraphNode, ProofStatus } from '../../ext/protocol.js';
import type { DependencyIndex, DepNode, NodeKey } from '../../analysis/dependencies/dependencyGraph.js';
import { bodyText } from '../../analysis/structure.js';
import { graphOf } from './graphNames.js';
import { MAY_USE_THRESHOLD, mayUse, type MayUse } from './mayUse.js';
import type { ServerIndex } from '../../index/serverIndex.js';

/** Characters of a statement's text a node carries. */
const TEXT_CHARS = 400;

export interface GraphQuery {
  doc: Doc;
  /** With `scope: 'neighbourhood'`. */
  offset?: number;
  scope: DependencyGraphParams['scope'];
  depth?: number;
  /** The index whose encoder vectors give the focus statement's "may use" suggestions (neighbourhoods only). */
  index?: ServerIndex;
  mayUseThreshold?: number;
}

export function dependencyGraph(ws: Workspace, q: GraphQuery, numbers?: (doc: Doc) => AuxNumbers | undefined): DependencyGraphResponse {
  const g = graphOf(ws, numbers);
  const compiled = new Set(ws.scope(q.doc));
  const blueprint = g.blueprint(compiled);
  const root = ws.roots(q.doc)[0]?.uri;
  let keys: NodeKey[];
  let focus: NodeKey | undefined;
  let suggested: MayUse[] = [];
  let pending = false;
  if (q.scope === 'neighbourhood') {
    const at = g.nodeAt(q.doc, q.offset ?? 0);
    if (!at) return { nodes: [], edges: [], blueprint, root, message: 'No theorem-like statement or proof here: put the cursor in a statement or its proof.' };
    focus = at.key;
    keys = neighbourhood(g, at.key, Math.max(1, Math.min(q.depth ?? 1, 6)));
    // no vectors are asked for while no threshold shows a suggestion (evaluation asks with its own)
    if (q.index && (q.mayUseThreshold !== undefined || MAY_USE_THRESHOLD !== undefined)) {
      const m = mayUse(ws, g, q.index, at, { threshold: q.mayUseThreshold });
      suggested = m.suggestions;
      pending = m.pending;
      for (const s of suggested) if (!keys.includes(s.key)) keys.push(s.key);
    }
  } else {
    keys = ws.includeOrder(ws.roots(q.doc)).flatMap((d) => g.nodesIn(d).map((n) => n.key));
    if (keys.length === 0) keys = g.nodesIn(q.doc).map((n) => n.key);
    // what the compilation uses from documents compiled apart (xr)
    const inside = new Set(keys);
    for (const k of [...inside]) for (const e of g.uses(k)) if (!inside.has(e.to)) { inside.add(e.to); keys.push(e.to); }
  }
  const shown = new Set(keys);
  const nodes: GraphNode[] = [];
  const ids = new Map<NodeKey, string>();
  const usedIds = new Set<string>();
  for (const k of keys) {
    const n = g.node(k);
    if (!n) continue;
    let id = n.su.st.labels[0]?.name ?? `${n.doc.uri.slice(n.doc.uri.lastIndexOf('/') + 1)}#${n.su.ordinal + 1}`;
    while (usedIds.has(id)) id += "'";
    usedIds.add(id);
    ids.set(k, id);
    nodes.push(graphNode(g, n, id, !compiled.has(n.doc), blueprint));
  }
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  for (const k of keys) {
    for (const e of g.uses(k)) {
      if (!shown.has(e.to)) continue;
      const key = `${k}>${e.to}>${e.kind}>${e.where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ from: ids.get(k)!, to: ids.get(e.to)!, kind: e.kind, where: e.where });
    }
  }
  for (const s of suggested) edges.push({ from: ids.get(focus!)!, to: ids.get(s.key)!, kind: 'suggested', where: 'proof', score: Math.round(s.score * 1000) / 1000 });
  return { nodes, edges, blueprint, root, ...(focus ? { focus: ids.get(focus) } : {}), ...(pending ? { suggestionsPending: true } : {}) };
}

/** The statement and what is within `depth` steps of it, either way. */
function neighbourhood(g: DependencyIndex, start: NodeKey, depth: number): NodeKey[] {
  const out = [start];
  const seen = new Set(out);
  let frontier = [start];
  for (let d = 0; d < depth; d++) {
    const next: NodeKey[] = [];
    for (const k of frontier) {
      for (const e of g.uses(k)) if (!seen.has(e.to)) { seen.add(e.to); next.push(e.to); }
      for (const e of g.usedBy(k)) if (!seen.has(e.from)) { seen.add(e.from); next.push(e.from); }
    }
    out.push(...next);
    frontier = next;
  }
  return out;
}

function graphNode(g: DependencyIndex, n: DepNode, id: string, external: boolean, blueprint: boolean): GraphNode {
  const num = g.numberOf(n.key);
  const st = n.su.st;
  const text = bodyText(n.doc, st.env).replace(/\\(?:leanok|mathlibok|notready)(?![a-zA-Z])|\\(?:lean|uses)\s*\{[^{}]*\}/g, '').replace(/\s+/g, ' ').trim();
  const node: GraphNode = {
    id, labels: st.labels.map((l) => l.name), kind: st.kind.title,
    uri: n.doc.uri, range: n.doc.range(st.env.start, Math.min(st.env.bodyStart, st.env.end)),
    text: text.length > TEXT_CHARS ? `${text.slice(0, TEXT_CHARS)}…` : text,
    status: proofStatus(n),
  };
  if (num) { node.number = num.number; node.numberFrom = num.from; }
  if (st.title) node.title = st.title;
  if (external) node.external = true;
  if (blueprint) node.blueprint = blueprintStatus(g, n);
  return node;
}

/** Proved here, stated without a proof, cited from outside, or a definition (nothing to prove). */
export function proofStatus(n: DepNode): ProofStatus {
  if (!n.su.provable) return 'definition';
  if (n.su.proofs.length > 0 || n.su.marks.proofLeanok) return 'proved';
  return n.su.cites ? 'cited' : 'stated';
}

/** A statement is formalized when it or Mathlib says so (`\leanok`, `\mathlibok`). */
const formalized = (n: DepNode) => n.su.marks.leanok || n.su.marks.mathlibok;

export function blueprintStatus(g: DependencyIndex, n: DepNode): BlueprintStatus {
  const deps = (where: 'statement' | 'proof') => g.uses(n.key).filter((e) => e.kind === 'explicit' && e.where === where).map((e) => g.node(e.to)).filter((x): x is DepNode => !!x);
  const m = n.su.marks;
  const status: BlueprintStatus = {
    statementDone: m.leanok || m.mathlibok, proofDone: m.proofLeanok || m.mathlibok || (m.leanok && !n.su.provable), mathlib: m.mathlibok, notReady: m.notready,
    ready: deps('statement').every(formalized), proofReady: deps('proof').every(formalized),
  };
  if (m.lean.length) status.lean = m.lean;
  return status;
}
