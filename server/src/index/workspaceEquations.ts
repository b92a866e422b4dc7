// The workspace equation index: every display equation and labelled row of every document
// (analysis/equationSites.ts), its features by content (equationAnalyses.ts: a keystroke re-analyses
// only the edited block's new texts; identical equations are analysed once), its formula-encoder
// vector when the model is there, and a searchable snapshot (EquationCorpus) rebuilt only when a
// document changed or new analyses or vectors arrived.
import { macroSignature, scopeMacros } from '../math/blocks.js';
import type { MacroDef } from '../math/macros.js';
import type { Block } from '../model/documentView.js';
import type { Doc, Workspace } from '../project/workspace.js';
import { analysisKey, type EquationAnalyses } from './equationAnalyses.js';
import { shapeOf, type EquationFeatures } from './equationFeatures.js';
import type { EquationCorpus } from './equationRanking.js';
import { FeatureCorpus } from './featureCorpus.js';
import { documentEquationSteps, type DocEquation, type EquationSite } from '../analysis/equationSites.js';
import { DisplayReader } from './displayReader.js';
import type { DisplayRelations } from '../math/equations/equation.js';
import { drain } from '../util/turns.js';

/** Macros visible from a document, with their signature; recomputed when a scope document changes. */
export class DocMacros {
  private readonly memo = new WeakMap<Doc, { blocks: Array<readonly Block[]>; defs: MacroDef[]; sig: string }>();

  of(ws: Workspace, doc: Doc): { defs: MacroDef[]; sig: string } {
    const scope = [...ws.scope(doc)];
    const blocks = scope.map((d) => d.blocks());
    const m = this.memo.get(doc);
    if (m && m.blocks.length === blocks.length && m.blocks.every((b, i) => b === blocks[i])) return m;
    const defs = scopeMacros(ws, doc);
    const v = { blocks, defs, sig: macroSignature(defs) };
    this.memo.set(doc, v);
    return v;
  }
}

/** Formula-encoder vectors by canonical text (the server's FormulaVectors, or a map in the CLI). */
export interface VectorSource {
  get(canonical: string): Float32Array | undefined;
  /** Asks for vectors in the background. */
  want?(canonicals: string[]): void;
  /** Advances when vectors arrive. */
  readonly generation: number;
}

export interface WorkspaceSnapshot {
  sites: DocEquation[];
  /** Features per site (undefined: not analysed yet). */
  features: Array<EquationFeatures | undefined>;
  corpus: EquationCorpus;
  /** Sites still waiting for their analysis. */
  pending: number;
  /** The same object for every snapshot of the same documents' displays (what depends on the sites alone is kept by it). */
  sitesKey: object;
}

/** Whether two lists of a document's sites are the same displays (where they are aside). */
function sameRelativeSites(a: readonly DocEquation[], b: readonly DocEquation[]): boolean {
  return a.length === b.length && a.every((s, i) => {
    const t = b[i];
    return s.rel === t.rel || (s.latex === t.latex && s.label === t.label && s.env === t.env && s.row === t.row);
  });
}

/** Sites between pauses of `snapshotSteps` while their content keys are made. */
const SITES_PER_PAUSE = 2048;

export class WorkspaceEquations {
  readonly macros = new DocMacros();
  /** Displays read for confirming "same equation" claims. */
  readonly displays = new DisplayReader();
  private readonly keys = new WeakMap<EquationSite, { sig: string; key: string }>();
  /** Each document's sites and their content keys, kept while its blocks and macros stay the same. */
  private readonly parts = new WeakMap<Doc, { blocks: readonly Block[]; sig: string; eqs: DocEquation[]; keys: string[] }>();
  private last: { docs: Doc[]; blocks: Array<readonly Block[]>; gen: number; vgen: number; snap: WorkspaceSnapshot; missing: Array<{ key: string; latex: string; macroKey: string }>; defs: Map<string, readonly MacroDef[]> } | undefined;

  constructor(readonly analyses: EquationAnalyses, private readonly vectors?: VectorSource) {}

  /** Content key of a site under its document's macros (memoised per site object). */
  keyOf(site: EquationSite, sig: string): string {
    const k = this.keys.get(site);
    if (k && k.sig === sig) return k.key;
    const key = analysisKey(site.latex, sig);
    this.keys.set(site, { sig, key });
    return key;
  }

  /** The last snapshot made, as it was (a list that only reads what is known need not wait for a new one). */
  latest(): WorkspaceSnapshot | undefined {
    return this.last?.snap;
  }

  /**
   * All sites with the features known now; sites not analysed yet are queued for the background
   * analysis (and vectors of analysed ones asked for). Cheap when nothing changed.
   */
  snapshot(ws: Workspace, opts: { queue?: boolean } = {}): WorkspaceSnapshot {
    return drain(this.snapshotSteps(ws, opts));
  }

