// Where the graph view draws each statement: layers from what is used (bottom) to what uses it
// (top). Small graphs (a neighbourhood) are laid out by dagre, whose crossing reduction and
// placement read best; dagre's network-simplex ranking grows too slow past a few hundred
// statements (a whole blueprint or Stacks chapter), so larger graphs get a linear layering here:
// longest-path layers, then a few barycenter sweeps to order each layer. Runs in the webview
// (bundled by scripts/build.mjs) and in the client's unit tests.
import dagre from '@dagrejs/dagre';

export interface LayoutNode { id: string; width: number; height: number }
export interface LayoutEdge { from: string; to: string }
export interface Placed { x: number; y: number }
export interface Layout { positions: Map<string, Placed>; width: number; height: number; engine: 'dagre' | 'layers' }

/** Statements up to which dagre lays the graph out. */
export const DAGRE_MAX_NODES = 150;
const GAP_X = 24;
const GAP_Y = 60;

export function layoutGraph(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Layout {
  const ids = new Set(nodes.map((n) => n.id));
  const usable = edges.filter((e) => e.from !== e.to && ids.has(e.from) && ids.has(e.to));
  return nodes.length <= DAGRE_MAX_NODES ? withDagre(nodes, usable) : inLayers(nodes, usable);
}

function withDagre(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Layout {
  const g = new dagre.graphlib.Graph();
  // an edge runs from a result (above) down to what it rests on
  g.setGraph({ rankdir: 'TB', nodesep: GAP_X, ranksep: GAP_Y, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: n.width, height: n.height });
  for (const e of edges) g.setEdge(e.from, e.to);
  dagre.layout(g);
  const positions = new Map<string, Placed>();
  let width = 0, height = 0;
  for (const n of nodes) {
    const p = g.node(n.id) as { x: number; y: number };
    positions.set(n.id, { x: p.x - n.width / 2, y: p.y - n.height / 2 });
    width = Math.max(width, p.x + n.width / 2 + 10);
    height = Math.max(height, p.y + n.height / 2 + 10);
  }
  return { positions, width, height, engine: 'dagre' };
}

/** Longest-path layers (what nothing uses on top), ordered by barycenter sweeps; linear per sweep. */
function inLayers(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Layout {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const uses: number[][] = nodes.map(() => []);
  const usedBy: number[][] = nodes.map(() => []);
  for (const e of edges) { uses[index.get(e.from)!].push(index.get(e.to)!); usedBy[index.get(e.to)!].push(index.get(e.from)!); }
  // layer = length of the longest chain of what a node uses (cycles broken where they close)
  const layer = new Array<number>(nodes.length).fill(-1);
  const state = new Uint8Array(nodes.length); // 0 new, 1 on the path, 2 done
  for (let s = 0; s < nodes.length; s++) {
    if (state[s]) continue;
    const stack: Array<{ v: number; i: number }> = [{ v: s, i: 0 }];
    state[s] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.i < uses[top.v].length) {
        const w = uses[top.v][top.i++];
        if (state[w] === 0) { state[w] = 1; stack.push({ v: w, i: 0 }); }
        continue;
      }
      let l = 0;
      for (const w of uses[top.v]) if (state[w] === 2) l = Math.max(l, layer[w] + 1);
      layer[top.v] = l;
      state[top.v] = 2;
      stack.pop();
    }
  }
  const layers: number[][] = [];
  nodes.forEach((_, i) => { (layers[layer[i]] ??= []).push(i); });
  // order within layers: barycenters of the neighbours in the layer below, then above
  const order = new Array<number>(nodes.length);
  const renumber = () => layers.forEach((l) => l.forEach((v, k) => { order[v] = k; }));
  renumber();
  const bary = (v: number, ns: number[]) => (ns.length ? ns.reduce((a, w) => a + order[w], 0) / ns.length : order[v]);
  for (let sweep = 0; sweep < 4; sweep++) {
    for (let l = 1; l < layers.length; l++) { layers[l].sort((a, b) => bary(a, uses[a]) - bary(b, uses[b])); layers[l].forEach((v, k) => { order[v] = k; }); }
    for (let l = layers.length - 2; l >= 0; l--) { layers[l].sort((a, b) => bary(a, usedBy[a]) - bary(b, usedBy[b])); layers[l].forEach((v, k) => { order[v] = k; }); }
  }
  const positions = new Map<string, Placed>();
  const rowHeight = Math.max(...nodes.map((n) => n.height)) + GAP_Y;
  let width = 0;
  const top = layers.length - 1;
  layers.forEach((l, k) => {
    let x = 10;
    for (const v of l) {
      positions.set(nodes[v].id, { x, y: 10 + (top - k) * rowHeight });
      x += nodes[v].width + GAP_X;
    }
    width = Math.max(width, x);
  });
  return { positions, width: width + 10, height: 20 + layers.length * rowHeight, engine: 'layers' };
}
