// The workspace: every known document (open in the editor or read from disk), stored under its
// normalized URI, and the façade over what is derived from them, each kept by its own module:
// the include graph, roots and scopes (includeGraph.ts), the label index (labelIndex.ts), each
// project's bibliography files (bibliographyIncludes.ts) and theorem environments
// (projectTheorems.ts). Storing or editing a document tells each of them.
import * as path from 'node:path';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { LatexDocument } from '../model/latexDocument.js';
import { MarkdownDocument } from '../model/markdownDocument.js';
import type { DocInclude } from '../model/documentView.js';
import { isFile, isMarkdownPath, normalizeUri, pathToUri, readTextFile, uriToPath } from './files.js';
import { nodeFileSystem, type FileSystem } from './fileSystem.js';
import type { TheoremRegistry } from './theorems.js';
import { BibStore } from './bibliography.js';
import { IncludeGraph, type External, type IncludeIssue } from './includeGraph.js';
import { LabelIndex, type LabelLocation } from './labelIndex.js';
import { ProjectBibliographies, type BibInclude } from './bibliographyIncludes.js';
import { ProjectTheorems } from './projectTheorems.js';
import { ReadPolicy } from './readPolicy.js';

export type { Doc } from '../model/doc.js';
import type { Doc } from '../model/doc.js';
export { isMacroSource, type IncludeIssue } from './includeGraph.js';
export type { LabelLocation } from './labelIndex.js';
export type { BibInclude } from './bibliographyIncludes.js';

const TEX_LANGS = new Set(['latex', 'tex', 'plaintex', 'context', 'latex-expl3', 'doctex']);

/** Whether a document the editor opens is read as Markdown (else as LaTeX). */
export function isMarkdownLanguage(uri: string, languageId: string): boolean {
  return languageId === 'markdown' || (!TEX_LANGS.has(languageId) && isMarkdownPath(uri));
}

export interface WorkspaceOptions {
  /** Where files not open in the editor are read from: the disk unless given. */
  fs?: FileSystem;
}

export class Workspace {
  /** Every read of the workspace (documents, includes, .bib files, what auxNumbers reads) goes through it. */
  readonly fs: FileSystem;
  /** Parsed .bib files (project/bibliography.ts), read like includes: synchronously or by the server. */
  readonly bibs: BibStore;

  private readonly docs = new Map<string, Doc>();
  private readonly openUris = new Set<string>();
  private readonly failed = new Map<string, string>();
  private readonly policy = new ReadPolicy();
  private readonly graph: IncludeGraph;
  private readonly labels: LabelIndex;
  private readonly bibliographies: ProjectBibliographies;
  private readonly theoremDefs: ProjectTheorems;

  constructor(options: WorkspaceOptions = {}) {
    this.fs = options.fs ?? nodeFileSystem;
    this.bibs = new BibStore(this.fs);
    const docs = this.docs;
    this.graph = new IncludeGraph({
      fs: this.fs,
      stored: (uri) => docs.get(uri),
      storedDocs: () => docs.values(),
      storedCount: () => docs.size,
      loadFile: (p) => this.loadFile(p),
      readFailed: (uri) => this.failed.has(uri),
    }, this.policy);
    this.labels = new LabelIndex(this.graph);
    this.bibliographies = new ProjectBibliographies(this.graph, this.bibs);
    this.theoremDefs = new ProjectTheorems(this.graph);
  }

  /** Called when a document could not be read (binary, too large, unreadable). */
  onReadError: (uri: string, reason: string) => void = () => {};

  get(uri: string): Doc | undefined {
    return this.docs.get(normalizeUri(uri));
  }

  all(): Doc[] {
    return [...this.docs.values()];
  }

  /** Short numbers for documents, for what the client keeps and sends back (a completion item's data). */
  private readonly ids = new Map<Doc, number>();
  private readonly byId: Doc[] = [];

  /** This document's number for the session. */
  idOf(doc: Doc): number {
    let id = this.ids.get(doc);
    if (id === undefined) { id = this.byId.length; this.byId.push(doc); this.ids.set(doc, id); }
    return id;
  }

