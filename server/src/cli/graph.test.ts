// `mathsense graph` through the real bundled CLI: the formats, one neighbourhood, the summary,
// and the exit codes a blueprint's CI reads (--fail-on cycle: 1 with a circle, 0 without, 2 on
// a usage error).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../testing/paths.js';

const bundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');

const BLUEPRINT = String.raw`\documentclass{report}
\begin{document}
\begin{definition}\label{def:a}\leanok A.\end{definition}
\begin{lemma}\label{lem:b}\uses{def:a}\leanok B.\end{lemma}
\begin{proof}\leanok By definition.\end{proof}
\begin{lemma}\label{lem:c}\uses{lem:b} C.\end{lemma}
\begin{proof}\uses{lem:d}\end{proof}
\begin{theorem}\label{lem:d}\uses{lem:c} D.\end{theorem}
\begin{proof}\uses{lem:c}\end{proof}
\end{document}
`;

function run(args: string[], files: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-graph-'));
  try {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    const r = spawnSync(process.execPath, [bundle, 'graph', ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('mathsense graph: json, dot and mermaid; --from and --to; --summary; --fail-on cycle exits 1 with a circle, 0 without, 2 on a usage error', () => {
  const json = run(['main.tex'], { 'main.tex': BLUEPRINT });
  assert.equal(json.status, 0, json.stderr);
  const g = JSON.parse(json.stdout) as { nodes: Array<{ id: string }>; edges: Array<{ from: string; to: string; where: string }>; cycles: string[][]; blueprint: boolean };
  assert.deepEqual(g.nodes.map((n) => n.id), ['def:a', 'lem:b', 'lem:c', 'lem:d']);
  assert.equal(g.blueprint, true);
  assert.deepEqual(g.cycles, [['lem:c', 'lem:d']]);
  const dot = run(['--format', 'dot', 'main.tex'], { 'main.tex': BLUEPRINT });
  assert.match(dot.stdout, /^digraph dependencies \{/);
  assert.match(dot.stdout, /"lem:b" -> "def:a" \[style="dashed"\];/);
  const mermaid = run(['--format=mermaid', 'main.tex'], { 'main.tex': BLUEPRINT });
  assert.match(mermaid.stdout, /^graph BT\n/);
  const from = JSON.parse(run(['--from', 'lem:b', 'main.tex'], { 'main.tex': BLUEPRINT }).stdout) as { nodes: Array<{ id: string }> };
  assert.deepEqual(from.nodes.map((n) => n.id), ['def:a', 'lem:b'], 'what lem:b rests on');
  const to = JSON.parse(run(['--to', 'lem:b', '--depth', '1', 'main.tex'], { 'main.tex': BLUEPRINT }).stdout) as { nodes: Array<{ id: string }> };
  assert.deepEqual(to.nodes.map((n) => n.id), ['lem:b', 'lem:c'], 'what rests on lem:b, one step');
  const summary = run(['--summary', 'main.tex'], { 'main.tex': BLUEPRINT });
  assert.match(summary.stdout, /statements: 4\n/);
  assert.match(summary.stdout, /done: 2\n/);
  assert.match(summary.stdout, /cycles: 1\n/);
  const failing = run(['--fail-on', 'cycle', '--summary', 'main.tex'], { 'main.tex': BLUEPRINT });
  assert.equal(failing.status, 1);
  assert.match(failing.stderr, /circular proofs: lem:c -> lem:d -> lem:c/);
  const clean = run(['--fail-on', 'cycle', '--summary', 'main.tex'], { 'main.tex': BLUEPRINT.replace('\\uses{lem:d}', '') });
  assert.equal(clean.status, 0, clean.stderr);
  assert.equal(run(['--fail-on', 'typos', 'main.tex'], { 'main.tex': BLUEPRINT }).status, 2);
  assert.equal(run(['--from', 'lem:b', '--to', 'lem:c', 'main.tex'], { 'main.tex': BLUEPRINT }).status, 2);
  assert.equal(run(['--from', 'nothing', 'main.tex'], { 'main.tex': BLUEPRINT }).status, 2);
  assert.equal(run([], {}).status, 2);
});
