// What the dependency graph says is wrong, precision first: proofs that use each other in a
// circle (proof-cycle), a result used in a proof before it is stated (used-before-stated),
// blueprint marks that contradict the graph (a formalized proof of an unformalized statement, a
// `\notready` statement whose dependencies are all formalized), and, when asked for, lemmas
// nothing uses (unused-statement). Only explicit references count, never a mention in passing
// ("as in the proof of …") or a result named without a reference; the graph is asked only once
// the session has built it (a first build of a large workspace never runs inside a keystroke).
import type { Doc, Workspace } from '../../project/workspace.js';
import { currentDependencyIndex, type DepEdge, type DependencyIndex, type DepNode, type NodeKey } from '../../analysis/dependencies/dependencyGraph.js';
import { uriBaseName } from '../../project/files.js';
import { texText } from '../../project/texText.js';
import { diagnostic } from './codes.js';
import type { CheckContext } from './checkContext.js';
import type { Candidate } from './publishGate.js';
import { sameAround } from '../../analysis/dependencies/documentUses.js';

export function dependencyChecks(cx: CheckContext): void {
  const { ws, doc } = cx;
  // a keystroke does not wait for the graph: until the session has brought it up to date (in
  // turns, shortly after), the last findings stay, moved with the text around them
  const g = currentDependencyIndex(ws);
  if (!g) { cx.out.push(...carried(ws, doc)); return; }
  const out: Candidate[] = [];
  findings(cx, g, out);
  cx.out.push(...out);
  let byDoc = lastFindings.get(ws);
  if (!byDoc) lastFindings.set(ws, byDoc = new Map());
  byDoc.set(doc.uri, { text: doc.text, found: out.map((c) => ({ start: doc.offsetAt(c.diagnostic.range.start), end: doc.offsetAt(c.diagnostic.range.end), c })) });
}

/** Per workspace and document: the text the last findings were made for, and each finding's offsets. */
const lastFindings = new WeakMap<Workspace, Map<string, { text: string; found: Array<{ start: number; end: number; c: Candidate }> }>>();

/** The last findings of `doc` wholly before or after what changed since, at their places now. */
function carried(ws: Workspace, doc: Doc): Candidate[] {
  const last = lastFindings.get(ws)?.get(doc.uri);
  if (!last) return [];
  if (last.text === doc.text) return last.found.map((f) => f.c);
  const { prefix, suffix } = sameAround(last.text, doc.text);
  const delta = doc.text.length - last.text.length;
  const out: Candidate[] = [];
  for (const f of last.found) {
    const moved = f.end <= prefix ? f : f.start >= last.text.length - suffix ? { start: f.start + delta, end: f.end + delta } : undefined;
    if (moved) out.push({ ...f.c, diagnostic: { ...f.c.diagnostic, range: doc.range(moved.start, moved.end) } });
  }
  return out;
}

function findings(cx: CheckContext, g: DependencyIndex, out: Candidate[]): void {
  const { ws, doc } = cx;
  const mine = g.nodesIn(doc);
  if (mine.length === 0 && !g.documents().some((d) => d === doc)) return;
  const scope = ws.scope(doc);
  const compiled = [...scope].flatMap((d) => g.nodesIn(d));
  const name = (k: NodeKey) => { const n = g.node(k); return n ? shortName(n) : k; };
  // circles of proofs through this document's statements
  for (const cycle of cx.settings.structure ? cyclesOf(g, compiled) : []) {
    const here = cycle.filter((k) => g.node(k)?.doc === doc);
    if (here.length === 0) continue;
    const loop = [...cycle, cycle[0]].map(name).join(' → ');
    for (const k of here) {
      const i = cycle.indexOf(k);
      const next = cycle[(i + 1) % cycle.length];
      const site = g.uses(k).find((e) => e.to === next && e.doc === doc && strong(e));
      const n = g.node(k)!;
      const range = site ? doc.range(site.start, site.end) : head(n);
      out.push({ diagnostic: diagnostic('proof-cycle', range, `Circular proofs: ${loop} (each uses the next)`) });
    }
  }
  // a result used in a proof before it is stated, in the order the compilation reads them
  const position = positionIn(ws, ws.roots(doc)[0] ?? doc);
  for (const n of cx.settings.structure ? mine : []) {
    for (const e of g.uses(n.key)) {
      if (e.where !== 'proof' || !strong(e) || e.external || e.doc !== doc) continue;
      const to = g.node(e.to);
      if (!to || !scope.has(to.doc)) continue;
      const a = position(doc, e.start), b = position(to.doc, to.su.st.env.start);
      if (a && b && before(a, b)) {
        out.push({ diagnostic: diagnostic('used-before-stated', doc.range(e.start, e.end), `${shortName(to)} is used here before it is stated (${uriBaseName(to.doc.uri)}:${to.doc.positionAt(to.su.st.env.start).line + 1})`) });
      }
    }
  }
  if (g.blueprint(scope)) blueprintChecks(g, doc, mine, out);
  if (cx.settings.unusedStatements) unusedChecks(g, doc, mine, out);
}

