// Reading the project off the request path: the workspace folders at startup (and folders
// added later), then the included, xr-external and bibliography files the include graph found
// on disk but has not read (opening one Stacks chapter pulls ~120 chapters in through
// `\externaldocument`; reading them inside didOpen blocked the server). While either runs the
// project is incomplete, and diagnostics that need all of it are held back.
import * as path from 'node:path';
import type { Workspace } from '../project/workspace.js';
import { findDocumentFiles, isMarkdownPath, pathToUri, readTextFile, readTextFileAsync } from '../project/files.js';
import { SlicedBuild, SLICED_OPEN_CHARS } from '../model/slicedBuild.js';
import { LatexDocument } from '../model/latexDocument.js';
import type { Guard } from '../util/guard.js';
import { turn, SLICE_MS } from '../util/turns.js';

/** Long work shown to the user (LSP `$/progress` in the server). */
export interface Progress { report(message: string, percentage?: number): void; done(): void }
export type StartProgress = (title: string, message: string) => Promise<Progress | undefined>;

export interface ProjectLoaderHooks {
  progress: StartProgress;
  log(msg: string): void;
  error(msg: string): void;
  guard: Guard;
  /** Files were read: every open document may read differently now. */
  loaded(): void;
  /** Nothing is being read any more (documents held back can be published complete). */
  settled(): void;
}

export class ProjectLoader {
  /** Workspace folder scans under way (counted from `initialized` on, before settings are pulled). */
  private foldersScanning = 0;
  private scanning: Promise<void> = Promise.resolve();
  /** Included / external files found on disk and not loaded yet. */
  private readonly includesToLoad = new Set<string>();
  /** .bib files of some project found on disk and not read yet. */
  private readonly bibsToLoad = new Set<string>();
  /** The loading of included files, chained. */
  private includeLoading: Promise<void> = Promise.resolve();

  constructor(private readonly ws: Workspace, private readonly hooks: ProjectLoaderHooks) {}

  /**
   * Whether some document's project may not be fully read: a folder scan is under way (a
   * chapter's parent or the chapters it references may not be read yet), or included files
   * found on disk are still being read.
   */
  incomplete(): boolean {
    return this.foldersScanning > 0 || this.includesToLoad.size > 0 || this.bibsToLoad.size > 0;
  }

  /** Resolves once the scans and the include loading under way have finished. */
  async idle(): Promise<void> {
    await this.scanning;
    await this.includeLoading;
  }

  /**
   * Scans folders after `before` (pulling settings first at startup). The scan counts from this
   * call, so a document opened meanwhile never shows references into unread files as undefined.
   */
  scan(folders: readonly string[], before: () => Promise<void> = async () => {}): void {
    if (folders.length) this.foldersScanning++;
    this.scanning = this.scanning.then(async () => {
      try {
        await before();
        await this.scanFolders(folders);
      } finally {
        if (folders.length) this.scanEnded();
      }
    });
  }

  /** Takes the included files the include graph found on disk but not loaded. */
  collectPending(): void {
    this.hooks.guard('includes', undefined, () => this.ws.refreshGraph());
    for (const f of this.ws.takePendingIncludes()) this.includesToLoad.add(f);
    for (const f of this.ws.takePendingBibliographies()) this.bibsToLoad.add(f);
  }

  /** Reads included / xr-external / .bib files not loaded yet, with progress; then the project is re-read. */
  loadPending(): Promise<void> {
    this.includeLoading = this.includeLoading.then(() => this.readPending()).catch((e) => {
      this.includesToLoad.clear();
      this.bibsToLoad.clear();
      this.hooks.error(`loading includes failed: ${(e as Error).stack ?? e}`);
      this.hooks.settled();
    });
    return this.includeLoading;
  }

