// The dependency graph against what was checked by hand:
// * blueprints: the `\uses` edges of each latex-wild blueprint against the oracle in
//   test/real-world/blueprint-oracle/ (plastexdepgraph's rules applied by an independent script
//   and checked by hand): the edge lists must agree exactly; status counts beside the oracle's;
// * books: explicit and by-name edges of a judged sample of statements
//   (test/real-world/dependency-judgements/), precision and recall of each kind.
//
//   node scripts/out/bin/evalDependencies.js
//
// Exit 1 when a blueprint's edges differ from its oracle. Data: $MATHSENSE_SHARED/data or
// ../shared/data (latex-wild: evaluation only).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Workspace, findDocumentFiles } from 'mathsense-server/api/project';
import { dependencyIndex, type DependencyIndex, type DepNode } from 'mathsense-server/api/analysis';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';

const data = process.env.MATHSENSE_SHARED ? path.join(path.resolve(process.env.MATHSENSE_SHARED), 'data') : path.resolve(repoRoot, '..', 'shared', 'data');
const wild = path.join(data, 'latex-wild');
const ORACLES = path.join(repoRoot, 'test', 'real-world', 'blueprint-oracle');
const JUDGED = path.join(repoRoot, 'test', 'real-world', 'dependency-judgements');

/** Every document of a folder, with the includes they name read too. */
function load(folder: string): Workspace {
  const ws = new Workspace();
  for (const f of findDocumentFiles(folder)) ws.loadFile(f);
  for (let i = 0; i < 8; i++) { const p = ws.takePendingIncludes(); if (!p.length) break; for (const f of p) ws.loadFile(f); }
  return ws;
}

function compiled(ws: Workspace, g: DependencyIndex, rootFile: string): DepNode[] {
  const root = ws.get(pathToFileURL(rootFile).href);
  if (!root) throw new Error(`not loaded: ${rootFile}`);
  return ws.includeOrder([root]).flatMap((d) => g.nodesIn(d));
}

const nodeId = (n: DepNode, folder: string) => n.su.st.labels[0]?.name ?? `${path.relative(folder, new URL(n.doc.uri).pathname)}:${n.doc.positionAt(n.su.st.env.start).line + 1}`;

let failed = false;
const VERBOSE = process.argv.includes('--verbose');
const misses: string[] = [];

// ── blueprints ──
/**
 * Edges the graph draws and plastexdepgraph does not, on purpose: the author wrote them, and the
 * web build loses them to how plasTeX stores a command (HANDCHECK.md, cases 3 and 4).
 */
const DESIGNED: Array<[blueprint: string, from: string, to: string, why: string]> = [
  ['sphere-eversion-blueprint', 'lem:inductive_construction', 'def:index_type', 'a second \\uses in the statement replaces the first in the web build'],
  ['sphere-eversion-blueprint', 'lem:one_jet_extension_prop', 'def:one_jet_space', 'a \\uses inside an \\item belongs to the item in the web build'],
];

if (fs.existsSync(ORACLES)) {
  const rows: string[][] = [['blueprint', 'oracle edges', 'graph edges', 'agree', 'only in oracle', 'only in graph', 'statuses (oracle → graph): statement leanok, proof leanok, mathlibok, notready']];
  const diffs: string[] = [];
  for (const f of fs.readdirSync(ORACLES).filter((x) => x.endsWith('.json')).sort()) {
    const oracle = JSON.parse(fs.readFileSync(path.join(ORACLES, f), 'utf8')) as { blueprint: string; root: string; edges: Array<[string, string, string]>; status: Record<string, number> };
    const folder = path.join(wild, oracle.blueprint);
    const rootFile = path.join(folder, oracle.root);
    if (!fs.existsSync(rootFile)) { console.error(`skipped ${oracle.blueprint}: ${rootFile} missing`); continue; }
    const ws = load(path.dirname(rootFile));
    const g = dependencyIndex(ws);
    const nodes = compiled(ws, g, rootFile);
    const labelled = nodes.filter((n) => n.su.st.labels.length > 0);
    // a node as the oracle names it: plasTeX names it by its last label, which may sit in its
    // proof; either label reaches it, so both sides name a node by the key a label resolves to.
    // TeX reads a line end and the next line's indentation in a label as one space.
    const rootDoc = ws.get(pathToFileURL(rootFile).href)!;
    const spaced = (s: string) => s.replace(/\s+/g, ' ');
    const byLabel = new Map<string, string>();
    for (const n of labelled) for (const l of n.su.st.labels) byLabel.set(spaced(l.name), n.key);
    const nodeOf = (label: string) => byLabel.get(spaced(label)) ?? g.resolveName(rootDoc, label)?.key ?? `?${spaced(label)}`;
    const shown = new Map<string, string>();
    const ours = new Set<string>();
    for (const n of labelled) {
      shown.set(n.key, spaced(n.su.st.labels[0].name));
      for (const e of g.uses(n.key)) if (e.via === 'uses') ours.add(JSON.stringify([n.key, e.to, e.where]));
    }
    const theirs = new Set(oracle.edges.map(([from, to, where]) => JSON.stringify([nodeOf(from), nodeOf(to), where])));
    const named = (e: string) => { const [k, to, where] = JSON.parse(e) as string[]; return JSON.stringify([shown.get(k) ?? k, shown.get(to) ?? to, where]); };
    // where the graph keeps what the author wrote and the web build drops it (README.md of the oracle)
    const designed = (e: string) => DESIGNED.find(([b, from, to]) => b === oracle.blueprint && named(e).startsWith(JSON.stringify([from, to]).slice(0, -1)))?.[3];
    const both = [...ours].filter((e) => theirs.has(e));
    const onlyOracle = [...theirs].filter((e) => !ours.has(e));
    const onlyGraph = [...ours].filter((e) => !theirs.has(e) && !designed(e));
    const kept = [...ours].filter((e) => !theirs.has(e) && designed(e));
    if (onlyOracle.length || onlyGraph.length) failed = true;
    for (const e of kept) diffs.push(`${oracle.blueprint}: kept by design ${named(e)}: ${designed(e)}`);
    for (const e of onlyOracle.slice(0, 10)) diffs.push(`${oracle.blueprint}: only in oracle ${named(e)}`);
    for (const e of onlyGraph.slice(0, 10)) diffs.push(`${oracle.blueprint}: only in graph ${named(e)}`);
    const count = (f2: (n: DepNode) => boolean) => labelled.filter(f2).length;
    const st = oracle.status;
    // leanblueprint's \mathlibok marks the statement \leanok too
    const statuses = `${st.statementDone} → ${count((n) => n.su.marks.leanok || n.su.marks.mathlibok)}, ${st.proofDone} → ${count((n) => n.su.marks.proofLeanok || (n.su.marks.mathlibok && n.su.proofs.length > 0))}, ${st.mathlib} → ${count((n) => n.su.marks.mathlibok)}, ${st.notReady} → ${count((n) => n.su.marks.notready)}`;
    rows.push([oracle.blueprint, String(theirs.size), String(ours.size), String(both.length), String(onlyOracle.length), String(onlyGraph.length), statuses]);
  }
  console.log('\n## Blueprint `\\uses` edges against the hand-checked oracle\n');
  console.log(table(rows));
  if (diffs.length) console.log(`\n${diffs.join('\n')}`);
} else {
  console.error(`no blueprint oracle at ${path.relative(repoRoot, ORACLES)}`);
  failed = true;
}

