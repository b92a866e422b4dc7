// The workspace's labels: which documents define each name (kept current edit by edit from the
// label names an edit removed and added), and where a name written in a reference resolves, seen
// from a document: its project, the labels its project's macros make, and xr external documents
// under their prefixes.
import type { DocLabel } from '../model/documentView.js';
import type { Doc } from '../model/doc.js';
import type { IncludeGraph } from './includeGraph.js';
import { inheritedState, macroLabelMap, makesLabels, projectMacros, type UserMacro } from './userMacros.js';

export interface LabelLocation {
  doc: Doc;
  label: DocLabel;
  /** Prefix under which the label is seen (xr `\externaldocument[prefix]`), '' otherwise. */
  prefix: string;
}

const EMPTY_DOCS: ReadonlySet<never> = new Set();
/**
 * Label names from which a document is asked for its labels instead of having them copied into
 * the index: registering a document of tens of megabytes would otherwise copy every one of its
 * names in a single turn.
 */
const BULK_LABELS = 20_000;

export class LabelIndex {
  constructor(private readonly graph: IncludeGraph) {}

  /** Label name -> the documents defining it: one document itself (most names), or a set of them. */
  private readonly holders = new Map<string, Doc | Set<Doc>>();
  /**
   * Advances whenever any document's set of label names changes (what countLabel's answers rest
   * on, with the graph generation).
   */
  private generation = 0;
  private readonly resolved = new Map<Doc, { gen: number; graph: number; defined: Map<string, number> }>();
  /** Per document: label name -> number of definitions in it (what holders was built from). */
  private readonly counts = new Map<string, Map<string, number>>();
  /** Documents with BULK_LABELS label names or more: not in holders, labelHolders asks each. */
  private readonly bulk = new Set<Doc>();

  /** Advances whenever any document's set of label names changes. */
  labelGeneration(): number { return this.generation; }

  /** `doc` was stored or replaced: its label names are read again. */
  reindex(doc: Doc): void {
    const map = doc.labelMap();
    const old = this.counts.get(doc.uri);
    if (map.size >= BULK_LABELS) {
      // a document with this many label names is asked for them (labelHolders) instead of copying them
      if (old) for (const n of old.keys()) this.unholdLabel(n, doc);
      this.counts.delete(doc.uri);
      this.bulk.add(doc);
      this.generation++;
      return;
    }
    this.bulk.delete(doc);
    const counts = new Map<string, number>();
    for (const [name, defs] of map) counts.set(name, defs.length);
    if (old) for (const n of old.keys()) if (!counts.has(n)) this.unholdLabel(n, doc);
    for (const n of counts.keys()) if (!old?.has(n)) this.holdLabel(n, doc);
    this.counts.set(doc.uri, counts);
    this.generation++;
  }

  /** `doc` defines `name`: the index holds it for the name. */
  private holdLabel(name: string, doc: Doc): void {
    const h = this.holders.get(name);
    if (!h) this.holders.set(name, doc);
    else if (h instanceof Set) h.add(doc);
    else if (h !== doc) this.holders.set(name, new Set([h, doc]));
  }

  /** `doc` no longer defines `name`. */
  private unholdLabel(name: string, doc: Doc): void {
    const h = this.holders.get(name);
    if (h === doc) this.holders.delete(name);
    else if (h instanceof Set && h.delete(doc) && h.size === 1) this.holders.set(name, h.values().next().value!);
  }

  /**
   * Updates the index from the label names of the blocks an edit replaced and created.
   * Retyping inside a labelled block (same names in, same names out) changes nothing, so
   * cached resolutions stay valid.
   */
  applyDiff(doc: Doc, removed: readonly string[], added: readonly string[]): void {
    const delta = new Map<string, number>();
    for (const n of removed) delta.set(n, (delta.get(n) ?? 0) - 1);
    for (const n of added) delta.set(n, (delta.get(n) ?? 0) + 1);
    if (this.bulk.has(doc)) {
      // nothing is copied to update; what was resolved against its names is not valid any more
      for (const d of delta.values()) if (d !== 0) { this.generation++; break; }
      return;
    }
    const counts = this.counts.get(doc.uri);
    if (!counts) { this.reindex(doc); return; }
    for (const [n, d] of delta) {
      if (d === 0) continue;
      this.generation++;
      const c = (counts.get(n) ?? 0) + d;
      if (c <= 0) {
        counts.delete(n);
        this.unholdLabel(n, doc);
      } else {
        if (!counts.has(n)) this.holdLabel(n, doc);
        counts.set(n, c);
      }
    }
  }

