// Which bibliography files each project reads: every `\bibliography{x}` / `\addbibresource{x}`
// of its scope, resolved like an include, and the .bib files found that the store has not read
// yet (read at once by the CLI, handed to the server's loader otherwise).
import type { DocInclude } from '../model/documentView.js';
import type { Doc } from '../model/doc.js';
import type { BibStore } from './bibliography.js';
import type { IncludeGraph } from './includeGraph.js';

/** A `\bibliography{x}` / `\addbibresource{x}` of a project, with the file it names (if found). */
export interface BibInclude { doc: Doc; inc: DocInclude; path?: string }

export class ProjectBibliographies {
  constructor(private readonly graph: IncludeGraph, private readonly bibs: BibStore) {}

  /** Per document; valid for one graph generation. */
  private lists = { gen: -1, byDoc: new Map<Doc, BibInclude[]>() };
  private readonly pending = new Set<string>();

  /**
   * The bibliography files of `doc`'s project (every `\bibliography`/`\addbibresource` in its
   * scope), resolved like includes (cached per graph generation). A file found on disk and not
   * read yet is read now (CLI) or recorded for the server (takePending).
   */
  of(doc: Doc): BibInclude[] {
    const gen = this.graph.graphGeneration();
    if (this.lists.gen !== gen) this.lists = { gen, byDoc: new Map() };
    let list = this.lists.byDoc.get(doc);
    if (!list) {
      list = [];
      for (const d of this.graph.scope(doc)) {
        for (const inc of d.includes()) {
          // a path built from macros (\bibliography{\jobname}) cannot be resolved here
          if (inc.kind !== 'bibliography' || /[\\#]/.test(inc.path) || !inc.path.trim()) continue;
          let p = this.graph.resolveIncludePath(d, inc);
          // `\bibliography{refs}` names refs.bib, never refs.tex
          if (p && !/\.bib$/i.test(p) && !/\.[A-Za-z]+$/.test(inc.path)) p = undefined;
          list.push({ doc: d, inc, path: p });
        }
      }
      this.lists.byDoc.set(doc, list);
    }
    for (const b of list) {
      if (!b.path || this.bibs.has(b.path)) continue;
      if (this.graph.loadIncludesSynchronously) this.bibs.loadSync(b.path);
      else this.pending.add(b.path);
    }
    return list;
  }

  /** .bib files found on disk but not read yet (cleared by the call). */
  takePending(): string[] {
    const out = [...this.pending].filter((p) => !this.bibs.has(p));
    this.pending.clear();
    return out;
  }
}