type Out = Candidate[];

function blueprintChecks(g: DependencyIndex, doc: Doc, mine: readonly DepNode[], out: Out): void {
  for (const n of mine) {
    const m = n.su.marks;
    if (m.proofLeanok && !m.leanok && !m.mathlibok) {
      out.push({ diagnostic: diagnostic('blueprint-marks', head(n), `The proof of ${shortName(n)} is marked \\leanok but its statement is not: mark the statement \\leanok too`) });
    }
    if (m.notready && !m.leanok) {
      const deps = g.uses(n.key).filter((e) => e.kind === 'explicit' && e.via === 'uses').map((e) => g.node(e.to)).filter((x): x is DepNode => !!x);
      if (deps.length > 0 && deps.every((d) => d.su.marks.leanok || d.su.marks.mathlibok)) {
        out.push({ diagnostic: diagnostic('blueprint-ready', head(n), `Every result ${shortName(n)} uses is formalized: it is ready to be formalized (remove \\notready)`) });
      }
    }
  }
}

/** Lemmas, propositions and claims nothing uses; a chapter's or section's last result is where it ends, not unused. */
function unusedChecks(g: DependencyIndex, doc: Doc, mine: readonly DepNode[], out: Out): void {
  for (let i = 0; i < mine.length; i++) {
    const n = mine[i];
    if (!n.su.provable || !/lemma|proposition|claim/i.test(n.su.st.kind.title)) continue;
    if (g.usedBy(n.key).length > 0) continue;
    const next = mine[i + 1];
    const section = doc.sectionAt(n.su.st.env.start);
    if (!next || doc.sectionAt(next.su.st.env.start) !== section) continue;
    out.push({ diagnostic: diagnostic('unused-statement', head(n), `${shortName(n)} is never used: no reference, \\uses or mention by name in this project`) });
  }
}

/** An explicit reference to a statement's own label or a `\uses`, said as a step of the argument. */
const strong = (e: DepEdge) => e.kind === 'explicit' && !e.weak && !e.inner;

const cycleCache = new WeakMap<DependencyIndex, { version: number; nodes: readonly DepNode[]; cycles: NodeKey[][] }>();

function cyclesOf(g: DependencyIndex, nodes: readonly DepNode[]): NodeKey[][] {
  const hit = cycleCache.get(g);
  if (hit && hit.version === g.version && hit.nodes.length === nodes.length && hit.nodes[0] === nodes[0]) return hit.cycles;
  const cycles = g.cycles(nodes);
  cycleCache.set(g, { version: g.version, nodes, cycles });
  return cycles;
}

function head(n: DepNode) {
  const env = n.su.st.env;
  return n.doc.range(env.start, Math.min(env.bodyStart, env.end));
}

/** "Lemma lem:x", "Lemma (Zorn)", or "Lemma at file.tex:12": what the author can find it by, never a number LaTeX may not print. */
function shortName(n: DepNode): string {
  const label = n.su.st.labels[0]?.name;
  const title = n.su.st.title && (texText(n.su.st.title) || n.su.st.title);
  if (label) return `${n.su.st.kind.title} ${label}`;
  return title ? `${n.su.st.kind.title} (${title})` : `${n.su.st.kind.title} at ${uriBaseName(n.doc.uri)}:${n.doc.positionAt(n.su.st.env.start).line + 1}`;
}

/**
 * Where an offset is in the text `root`'s compilation reads: the offsets of the includes that
 * lead from the root to its document, then its own; undefined for a document the root does not
 * read (another volume's chapter).
 */
function positionIn(ws: Workspace, root: Doc): (doc: Doc, offset: number) => number[] | undefined {
  let chains = chainCache.get(root);
  if (!chains || chains.generation !== ws.graphGeneration()) {
    const map = new Map<Doc, number[]>();
    const visit = (d: Doc, chain: number[]) => {
      if (map.has(d) || chain.length > 32) return;
      map.set(d, chain);
      for (const inc of ws.includesOf(d)) {
        if (inc.kind === 'external' || inc.kind === 'bibliography' || inc.kind === 'package') continue;
        const child = ws.resolveInclude(d, inc);
        if (child) visit(child, [...chain, inc.start]);
      }
    };
    visit(root, []);
    chains = { generation: ws.graphGeneration(), map };
    chainCache.set(root, chains);
  }
  const map = chains.map;
  return (d, offset) => { const c = map.get(d); return c && [...c, offset]; };
}

const chainCache = new WeakMap<Doc, { generation: number; map: Map<Doc, number[]> }>();

function before(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i];
  return a.length < b.length;
}