// ── books ──
interface JudgedStatement { label: string | null; file: string; line: number; explicit: Array<{ to: string; where: string }>; byName: Array<{ to: string; where: string }> }
if (fs.existsSync(JUDGED)) {
  const rows: string[][] = [['book', 'statements', 'kind', 'judged edges', 'graph edges', 'agree', 'precision', 'recall']];
  for (const f of fs.readdirSync(JUDGED).filter((x) => x.endsWith('.json')).sort()) {
    const j = JSON.parse(fs.readFileSync(path.join(JUDGED, f), 'utf8')) as { book: string; root: string; statements: JudgedStatement[] };
    const folder = path.join(wild, j.book);
    const rootFile = path.join(folder, j.root);
    const ws = load(folder);
    const g = dependencyIndex(ws);
    const nodes = compiled(ws, g, rootFile);
    const byLabel = new Map<string, DepNode>();
    const byPlace = new Map<string, DepNode>();
    for (const n of nodes) {
      for (const l of n.su.st.labels) byLabel.set(l.name, n);
      byPlace.set(`${path.relative(folder, new URL(n.doc.uri).pathname)}:${n.doc.positionAt(n.su.st.env.start).line + 1}`, n);
    }
    // a target as the judges name it: its label, else file:line
    const names = (n: DepNode) => [...n.su.st.labels.map((l) => l.name), `${path.relative(folder, new URL(n.doc.uri).pathname)}:${n.doc.positionAt(n.su.st.env.start).line + 1}`];
    for (const kind of ['explicit', 'byName'] as const) {
      let judged = 0, ours = 0, agree = 0;
      for (const s of j.statements) {
        const n = (s.label && byLabel.get(s.label)) || byPlace.get(`${s.file}:${s.line}`);
        const want = new Set((kind === 'explicit' ? s.explicit : s.byName).map((e) => e.to));
        judged += want.size;
        if (!n) continue;
        const got = new Set<string>();
        for (const e of g.uses(n.key)) {
          if (e.kind !== kind) continue;
          const t = g.node(e.to);
          if (!t) continue;
          const hit = names(t).find((x) => want.has(x));
          got.add(hit ?? nodeId(t, folder));
        }
        ours += got.size;
        agree += [...got].filter((x) => want.has(x)).length;
        if (VERBOSE) {
          for (const x of want) if (!got.has(x)) misses.push(`${j.book} ${kind}: missed ${s.label ?? `${s.file}:${s.line}`} -> ${x}`);
          for (const x of got) if (!want.has(x)) misses.push(`${j.book} ${kind}: extra ${s.label ?? `${s.file}:${s.line}`} -> ${x}`);
        }
      }
      const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)}%` : '-');
      rows.push([j.book, String(j.statements.length), kind, String(judged), String(ours), String(agree), pct(agree, ours), pct(agree, judged)]);
    }
  }
  console.log('\n## Book edges against a judged sample\n');
  console.log(table(rows));
  if (misses.length) console.log(`\n${misses.join('\n')}`);
} else {
  console.error(`no judged sample at ${path.relative(repoRoot, JUDGED)}`);
  failed = true;
}
process.exit(failed ? 1 : 0);