  private async readPending(): Promise<void> {
    const { ws, hooks } = this;
    let progress: Progress | undefined;
    let started = false;
    let loaded = 0;
    for (;;) {
      this.collectPending();
      // the folder scan may have read some of them meanwhile
      for (const file of this.includesToLoad) if (ws.get(pathToUri(file))) this.includesToLoad.delete(file);
      for (const file of this.bibsToLoad) if (ws.bibs.has(file)) this.bibsToLoad.delete(file);
      const pending = [...this.includesToLoad];
      const bibs = [...this.bibsToLoad];
      if (pending.length === 0 && bibs.length === 0) break;
      if (!started) {
        started = true;
        progress = await hooks.progress('MathSense: loading included files', `${pending.length + bibs.length} files`);
      }
      for (const file of pending) {
        if (!ws.get(pathToUri(file)) && ws.mayRead(file)) {
          const r = await readTextFileAsync(file, ws.fs);
          if ('error' in r) ws.markUnreadable(file, r.error);
          else hooks.guard('includes', undefined, () => ws.addLoaded(file, r.text));
          loaded++;
          progress?.report(`${loaded} files: ${path.basename(file)}`);
        }
        this.includesToLoad.delete(file);
      }
      // bibliographies (.bib): parsed into the store, never opened as documents
      for (const file of bibs) {
        if (!ws.bibs.has(file) && ws.mayRead(file)) {
          const r = await readTextFileAsync(file, ws.fs);
          if ('error' in r) { ws.bibs.setError(file, r.error); hooks.log(`cannot read ${file}: ${r.error}`); }
          else hooks.guard('bibliography', undefined, () => ws.bibs.setText(file, r.text));
          if (!ws.bibs.has(file)) ws.bibs.setError(file, 'could not be parsed');
          loaded++;
          progress?.report(`${loaded} files: ${path.basename(file)}`);
        }
        this.bibsToLoad.delete(file);
      }
    }
    if (started) {
      progress?.done();
      hooks.log(`loaded ${loaded} included files`);
      hooks.loaded();
    }
    hooks.settled();
  }

  /** A folder scan has ended: once none is left, every open document is read again and what is included is loaded. */
  private scanEnded(): void {
    this.foldersScanning = Math.max(0, this.foldersScanning - 1);
    if (this.foldersScanning > 0) return;
    this.collectPending();
    this.hooks.loaded();
    void this.loadPending();
  }

  /** A LaTeX file large enough to be built in slices (session/slicedOpens.ts). */
  private isLarge(p: string): boolean {
    if (isMarkdownPath(p) || !this.ws.mayRead(p)) return false;
    try { return this.ws.fs.stat(p).size >= SLICED_OPEN_CHARS; } catch { return false; }
  }

  /**
   * Reads a large file and builds its blocks, then the views its registration reads
   * (model/documentView.ts#warm), a slice at a time between requests, as for one the editor opens.
   */
  private async loadInSlices(p: string): Promise<void> {
    const r = readTextFile(p, this.ws.fs);
    // what cannot be read is recorded as loadFile records it
    if ('error' in r) { this.hooks.guard('scan', undefined, () => this.ws.loadFile(p)); return; }
    const build = new SlicedBuild(r.text);
    while (!build.step(performance.now() + SLICE_MS)) await turn();
    const prepared = new LatexDocument(pathToUri(p), r.text, 0, 'latex', undefined, build.blocks());
    while (!prepared.warm(performance.now() + SLICE_MS)) await turn();
    this.hooks.guard('scan', undefined, () => this.ws.loadFile(p, true, { text: r.text, prepared }));
  }

  /** Reads every document under the folders, yielding to requests as it goes (a large file in slices). */
  private async scanFolders(folders: readonly string[]): Promise<void> {
    if (folders.length === 0) return;
    const files = folders.flatMap((f) => findDocumentFiles(f, undefined, this.ws.fs));
    const progress = await this.hooks.progress('MathSense: indexing', `${files.length} files`);
    const started = Date.now();
    let lastReport = 0;
    let slice = performance.now();
    for (let i = 0; i < files.length; i++) {
      if (this.isLarge(files[i])) await this.loadInSlices(files[i]);
      else this.hooks.guard('scan', undefined, () => this.ws.loadFile(files[i]));
      if (Date.now() - lastReport > 100 || i === files.length - 1) {
        lastReport = Date.now();
        progress?.report(`${i + 1}/${files.length} ${path.basename(files[i])}`, Math.round(((i + 1) / files.length) * 100));
      }
      // requests go first between files, once a slice's time is spent
      if (performance.now() - slice > SLICE_MS) { await turn(); slice = performance.now(); }
    }
    progress?.done();
    this.hooks.log(`indexed ${files.length} files in ${Date.now() - started} ms`);
  }
}
