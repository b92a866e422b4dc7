// The graph view's layout (client/src/graphLayout.ts, compiled to client/out): what a statement
// uses is drawn below it, whatever the engine (dagre for a neighbourhood, layers for a whole
// document), nothing overlaps, and a circle of proofs still gets a layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'client', 'out');
const { layoutGraph, DAGRE_MAX_NODES } = require(path.join(out, 'graphLayout.js'));

/** A chain-and-fan graph of n statements: each uses the one before and, every third, the first. */
function graph(n) {
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `s${i}`, width: 180, height: 46 }));
  const edges = [];
  for (let i = 1; i < n; i++) { edges.push({ from: `s${i}`, to: `s${i - 1}` }); if (i % 3 === 0) edges.push({ from: `s${i}`, to: 's0' }); }
  return { nodes, edges };
}

for (const [name, n, engine] of [['a neighbourhood', 12, 'dagre'], ['a whole document', DAGRE_MAX_NODES + 50, 'layers']]) {
  test(`${name}: ${engine}; a result above what it uses, no two boxes overlap`, () => {
    const g = graph(n);
    const l = layoutGraph(g.nodes, g.edges);
    assert.equal(l.engine, engine);
    assert.equal(l.positions.size, n);
    for (const e of g.edges) assert.ok(l.positions.get(e.from).y < l.positions.get(e.to).y, `${e.from} above ${e.to}`);
    const boxes = [...l.positions.values()];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      assert.ok(Math.abs(a.x - b.x) >= 180 || Math.abs(a.y - b.y) >= 46, `boxes ${i} and ${j} overlap`);
    }
  });
}

test('a circle of proofs and edges to unknown statements still lay out', () => {
  const nodes = ['a', 'b', 'c'].map((id) => ({ id, width: 180, height: 46 }));
  const edges = [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'a', to: 'zz' }, { from: 'a', to: 'a' }];
  for (const many of [false, true]) {
    const all = many ? [...nodes, ...Array.from({ length: DAGRE_MAX_NODES }, (_, i) => ({ id: `x${i}`, width: 180, height: 46 }))] : nodes;
    const l = layoutGraph(all, edges);
    assert.equal(l.positions.size, all.length);
  }
});