  /** `doc` left the store. */
  forget(doc: Doc): void {
    this.generation++;
    this.resolved.delete(doc);
    const old = this.counts.get(doc.uri);
    if (old) for (const n of old.keys()) this.unholdLabel(n, doc);
    this.counts.delete(doc.uri);
    this.bulk.delete(doc);
  }

  /** Where `name` (as written in a reference in `from`) is defined, by `\\label` or through the project's macros. */
  findLabel(from: Doc, name: string): LabelLocation[] {
    const out: LabelLocation[] = [];
    const scope = this.graph.scope(from);
    this.collectLabel(name, scope, '', out);
    const macros = projectMacros(this.graph, from);
    if (makesLabels(macros)) out.push(...(this.macroLabelIndex(scope, macros).get(name) ?? []));
    const ext = this.graph.externals(from);
    if (ext.length) {
      const idx = this.graph.prefixIndex(ext);
      for (const len of idx.lengths) {
        if (len > name.length) break;
        const list = idx.map.get(name.slice(0, len));
        if (list) for (const e of list) this.collectLabel(name.slice(len), e.scope, name.slice(0, len), out);
      }
    }
    return out;
  }

  /**
   * The labels a scope's documents make through the project's macros, by name (each with the
   * state in force where its document is read); rebuilt when a document's version or the graph changes.
   */
  private macroLabelIndex(scope: Set<Doc>, macros: readonly UserMacro[]): Map<string, LabelLocation[]> {
    let key = `${this.graph.graphGeneration()}`;
    for (const d of scope) key += `,${d.version}`;
    const hit = this.macroLabels.get(scope);
    if (hit && hit.key === key && hit.macros === macros) return hit.index;
    const index = new Map<string, LabelLocation[]>();
    for (const d of scope) {
      for (const [name, labels] of macroLabelMap(d, macros, inheritedState(this.graph, d))) {
        const list = index.get(name) ?? [];
        for (const label of labels) list.push({ doc: d, label, prefix: '' });
        index.set(name, list);
      }
    }
    this.macroLabels.set(scope, { key, macros, index });
    return index;
  }

  private readonly macroLabels = new WeakMap<Set<Doc>, { key: string; macros: readonly UserMacro[]; index: Map<string, LabelLocation[]> }>();

  private collectLabel(name: string, scope: Set<Doc>, prefix: string, out: LabelLocation[]): void {
    for (const d of this.labelHolders(name)) {
      if (!scope.has(d)) continue;
      for (const label of d.labelMap().get(name) ?? []) out.push({ doc: d, label, prefix });
    }
  }

  /**
   * Number of definitions `name` has as seen from `from`. Cached per document until a label
   * set or the include graph changes, so typing ordinary text re-resolves nothing.
   */
  countLabel(from: Doc, name: string): number {
    const graph = this.graph.graphGeneration();
    let c = this.resolved.get(from);
    if (!c || c.gen !== this.generation || c.graph !== graph) {
      c = { gen: this.generation, graph, defined: new Map() };
      this.resolved.set(from, c);
    }
    let n = c.defined.get(name);
    if (n === undefined) {
      n = this.findLabel(from, name).length;
      c.defined.set(name, n);
    }
    return n;
  }

  /** Documents that define a label of this name, anywhere in the workspace. */
  labelHolders(name: string): Iterable<Doc> {
    const h = this.holders.get(name);
    const indexed: Iterable<Doc> = h === undefined ? EMPTY_DOCS : h instanceof Set ? h : [h];
    if (this.bulk.size === 0) return indexed;
    const out = [...indexed];
    for (const d of this.bulk) if (d.labelMap().has(name)) out.push(d);
    return out;
  }

  /** All labels visible from `from` without a prefix (its own project). */
  visibleLabels(from: Doc): LabelLocation[] {
    const out: LabelLocation[] = [];
    for (const d of this.graph.scope(from)) for (const label of d.labels()) out.push({ doc: d, label, prefix: '' });
    return out;
  }
}
