// The theorem-like environments of each project: what `\newtheorem`, `\declaretheorem`,
// `\theoremstyle` and theorem-defining wrapper macros declare, read in include order from the
// project's roots. A registry is made anew only when the include graph changes or some document's
// declarations do.
import type { Doc } from '../model/doc.js';
import type { IncludeGraph } from './includeGraph.js';
import { TheoremRegistry } from './theorems.js';

export class ProjectTheorems {
  constructor(private readonly graph: IncludeGraph) {}

  /** Per document: its theorem declarations and theorem-defining macros, as compared. */
  private readonly defsSig = new Map<string, string>();
  private defsGeneration = 0;
  /** Per set of roots (their URIs); valid for one graph and declarations generation. */
  private registries = { graph: -1, defs: -1, byRoots: new Map<string, TheoremRegistry>() };

  /** `doc` was stored or changed: its declarations are compared with what the registries were made from. */
  noteDocument(doc: Doc): void {
    const defs = JSON.stringify([
      doc.theoremDefs().map((d) => [d.cmd, d.env, d.title, d.shared, d.parent, d.style, d.starred]),
      doc.macros().filter((m) => m.theoremWrapper).map((m) => [m.name, m.theoremWrapper]),
    ]);
    if (this.defsSig.get(doc.uri) !== defs) { this.defsSig.set(doc.uri, defs); this.defsGeneration++; }
  }

  /** `doc` left the store. */
  forget(uri: string): void {
    this.defsSig.delete(uri);
    this.defsGeneration++;
  }

  /** Theorem-like environments known in `doc`'s project. */
  of(doc: Doc): TheoremRegistry {
    const graph = this.graph.graphGeneration();
    if (this.registries.graph !== graph || this.registries.defs !== this.defsGeneration) {
      this.registries = { graph, defs: this.defsGeneration, byRoots: new Map() };
    }
    const cache = this.registries;
    const roots = this.graph.roots(doc);
    const key = roots.map((r) => r.uri).sort().join('\n');
    let reg = cache.byRoots.get(key);
    if (reg) return reg;
    reg = new TheoremRegistry();
    const ordered = this.graph.includeOrder(roots);
    const wrappers = new Map<string, { envArg: number; titleArg?: number; sharedArg?: number }>();
    for (const d of ordered) for (const m of d.macros()) if (m.theoremWrapper) wrappers.set(m.name, m.theoremWrapper);
    let style = 'plain';
    for (const d of ordered) {
      style = reg.addDefinitions(d.theoremDefs(), style);
      reg.addWrapperInvocations(d, wrappers);
    }
    cache.byRoots.set(key, reg);
    return reg;
  }
}
