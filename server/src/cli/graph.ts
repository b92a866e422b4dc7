// `mathsense graph`: the dependency graph of a document's compilation for CI and scripts, as
// JSON, Graphviz dot or Mermaid; one neighbourhood with --from (what a statement rests on) or
// --to (what rests on it); --fail-on cycle for a blueprint's CI; --summary for progress counts.
import type { DependencyGraphResponse, GraphEdge, GraphNode } from '../ext/protocol.js';
import { dependencyIndex } from '../analysis/dependencies/dependencyGraph.js';
import { dependencyGraph } from '../features/dependencies/graphView.js';
import { AuxStore } from '../project/auxNumbers.js';
import { uriToPath } from '../project/files.js';
import { loadDocuments } from './loadDocuments.js';
import { displayPath } from './options.js';

export const GRAPH_USAGE = `  graph [--format json|dot|mermaid] [--from LABEL | --to LABEL] [--depth N] [--fail-on cycle] [--summary] <root.tex>
                                        the proof dependency graph of a document's compilation
                                        --from: what LABEL rests on; --to: what rests on LABEL
                                        exit 0, 1 with --fail-on cycle when there is one, 2 usage
`;

type Format = 'json' | 'dot' | 'mermaid';

interface GraphOptions { root?: string; format: Format; from?: string; to?: string; depth: number; failOnCycle: boolean; summary: boolean }

export function graphCommand(args: readonly string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
  const opts = parseArgs(args, io.err);
  if (!opts) return 2;
  const loaded = loadDocuments([opts.root!], io.err, 'graph');
  if (!loaded) return 2;
  const { ws } = loaded;
  const doc = ws.get([...loaded.targets][0]?.uri ?? '');
  if (!doc) return 2;
  const root = ws.roots(doc)[0] ?? doc;
  const aux = new AuxStore();
  const numbers = (d: typeof doc) => aux.numbers(ws, d);
  const g = dependencyIndex(ws, numbers);
  let graph = dependencyGraph(ws, { doc: root, scope: 'whole' }, numbers);
  const focus = opts.from ?? opts.to;
  if (focus !== undefined) {
    if (!graph.nodes.some((n) => n.labels.includes(focus))) {
      io.err(`mathsense graph: no statement labelled ${focus} in ${displayPath(uriToPath(root.uri) ?? root.uri)}'s compilation\n`);
      return 2;
    }
    graph = reachable(graph, focus, opts.from !== undefined ? 'uses' : 'usedBy', opts.depth);
  }
  const cycles = g.cycles(ws.includeOrder([root]).flatMap((d) => g.nodesIn(d)));
  if (opts.summary) io.out(summary(graph, cycles.length));
  else io.out(opts.format === 'json' ? `${JSON.stringify({ ...graph, cycles: cycles.map((c) => c.map((k) => labelOf(g.node(k)?.su.st.labels[0]?.name, k))) }, null, 2)}\n` : opts.format === 'dot' ? dot(graph) : mermaid(graph));
  if (opts.failOnCycle && cycles.length > 0) {
    for (const c of cycles) io.err(`mathsense graph: circular proofs: ${[...c, c[0]].map((k) => labelOf(g.node(k)?.su.st.labels[0]?.name, k)).join(' -> ')}\n`);
    return 1;
  }
  return 0;
}

const labelOf = (label: string | undefined, key: string) => label ?? key;

function parseArgs(args: readonly string[], err: (s: string) => void): GraphOptions | undefined {
  const o: GraphOptions = { format: 'json', depth: Infinity, failOnCycle: false, summary: false };
  const value = (i: number, name: string): string | undefined => {
    const v = args[i];
    if (v === undefined || v.startsWith('--')) { err(`mathsense graph: ${name} needs a value\n`); return undefined; }
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const take = (): string | undefined => inline ?? value(++i, flag);
    if (flag === '--format') {
      const f = take();
      if (f !== 'json' && f !== 'dot' && f !== 'mermaid') { err(`mathsense graph: --format must be json, dot or mermaid\n`); return undefined; }
      o.format = f;
    } else if (flag === '--from' || flag === '--to') {
      const v = take();
      if (v === undefined) return undefined;
      if (flag === '--from') o.from = v; else o.to = v;
    } else if (flag === '--depth') {
      const v = take();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) { err(`mathsense graph: --depth must be a positive whole number\n`); return undefined; }
      o.depth = n;
    } else if (flag === '--fail-on') {
      const v = take();
      if (v !== 'cycle') { err(`mathsense graph: --fail-on takes 'cycle'\n`); return undefined; }
      o.failOnCycle = true;
    } else if (flag === '--summary') o.summary = true;
    else if (a.startsWith('-')) { err(`mathsense graph: unknown option ${a}\n`); return undefined; }
    else if (o.root === undefined) o.root = a;
    else { err(`mathsense graph: one root document, got ${o.root} and ${a}\n`); return undefined; }
  }
  if (o.root === undefined) { err('mathsense graph: no root document given\n'); return undefined; }
  if (o.from !== undefined && o.to !== undefined) { err('mathsense graph: --from and --to exclude each other\n'); return undefined; }
  return o;
}

