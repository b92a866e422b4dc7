// What the related-equations search may say about a hit beyond its score:
// * "same equation" only when confirmed (math/equations/equivalence.ts): a fingerprint
//   collision is evidence, the confirmation is the claim;
// * copies: files of the workspace that repeat most of another file's displays (a book's
//   `slides/` folder, an old version kept beside the new one) are one group; a hit identical
//   to the query in a copy of the query's file is labelled a copy, and identical hits in one
//   group count once.
import type { DisplayRelations } from '../../math/equations/equation.js';
import { confirmSameDisplay } from '../../math/equations/equivalence.js';
import type { Doc } from '../../project/workspace.js';
import type { WorkspaceSnapshot } from '../../index/workspaceEquations.js';
import { drain } from '../../util/turns.js';

/** Whether the two displays are confirmed to say the same thing (both must be readable). */
export function confirmedSame(q: DisplayRelations | undefined, c: DisplayRelations | undefined): boolean {
  return !!q && !!c && confirmSameDisplay(q, c);
}

const copyTexts = new Map<string, string>();

/** The text of a display for telling copies apart: whitespace, labels and trailing punctuation dropped. */
export function copyText(latex: string): string {
  let t = copyTexts.get(latex);
  if (t === undefined) {
    t = latex.replace(/\\label\s*\{[^{}]*\}/g, '').replace(/\s+/g, '').replace(/[.,;]+$/, '');
    // read again for every snapshot of the workspace: kept, within a bound
    if (copyTexts.size > 200_000) copyTexts.clear();
    copyTexts.set(latex, t);
  }
  return t;
}

/** Shorter displays (`x = 0`) recur by themselves and say nothing about copying. */
const MIN_COPY_TEXT = 12;
/** Shared displays, and the share of the smaller file's displays, that make two files copies. */
const MIN_SHARED = 3;
const MIN_SHARE = 0.3;
/** A text in more files than this is common notation, not a sign of copying (a course kept in a dozen terms is). */
const MAX_FILES = 40;

/** By the snapshot's sites: a snapshot made again as analyses come in has the same copies. */
const groups = new WeakMap<object, Map<Doc, number>>();

/**
 * Copy groups of the snapshot's documents: two files sharing at least three displays and at
 * least three in ten of the smaller file's are copies, and so are two files of the same name
 * sharing one; copying is transitive. Documents in no group get
 * their own number.
 */
export function copyGroup(snap: WorkspaceSnapshot, doc: Doc): number {
  return copyGroups(snap).get(doc) ?? -1;
}

/** Every document's copy group (made once per set of sites: a caller may make them ahead of the first lens). */
export function copyGroups(snap: WorkspaceSnapshot): ReadonlyMap<Doc, number> {
  return drain(copyGroupSteps(snap));
}

/** Sites between pauses of `copyGroupSteps`. */
const SITES_PER_PAUSE = 2048;

/** `copyGroups`, pausing (`yield`) now and then: made a slice at a time after the first lens request. */
export function* copyGroupSteps(snap: WorkspaceSnapshot): Generator<void, ReadonlyMap<Doc, number>> {
  let m = groups.get(snap.sitesKey);
  if (!m) { m = yield* computeGroups(snap); groups.set(snap.sitesKey, m); }
  return m;
}

function* computeGroups(snap: WorkspaceSnapshot): Generator<void, Map<Doc, number>> {
  const docs: Doc[] = [];
  const index = new Map<Doc, number>();
  const texts = new Map<string, Set<number>>();
  const count: number[] = [];
  for (let k = 0; k < snap.sites.length; k++) {
    if (k % SITES_PER_PAUSE === SITES_PER_PAUSE - 1) yield;
    const s = snap.sites[k];
    let d = index.get(s.doc);
    if (d === undefined) { d = docs.length; docs.push(s.doc); index.set(s.doc, d); count.push(0); }
    const t = copyText(s.latex);
    if (t.length < MIN_COPY_TEXT) continue;
    let set = texts.get(t);
    if (!set) { set = new Set(); texts.set(t, set); }
    if (!set.has(d)) { set.add(d); count[d]++; }
  }
  const shared = new Map<number, number>(); // pair code → shared texts
  for (const set of texts.values()) {
    if (set.size < 2 || set.size > MAX_FILES) continue; // a formula in very many files is common, not copied
    const ds = [...set];
    for (let a = 0; a < ds.length; a++) for (let b = a + 1; b < ds.length; b++) {
      const code = Math.min(ds[a], ds[b]) * 1_000_003 + Math.max(ds[a], ds[b]);
      shared.set(code, (shared.get(code) ?? 0) + 1);
    }
  }
  const parent = docs.map((_d, i) => i);
  const find = (x: number): number => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
  const base = docs.map((d) => d.uri.slice(d.uri.lastIndexOf('/') + 1));
  for (const [code, n] of shared) {
    const a = Math.floor(code / 1_000_003), b = code % 1_000_003;
    // a file of the same name in another folder (a course kept term by term) needs one shared display
    if ((n >= MIN_SHARED && n >= MIN_SHARE * Math.min(count[a], count[b])) || base[a] === base[b]) parent[find(a)] = find(b);
  }
  return new Map(docs.map((d, i) => [d, find(i)]));
}