  /** The document numbered `id`, if it is still in the workspace. */
  docById(id: number): Doc | undefined {
    const doc = this.byId[id];
    return doc && this.docs.get(doc.uri) === doc ? doc : undefined;
  }

  isOpen(doc: Doc): boolean {
    return this.openUris.has(doc.uri);
  }

  /**
   * Opens (or replaces) a document with editor-provided text (`prepared`: the LaTeX document of
   * that text, built apart already: a large one, session/slicedOpens.ts).
   */
  open(uri: string, languageId: string, version: number, text: string, prepared?: LatexDocument): Doc {
    const key = normalizeUri(uri);
    this.openUris.add(key);
    return this.put(key, languageId, version, text, prepared);
  }

  /**
   * Edits of an open document. A change for a document the editor never opened is not applied
   * (undefined): the copy read from disk stays what the disk holds.
   */
  change(uri: string, changes: readonly TextDocumentContentChangeEvent[], version: number): Doc | undefined {
    return this.edit(uri, changes, version)?.doc;
  }

  /**
   * `change`, telling whether the edit touched what the project is made of (an include, a
   * definition, the class): the one place an edit's effects are read.
   */
  edit(uri: string, changes: readonly TextDocumentContentChangeEvent[], version: number): { doc: Doc; touchedProject: boolean } | undefined {
    const doc = this.get(uri);
    if (!doc || !this.isOpen(doc)) return undefined;
    doc.applyChanges(changes, version);
    const edit = doc.kind === 'latex' ? doc.lastEdit : undefined;
    if (edit && !edit.fullReplace) {
      if (edit.touchedLabels) this.labels.applyDiff(doc, edit.removedLabels, edit.addedLabels);
      // a use of an include-making macro is no include fact of its own: check on every edit when there are such macros
      if (edit.touchedProject || this.graph.hasIncludeMacros()) this.noteDefinitions(doc);
    } else this.updated(doc);
    return { doc, touchedProject: edit?.touchedProject ?? false };
  }

  /** Editor closed the document: fall back to the disk version, or forget it. */
  close(uri: string): void {
    const key = normalizeUri(uri);
    this.openUris.delete(key);
    const p = uriToPath(key);
    if (p && isFile(p, this.fs)) this.loadFile(p, true);
    else this.remove(key);
  }

  /**
   * A file was deleted on disk. An open document keeps its buffer (the editor's text is the
   * truth, and may be saved again); it is forgotten when closed (close() finds no file).
   */
  deletedOnDisk(uri: string): void {
    const key = normalizeUri(uri);
    this.failed.delete(key);
    if (!this.openUris.has(key)) this.remove(key);
  }

  remove(uri: string): void {
    const key = normalizeUri(uri);
    const doc = this.docs.get(key);
    if (!doc) return;
    this.docs.delete(key);
    this.labels.forget(doc);
    this.graph.forget(key);
    this.theoremDefs.forget(key);
  }

  /**
   * Loads a file from disk unless it is open in the editor. Returns the document or undefined.
   * `read`: its text, read already (and `prepared`, its LaTeX document built apart already: a
   * large file the project loader built and warmed in slices).
   */
  loadFile(p: string, force = false, read?: { text: string; prepared?: LatexDocument }): Doc | undefined {
    const uri = pathToUri(p);
    if (this.openUris.has(uri)) return this.docs.get(uri);
    if (!this.policy.mayRead(p)) { this.policy.skippedOutside.add(path.resolve(p)); return undefined; }
    if (!force && this.docs.has(uri)) return this.docs.get(uri);
    const r = read ?? readTextFile(p, this.fs);
    if ('error' in r) {
      this.failed.set(uri, r.error);
      this.onReadError(uri, r.error);
      return undefined;
    }
    this.failed.delete(uri);
    return this.put(uri, isMarkdownPath(p) ? 'markdown' : 'latex', 0, r.text, read?.prepared);
  }