/** The statement labelled `label` and what it reaches along `way`, within `depth` steps. */
function reachable(graph: DependencyGraphResponse, label: string, way: 'uses' | 'usedBy', depth: number): DependencyGraphResponse {
  const start = graph.nodes.find((n) => n.labels.includes(label))!.id;
  const next = new Map<string, string[]>();
  for (const e of graph.edges) {
    const [a, b] = way === 'uses' ? [e.from, e.to] : [e.to, e.from];
    const l = next.get(a);
    if (l) l.push(b); else next.set(a, [b]);
  }
  const seen = new Set([start]);
  let frontier = [start];
  for (let d = 0; d < depth && frontier.length; d++) {
    const n: string[] = [];
    for (const k of frontier) for (const w of next.get(k) ?? []) if (!seen.has(w)) { seen.add(w); n.push(w); }
    frontier = n;
  }
  return { ...graph, focus: start, nodes: graph.nodes.filter((n) => seen.has(n.id)), edges: graph.edges.filter((e) => seen.has(e.from) && seen.has(e.to)) };
}

/** Blueprints: done, ready, blocked; other documents: proved, stated, cited, definitions. */
export function summary(graph: DependencyGraphResponse, cycles: number): string {
  const own = graph.nodes.filter((n) => !n.external);
  const count = (f: (n: GraphNode) => boolean) => own.filter(f).length;
  const lines = [`statements: ${own.length}`, `edges: ${graph.edges.length} (${graph.edges.filter((e) => e.kind === 'explicit').length} explicit, ${graph.edges.filter((e) => e.kind === 'byName').length} by name)`];
  if (graph.blueprint) {
    const done = (n: GraphNode) => !!n.blueprint && (n.blueprint.statementDone && n.blueprint.proofDone);
    lines.push(
      `statement formalized: ${count((n) => !!n.blueprint?.statementDone)}`,
      `proof formalized: ${count((n) => !!n.blueprint?.proofDone)}`,
      `in Mathlib: ${count((n) => !!n.blueprint?.mathlib)}`,
      `done: ${count(done)}`,
      `ready: ${count((n) => !done(n) && !!n.blueprint && (n.blueprint.statementDone ? n.blueprint.proofReady : n.blueprint.ready))}`,
      `blocked: ${count((n) => !done(n) && !!n.blueprint && !(n.blueprint.statementDone ? n.blueprint.proofReady : n.blueprint.ready))}`,
    );
  } else {
    lines.push(`proved: ${count((n) => n.status === 'proved')}`, `stated without proof: ${count((n) => n.status === 'stated')}`, `cited: ${count((n) => n.status === 'cited')}`, `definitions: ${count((n) => n.status === 'definition')}`);
  }
  lines.push(`cycles: ${cycles}`);
  return lines.join('\n') + '\n';
}

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function nodeText(n: GraphNode): string {
  return `${n.kind}${n.number ? ` ${n.number}` : ''}${n.title ? ` (${n.title})` : ''}${n.labels[0] ? `\n${n.labels[0]}` : ''}`;
}

const style = (e: GraphEdge) => [e.where === 'statement' ? 'dashed' : 'solid', e.kind === 'byName' ? 'bold' : ''].filter(Boolean).join(',');

function dot(graph: DependencyGraphResponse): string {
  const lines = ['digraph dependencies {', '  rankdir=BT;', '  node [shape=box];'];
  for (const n of graph.nodes) lines.push(`  ${quote(n.id)} [label=${quote(nodeText(n))}${n.external ? ', style=dashed' : ''}];`);
  for (const e of graph.edges) lines.push(`  ${quote(e.from)} -> ${quote(e.to)} [style=${quote(style(e))}];`);
  lines.push('}');
  return lines.join('\n') + '\n';
}

function mermaid(graph: DependencyGraphResponse): string {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const text = (s: string) => s.replace(/"/g, '#quot;').replace(/\n/g, '<br>');
  const lines = ['graph BT'];
  for (const n of graph.nodes) lines.push(`  ${ids.get(n.id)}["${text(nodeText(n))}"]`);
  for (const e of graph.edges) lines.push(`  ${ids.get(e.from)} ${e.where === 'statement' ? '-.->' : '-->'} ${ids.get(e.to)}`);
  return lines.join('\n') + '\n';
}
