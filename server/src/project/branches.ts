// The conditional branches a place of the project sits in, across files: a label in a chapter
// that its parent reads inside `\ifbook \input{…} \else … \fi` sits in that branch too. Two
// places with different branches of one conditional are never compiled together.
import { branchPath, branchRegions, exclusive, type BranchRegion } from '../syntax/conditionals.js';
import type { Doc, Workspace } from './workspace.js';

export interface ProjectStep {
  /** The conditional: its file and offset. */
  id: string;
  branch: number;
  /** The named switch it tests, and whether this branch is read when it is on (conditionals.ts#BranchStep). */
  flag?: string;
  on?: boolean;
}

/** How many includers up a file's place is followed. */
const MAX_INCLUDE_DEPTH = 4;

const regionCache = new WeakMap<Doc, { version: number; regions: BranchRegion[] | undefined }>();

/** The branches of `doc`'s conditionals, or undefined past the bounds of what is tracked. */
function regionsOf(doc: Doc): BranchRegion[] | undefined {
  const hit = regionCache.get(doc);
  if (hit && hit.version === doc.version) return hit.regions;
  const r = branchRegions(doc.latexText);
  const regions = r.complete ? r.regions : undefined;
  regionCache.set(doc, { version: doc.version, regions });
  return regions;
}

/**
 * The branches `offset` of `doc` sits in, with those of the place its includer reads it
 * (when exactly one file of the project includes it, followed up a few levels); undefined
 * when a file on the way has more conditionals than are tracked.
 */
export function projectBranches(ws: Workspace, doc: Doc, offset: number): ProjectStep[] | undefined {
  const out: ProjectStep[] = [];
  const seen = new Set<Doc>();
  let d: Doc | undefined = doc;
  let at = offset;
  for (let depth = 0; d && depth <= MAX_INCLUDE_DEPTH && !seen.has(d); depth++) {
    seen.add(d);
    const regions = regionsOf(d);
    if (!regions) return undefined;
    for (const s of branchPath(regions, at)) out.push({ id: `${d.uri}#${s.cond}`, branch: s.branch, ...(s.flag !== undefined && { flag: s.flag, on: s.on }) });
    const site = ws.includeSite(d);
    if (!site) break;
    d = site.doc;
    at = site.offset;
  }
  return out;
}

/**
 * Whether two places of the project, given by their branches (projectBranches), sit in
 * different branches of one conditional; undefined when either is past what is tracked.
 * Callers decide what the unknown means (a duplicate: silent; a reference: not undefined).
 * With `bySwitch`, opposite branches of two conditionals on one named switch count too
 * (`\iftoggle{print}{…}{\label{a}}` in one chapter, `\iftoggle{print}{\label{a}}{}` in
 * another): true unless the project sets the switch between them, which is not looked for, so
 * only a check that stays silent when apart asks for it.
 */
export function apart(here: ProjectStep[] | undefined, there: ProjectStep[] | undefined, bySwitch = false): boolean | undefined {
  return here && there ? exclusive(here, there, bySwitch) : undefined;
}

const branchLabels = new WeakMap<Doc, { version: number; names: Set<string> }>();

/** Names of the labels `doc` defines inside a branch of one of its own conditionals (cached per version). */
export function labelsInBranches(doc: Doc): ReadonlySet<string> {
  const hit = branchLabels.get(doc);
  if (hit && hit.version === doc.version) return hit.names;
  const names = new Set<string>();
  const labels = doc.labels();
  if (labels.length) {
    const regions = regionsOf(doc);
    if (regions?.length) for (const l of labels) if (branchPath(regions, l.start).length) names.add(l.name);
  }
  branchLabels.set(doc, { version: doc.version, names });
  return names;
}