  /**
   * Whether the disk still holds what a document not open in the editor was read from; when it
   * does not, the document is read again. Open documents are the editor's: always 'same'.
   */
  refreshFromDisk(doc: Doc): 'same' | 'reloaded' | 'unreadable' {
    if (this.openUris.has(doc.uri)) return 'same';
    const p = uriToPath(doc.uri);
    if (!p) return 'unreadable';
    const r = readTextFile(p, this.fs);
    if ('error' in r) return 'unreadable';
    if (r.text === doc.text) return 'same';
    // the text just read is the one stored (the file is not read a second time)
    return this.loadFile(p, true, r) ? 'reloaded' : 'unreadable';
  }

  readError(uri: string): string | undefined {
    return this.failed.get(normalizeUri(uri));
  }

  private put(uri: string, languageId: string, version: number, text: string, prepared?: LatexDocument): Doc {
    const existing = this.docs.get(uri);
    const markdown = isMarkdownLanguage(uri, languageId);
    let doc: Doc;
    if (existing && (existing.kind === 'markdown') === markdown) {
      if (existing.kind === 'markdown') existing.setText(text, version);
      else if (prepared) existing.replaceWith(prepared);
      else existing.setText(text, version);
      doc = existing;
    } else {
      if (existing) this.labels.forget(existing);
      if (markdown) doc = new MarkdownDocument(uri, text, version, languageId);
      else if (prepared) {
        // under this workspace's key for the URI, whatever spelling the prepared document has
        doc = new LatexDocument(uri, '', version, languageId);
        doc.replaceWith(prepared);
      } else doc = new LatexDocument(uri, text, version, languageId);
      this.docs.set(uri, doc);
    }
    this.updated(doc);
    return doc;
  }


  /** Refreshes indexes after `doc` was stored or replaced. */
  private updated(doc: Doc): void {
    this.labels.reindex(doc);
    this.noteDefinitions(doc);
  }

  /** What `doc` declares of the project (includes, root, class, theorem environments) may have changed. */
  private noteDefinitions(doc: Doc): void {
    this.graph.noteDocument(doc);
    this.theoremDefs.noteDocument(doc);
  }

  /** Adds a document whose text was read elsewhere (asynchronously). */
  addLoaded(p: string, text: string): Doc {
    const uri = pathToUri(p);
    const existing = this.docs.get(uri);
    if (existing && this.openUris.has(uri)) return existing;
    return this.put(uri, isMarkdownPath(p) ? 'markdown' : 'latex', 0, text);
  }

  /** Records that a file could not be read (so it is not retried on every graph build). */
  markUnreadable(p: string, reason: string): void {
    const uri = pathToUri(p);
    this.failed.set(uri, reason);
    this.onReadError(uri, reason);
  }

  // ---- what the include graph knows (project/includeGraph.ts) --------------------------

  /**
   * When false, resolving an include never reads the disk: files not yet loaded are only
   * recorded (takePendingIncludes) so a server can load them asynchronously instead of
   * blocking a request. The CLI keeps the default (read synchronously).
   */
  get loadIncludesSynchronously(): boolean { return this.graph.loadIncludesSynchronously; }
  set loadIncludesSynchronously(v: boolean) { this.graph.loadIncludesSynchronously = v; }
  /**
   * In a workspace that is not trusted, the folders files may be read from (an include elsewhere,
   * `\\input{../outside/secret}` or an absolute path, is not looked at); undefined: any.
   */
  get readableRoots(): readonly string[] | undefined { return this.policy.readableRoots; }
  set readableRoots(roots: readonly string[] | undefined) { this.policy.readableRoots = roots; }
  /** Files includes named outside readableRoots, not looked at (for the status and the include's diagnostic). */
  get skippedOutside(): ReadonlySet<string> { return this.policy.skippedOutside; }
  skippedInclude(doc: Doc, inc: DocInclude): string | undefined { return this.policy.skippedInclude(doc, inc); }
  mayRead(p: string): boolean { return this.policy.mayRead(p); }

