// The workspace's labelled results as the index features read them (the `\ref{` ranking, "results
// to cite"): each theorem label's statement, text and name, what each statement's proof \ref's,
// and how often each label is \ref'd. A chapter of the Stacks project has thousands of them and a
// completion request reads them all, so each is kept per document version (the model makes new
// label, environment and reference arrays only for a document that changed): an edit costs the
// edited document, not the project.
import type { DocEnv, DocLabel, DocRef } from '../model/documentView.js';
import type { Doc, Workspace } from '../project/workspace.js';
import { bodyText, labelTarget, proofTarget } from '../analysis/structure.js';
import { lowerBound } from '../util/lowerBound.js';
import { resultName } from './resultNames.js';

/** The result a label names: its statement's environment, text and name, and its statementKey. */
export interface LabelledResult { readonly env: DocEnv; readonly text: string; readonly name: string; readonly key: string }

// per labels array (one document version), valid while its environments and theorem registry are
// the ones it was built with; null: the label names no theorem
const resultsPerLabels = new WeakMap<readonly DocLabel[], { envs: readonly DocEnv[]; registry: object; results: Map<DocLabel, LabelledResult | null> }>();

/**
 * The labelled results of `d`: a lookup by label, undefined where the label names no theorem.
 * Take one per document per request (it reads the theorem registry once).
 */
export function labelledResults(ws: Workspace, d: Doc): (label: DocLabel) => LabelledResult | undefined {
  const labels = d.labels(), envs = d.envs(), registry = ws.theorems(d);
  let c = resultsPerLabels.get(labels);
  if (!c || c.envs !== envs || c.registry !== registry) resultsPerLabels.set(labels, (c = { envs, registry, results: new Map() }));
  const results = c.results;
  return (label) => {
    let r = results.get(label);
    if (r === undefined) {
      const t = labelTarget(ws, d, label);
      r = t.kind === 'theorem' && t.env ? { env: t.env, text: bodyText(d, t.env), name: resultName(label.name, t.title), key: statementKey(d, t.env.start) } : null;
      results.set(label, r);
    }
    return r ?? undefined;
  };
}

/** A statement's key in `proofCitations`. */
export const statementKey = (doc: Doc, start: number) => `${doc.uri}#${start}`;

// per document, the labels its proofs \ref and the statement each proof proves, recomputed only
// for a document whose refs array is new; and the whole map, rebuilt only when one of them is
const proofRefs = new WeakMap<readonly DocRef[], Array<{ statement: string; names: string[] }>>();
const proofMaps = new WeakMap<Workspace, { perDoc: ReadonlyArray<readonly unknown[]>; byStatement: Map<string, string[]> }>();

/** The labels \ref'd in the proofs of each workspace statement, by statementKey. */
export function proofCitations(ws: Workspace): ReadonlyMap<string, readonly string[]> {
  const perDoc = ws.all().map((d) => proofsOf(ws, d));
  const last = proofMaps.get(ws);
  if (last && last.perDoc.length === perDoc.length && last.perDoc.every((p, i) => p === perDoc[i])) return last.byStatement;
  const byStatement = new Map<string, string[]>();
  for (const proofs of perDoc) {
    for (const p of proofs) {
      const names = byStatement.get(p.statement);
      if (names) names.push(...p.names); else byStatement.set(p.statement, [...p.names]);
    }
  }
  proofMaps.set(ws, { perDoc, byStatement });
  return byStatement;
}

function proofsOf(ws: Workspace, d: Doc): Array<{ statement: string; names: string[] }> {
  const refs = d.refs();
  let proofs = proofRefs.get(refs);
  if (proofs) return proofs;
  proofs = [];
  if (refs.length) {
    d.envs().forEach((e, i) => {
      if (e.name !== 'proof') return;
      // refs are in document order: binary search for the first inside the proof
      const names: string[] = [];
      for (let k = lowerBound(refs.length, (j) => refs[j].start < e.start); k < refs.length && refs[k].start < e.end; k++) if (refs[k].end <= e.end) names.push(refs[k].name);
      const st = names.length ? proofTarget(ws, d, i).statement : undefined;
      if (st) proofs!.push({ statement: statementKey(st.doc, st.env.start), names });
    });
  }
  proofRefs.set(refs, proofs);
  return proofs;
}

// how often each label name is \ref'd in the workspace, recounted only when some document's refs
// array is not the one counted last time
const refCounts = new WeakMap<Workspace, { arrays: ReadonlyArray<readonly DocRef[]>; counts: Map<string, number> }>();

/** How often a label is \ref'd across the workspace (what the position ranker calls times cited). */
export function timesReferenced(ws: Workspace): (name: string) => number {
  const arrays = ws.all().map((d) => d.refs());
  let last = refCounts.get(ws);
  if (!last || last.arrays.length !== arrays.length) {
    const counts = new Map<string, number>();
    for (const refs of arrays) count(counts, refs, 1);
    refCounts.set(ws, (last = { arrays, counts }));
  } else {
    // a keystroke changes one document's refs array: adjust by that document alone, not by
    // every reference of the project
    for (let i = 0; i < arrays.length; i++) {
      if (arrays[i] === last.arrays[i]) continue;
      count(last.counts, last.arrays[i], -1);
      count(last.counts, arrays[i], 1);
    }
    last.arrays = arrays;
  }
  const counts = last.counts;
  return (name) => counts.get(name) ?? 0;
}

function count(counts: Map<string, number>, refs: readonly { name: string }[], by: number): void {
  for (const r of refs) {
    const n = (counts.get(r.name) ?? 0) + by;
    if (n > 0) counts.set(r.name, n); else counts.delete(r.name);
  }
}
