// "May use": statements of the project a proof may rest on and does not cite, for the graph
// view's neighbourhood. Ranked as "results to cite" ranks the project's labelled results for a
// statement (the position ranker fitted on Stacks' citations: text, vectors, what similar
// results' proofs cite, names, where the result sits), among the results stated before it that
// it does not already use. Kept apart from what the text says (a suggested edge, never an
// explicit or by-name one) and shown only above a threshold fixed on a judged sample
// (test/real-world/may-use-judgements.json, evalMayUse). Vectors come from the index's cache;
// those missing are asked for in the background and the answer says it is incomplete.
import type { Workspace } from '../../project/workspace.js';
import type { ServerIndex } from '../../index/serverIndex.js';
import type { DependencyIndex, DepNode, NodeKey } from '../../analysis/dependencies/dependencyGraph.js';
import { bodyText } from '../../analysis/structure.js';
import { rankWorkspaceStatements } from '../index/refRanking.js';

/**
 * Ranker score above which a suggestion is shown: the lowest at which a judged sample's
 * suggestions are plausible often enough (evalMayUse); undefined while none is (nothing is
 * shown, and no vector is asked for). `mayUseThreshold` in the request shows them for judging.
 */
export const MAY_USE_THRESHOLD: number | undefined = undefined;
/** Suggestions per statement at most. */
const MAY_USE_LIMIT = 3;
/** Ranked results whose vectors must be in for an answer to be complete. */
const TOP_WITH_VECTORS = 20;

export interface MayUse { key: NodeKey; score: number }

/** Suggestions for `n`'s proof; `pending` when vectors were missing (asked for meanwhile). */
export function mayUse(ws: Workspace, g: DependencyIndex, index: ServerIndex, n: DepNode, opts: { threshold?: number; limit?: number } = {}): { suggestions: MayUse[]; pending: boolean } {
  const threshold = opts.threshold ?? MAY_USE_THRESHOLD;
  if (threshold === undefined || !n.su.proofs.length || !index.get()) return { suggestions: [], pending: false };
  const cited = new Set<NodeKey>([n.key, ...g.uses(n.key).map((e) => e.to), ...g.usedBy(n.key).map((e) => e.from)]);
  const open = new Set(statedBefore(ws, g, n).filter((c) => !cited.has(c.key) && usable(c)).map((c) => c.key));
  const text = bodyText(n.doc, n.su.st.env);
  const ranked = rankWorkspaceStatements(ws, n.doc, { doc: n.doc, st: n.su.st, env: n.su.st.env, text }, index);
  const missing = [...(index.vector(text) ? [] : [text]), ...ranked.slice(0, TOP_WITH_VECTORS).map((c) => c.text).filter((t) => !index.vector(t))];
  if (missing.length) index.want(missing, true);
  const out: MayUse[] = [];
  const seen = new Set<NodeKey>();
  for (const c of ranked) {
    if (c.score < threshold || out.length >= (opts.limit ?? MAY_USE_LIMIT)) break;
    const to = g.resolveName(n.doc, c.ref);
    if (!to || to.inner || !open.has(to.key) || seen.has(to.key)) continue;
    seen.add(to.key);
    out.push({ key: to.key, score: c.score });
  }
  return { suggestions: out, pending: missing.length > 0 };
}

/** What a proof rests on: results and definitions, not examples, exercises or remarks. */
function usable(n: DepNode): boolean {
  const kind = `${n.su.st.kind.title} ${n.su.st.kind.env}`;
  if (/exercise|problem|example|question|remark|note|notation|conjecture/i.test(kind)) return false;
  return n.su.provable || /definition|defn|def\b/i.test(kind);
}

/** The statements of `n`'s compilation stated before it: what its proof may rest on. */
function statedBefore(ws: Workspace, g: DependencyIndex, n: DepNode): DepNode[] {
  const out: DepNode[] = [];
  for (const d of ws.includeOrder(ws.roots(n.doc))) {
    for (const m of g.nodesIn(d)) {
      if (m === n || (d === n.doc && m.su.st.env.start > n.su.st.env.start)) continue;
      out.push(m);
    }
    if (d === n.doc) break;
  }
  return out;
}