  includesOf(doc: Doc): DocInclude[] { return this.graph.includesOf(doc); }
  includeIssues(doc: Doc): IncludeIssue[] { return this.graph.includeIssues(doc); }
  resolveInclude(doc: Doc, inc: DocInclude): Doc | undefined { return this.graph.resolveInclude(doc, inc); }
  resolveIncludePath(doc: Doc, inc: DocInclude): string | undefined { return this.graph.resolveIncludePath(doc, inc); }
  takePendingIncludes(): string[] { return this.graph.takePendingIncludes(); }
  foundByLetterCase(doc: Doc): Array<{ inc: DocInclude; found: string }> { return this.graph.foundByLetterCase(doc); }
  includeSite(doc: Doc): { doc: Doc; offset: number } | undefined { return this.graph.includeSite(doc); }
  includedBefore(doc: Doc, offset: number): Doc[] { return this.graph.includedBefore(doc, offset); }
  children(doc: Doc): Doc[] { return this.graph.children(doc); }
  parents(doc: Doc): Doc[] { return this.graph.parents(doc); }
  missingIncludes(doc: Doc): DocInclude[] { return this.graph.missingIncludes(doc); }
  /** Advances whenever the include graph may have changed (what per-project caches key on). */
  graphGeneration(): number { return this.graph.graphGeneration(); }
  isCompiled(doc: Doc): boolean { return this.graph.isCompiled(doc); }
  /** Root documents `doc` is compiled from (callers must not change the list). */
  roots(doc: Doc): readonly Doc[] { return this.graph.roots(doc); }
  /** Every document compiled together with `doc` (itself included). */
  scope(doc: Doc): Set<Doc> { return this.graph.scope(doc); }
  compilations(doc: Doc): Set<Doc>[] { return this.graph.compilations(doc); }
  /** Documents visible through xr `\\externaldocument[prefix]{file}` from `doc`'s project. */
  externals(doc: Doc): External[] { return this.graph.externals(doc); }
  /** Label prefixes of external documents visible from `from`. */
  externalPrefixes(from: Doc): External[] { return this.graph.externals(from); }
  includeOrder(roots: readonly Doc[]): Doc[] { return this.graph.includeOrder(roots); }

  /** Files appeared or went on disk: include lookups ask the disk again, and the include graph is made anew. */
  filesChanged(): void { this.graph.filesChanged(); }

  /** Forces the include graph to be (re)built, which records pending includes (and .bib files). */
  refreshGraph(): void {
    this.graphGeneration();
    for (const d of this.docs.values()) {
      this.graph.externals(d);
      if (d.includes().some((i) => i.kind === 'bibliography')) this.bibliographies.of(d);
    }
  }

  // ---- bibliographies (project/bibliographyIncludes.ts) ----------------------------------

  bibliographyIncludes(doc: Doc): BibInclude[] { return this.bibliographies.of(doc); }
  /** .bib files found on disk but not read yet (cleared by the call). */
  takePendingBibliographies(): string[] { return this.bibliographies.takePending(); }

  /** A .bib file appeared, changed or vanished on disk: resolve bibliographies again. */
  bibliographyChanged(p: string): void {
    this.bibs.remove(p);
    this.graph.invalidate();
  }

  // ---- labels (project/labelIndex.ts) ---------------------------------------------------

  /** Where `name` (as written in a reference in `from`) is defined, by `\\label` or through the project's macros. */
  findLabel(from: Doc, name: string): LabelLocation[] { return this.labels.findLabel(from, name); }
  /** Number of definitions `name` has as seen from `from` (cached until a label set or the graph changes). */
  countLabel(from: Doc, name: string): number { return this.labels.countLabel(from, name); }
  /** Advances whenever any document's set of label names changes (what resolved references rest on, with the graph generation). */
  labelGeneration(): number { return this.labels.labelGeneration(); }
  /** Documents that define a label of this name, anywhere in the workspace. */
  labelHolders(name: string): Iterable<Doc> { return this.labels.labelHolders(name); }
  /** All labels visible from `from` without a prefix (its own project). */
  visibleLabels(from: Doc): LabelLocation[] { return this.labels.visibleLabels(from); }

  // ---- theorem environments (project/projectTheorems.ts) --------------------------------

  /** Theorem-like environments known in `doc`'s project. */
  theorems(doc: Doc): TheoremRegistry { return this.theoremDefs.of(doc); }
}