  /**
   * `snapshot`, pausing (`yield`) between documents and within a large one: the warm-up after
   * the first lens request makes it a slice at a time. What a document's part has read is kept,
   * so a `snapshot` asked for meanwhile goes on from there.
   */
  *snapshotSteps(ws: Workspace, opts: { queue?: boolean } = {}): Generator<void, WorkspaceSnapshot> {
    const docs = ws.all();
    const blocks = docs.map((d) => d.blocks());
    const gen = this.analyses.generation;
    const vgen = this.vectors?.generation ?? 0;
    const l = this.last;
    const sameBlocks = !!l && l.blocks.length === blocks.length && l.blocks.every((b, i) => b === blocks[i]);
    if (l && sameBlocks && l.gen === gen && l.vgen === vgen) {
      if (opts.queue !== false && l.snap.pending) this.analyses.want(l.missing, l.defs);
      return l.snap;
    }
    // whether every document still has the same displays under the same macros (a keystroke in
    // a paragraph moves the displays after it, nothing more): then what depends on their content
    // alone (features, the searchable corpus, copy groups) is the last snapshot's
    let sameContent = !!l && l.docs.length === docs.length && l.docs.every((d, i) => d === docs[i]) && l.gen === gen && l.vgen === vgen;
    const sites: DocEquation[] = [];
    const features: Array<EquationFeatures | undefined> = [];
    const missing: Array<{ key: string; latex: string; macroKey: string }> = [];
    const defs = new Map<string, readonly MacroDef[]>();
    for (let d = 0; d < docs.length; d++) {
      const doc = docs[d];
      let part = this.parts.get(doc);
      if (!part || part.blocks !== blocks[d]) {
        const eqs = yield* documentEquationSteps(doc);
        const before = part;
        part = { blocks: blocks[d], sig: '', eqs, keys: [] };
        // the block-relative sites of unchanged blocks are the same objects
        if (before && sameRelativeSites(before.eqs, eqs)) { part.sig = before.sig; part.keys = before.keys; } else sameContent = false;
        this.parts.set(doc, part);
      }
      if (part.eqs.length === 0) continue;
      const m = this.macros.of(ws, doc);
      if (part.sig !== m.sig) {
        sameContent = false;
        const keys: string[] = [];
        for (let i = 0; i < part.eqs.length; i++) {
          keys.push(this.keyOf(part.eqs[i].rel, m.sig));
          if (i % SITES_PER_PAUSE === SITES_PER_PAUSE - 1) yield;
        }
        // set together, once all are made: a part left at a pause keeps its old, whole, key list
        part.sig = m.sig;
        part.keys = keys;
      }
      defs.set(m.sig, m.defs);
      const { eqs, keys } = part;
      for (let i = 0; i < eqs.length; i++) {
        const f = this.analyses.get(keys[i]);
        sites.push(eqs[i]);
        features.push(f);
        if (!f) missing.push({ key: keys[i], latex: eqs[i].latex, macroKey: m.sig });
      }
      yield;
    }
    if (l && sameContent) {
      if (opts.queue !== false && l.snap.pending) this.analyses.want(l.missing, l.defs);
      const snap: WorkspaceSnapshot = { ...l.snap, sites };
      this.last = { ...l, blocks, snap };
      return snap;
    }
    if (missing.length && opts.queue !== false) this.analyses.want(missing, defs);
    const vecs = features.map((f) => (f ? this.vectors?.get(f.canonical) : undefined));
    if (this.vectors?.want && opts.queue !== false) this.vectors.want(features.flatMap((f, i) => (f && !vecs[i] ? [f.canonical] : [])));
    const snap: WorkspaceSnapshot = { sites, features, corpus: new FeatureCorpus(features, vecs, this.analyses.tokens, (f) => this.analyses.codes(f)), pending: missing.length, sitesKey: l && sameBlocks ? l.snap.sitesKey : {} };
    this.last = { docs, blocks, gen, vgen, snap, missing, defs };
    return snap;
  }

  /** The relations of a site's display, read under its document's macros (for confirming claims). */
  displayOf(ws: Workspace, site: Pick<DocEquation, 'doc' | 'latex'>): DisplayRelations | undefined {
    const m = this.macros.of(ws, site.doc);
    return this.displays.read(site.latex, m.sig, this.analyses.table(m.sig, m.defs));
  }

  /** Features of one site now (analysed in this thread if needed: the query of a search). */
  featuresNow(ws: Workspace, site: DocEquation): EquationFeatures {
    const m = this.macros.of(ws, site.doc);
    const key = this.keyOf(site.rel, m.sig);
    return this.analyses.get(key) ?? this.analyses.now(site.latex, m.sig, m.defs);
  }
}
