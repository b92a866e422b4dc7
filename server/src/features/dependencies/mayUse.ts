// "May use": statements of the project a proof reads close to by the encoder and does not
// cite, for the graph view's neighbourhood. Kept apart from what the text says (a suggested
// edge, never an explicit or by-name one) and shown only above a threshold fixed on a judged
// sample (test/real-world/may-use-judgements.json). Vectors come from the index's cache; those
// missing are asked for in the background and the answer says it is incomplete.
import type { Doc, Workspace } from '../../project/workspace.js';
import type { ServerIndex } from '../../index/serverIndex.js';
import type { DependencyIndex, DepNode, NodeKey } from '../../analysis/dependencies/dependencyGraph.js';
import { bodyText } from '../../analysis/structure.js';

/**
 * Cosine above which a suggestion is shown: the lowest at which a judged sample's suggestions
 * are plausible often enough (evalMayUse). No sample has been judged yet, so none is shown
 * (above any cosine); `mayUseThreshold` in the request shows them for judging.
 */
export const MAY_USE_THRESHOLD = 1.01;
/** Suggestions per statement at most. */
const MAY_USE_LIMIT = 3;
/** Statements of the project a proof is compared with at most (the nearest before it first). */
const CANDIDATES = 400;
/** Characters of a proof or statement the encoder reads. */
const TEXT_CHARS = 1500;

export interface MayUse { key: NodeKey; score: number }

/** Suggestions for `n`'s proof; `pending` when vectors were missing (asked for meanwhile). */
export function mayUse(ws: Workspace, g: DependencyIndex, index: ServerIndex, n: DepNode, opts: { threshold?: number; limit?: number } = {}): { suggestions: MayUse[]; pending: boolean } {
  const proof = proofText(n);
  if (!proof) return { suggestions: [], pending: false };
  const cited = new Set<NodeKey>([n.key, ...g.uses(n.key).map((e) => e.to), ...g.usedBy(n.key).map((e) => e.from)]);
  const candidates = before(ws, g, n).filter((c) => !cited.has(c.key) && usable(c)).slice(0, CANDIDATES);
  const texts = candidates.map(statementText);
  const q = index.vector(proof);
  const missing = [...(q ? [] : [proof]), ...texts.filter((t) => !index.vector(t))];
  if (missing.length) index.want(missing);
  if (!q) return { suggestions: [], pending: missing.length > 0 };
  const scored: MayUse[] = [];
  candidates.forEach((c, i) => {
    const v = index.vector(texts[i]);
    if (v) scored.push({ key: c.key, score: cosine(q, v) });
  });
  scored.sort((a, b) => b.score - a.score);
  const threshold = opts.threshold ?? MAY_USE_THRESHOLD;
  return { suggestions: scored.filter((s) => s.score >= threshold).slice(0, opts.limit ?? MAY_USE_LIMIT), pending: missing.length > 0 };
}

/** What a proof rests on: results and definitions, not examples, exercises or remarks. */
function usable(n: DepNode): boolean {
  const kind = `${n.su.st.kind.title} ${n.su.st.kind.env}`;
  if (/exercise|problem|example|question|remark|note|notation|conjecture/i.test(kind)) return false;
  return n.su.provable || /definition|defn|def\b/i.test(kind);
}

/** The statement's proofs' text (TeX), as the encoder reads it. */
function proofText(n: DepNode): string | undefined {
  const t = n.su.proofs.map((p) => n.doc.latexText.slice(p.bodyStart, p.bodyEnd)).join('\n').trim();
  return t.length >= 20 ? t.slice(0, TEXT_CHARS) : undefined;
}

function statementText(n: DepNode): string {
  return `${n.su.st.title ? `${n.su.st.title}. ` : ''}${bodyText(n.doc, n.su.st.env)}`.slice(0, TEXT_CHARS);
}

/** The statements of `n`'s compilation stated before it, nearest first: what its proof may rest on. */
function before(ws: Workspace, g: DependencyIndex, n: DepNode): DepNode[] {
  const order: Doc[] = ws.includeOrder(ws.roots(n.doc));
  const out: DepNode[] = [];
  for (const d of order) {
    for (const m of g.nodesIn(d)) {
      if (m === n || (d === n.doc && m.su.st.env.start > n.su.st.env.start)) continue;
      out.push(m);
    }
    if (d === n.doc) break;
  }
  return out.reverse();
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length && i < b.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
