// One running server: its services, settings, diagnostics and the background work around them
// (reading the project, prefetching statements, analysing equations, refreshing lenses). The
// protocol layer turns LSP messages into calls here and into feature entry points, which read
// this session as their FeatureContext. Nothing here knows the LSP connection: what goes to the
// client goes through SessionClient.
import * as path from 'node:path';
import type { Diagnostic, WorkspaceEdit } from 'vscode-languageserver-types';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { isMarkdownLanguage, type Doc, type Workspace } from '../project/workspace.js';
import { within } from '../util/paths.js';
import { isBibFile, isDocumentPath, pathToUri, uriToPath } from '../project/files.js';
import { writtenByLatex } from '../project/buildOutputs.js';
import { sharedBlockCache } from '../syntax/blockCache.js';
import type { DocStep } from '../math/service.js';
import type { FeatureContext } from '../features/context.js';
import { DiagnosticsManager } from './diagnosticsManager.js';
import { BackgroundDerivations } from './derivationSources.js';
import { SOURCE_MATH, type HoverMath } from '../features/presentation/hoverMath.js';
import { SvgMath } from '../analysis/mathSvg.js';
import type { RelatedContext } from '../features/equations/relatedEquations.js';
import { copyGroupSteps } from '../features/equations/equationClaims.js';
import type { LensRefresh } from '../features/codeLenses.js';
import { fillLensMatches } from '../features/equations/equationLenses.js';
import type { EquationsStatus, InitializationOptions, ServerStatus } from '../ext/protocol.js';
import { guards, type Guard, type GuardAsync } from '../util/guard.js';
import { Services } from './services.js';
import { SettingsStore, type ServerSettings } from './settings.js';
import { ProjectLoader, type StartProgress } from './projectLoader.js';
import { StatementPrefetch } from './statementPrefetch.js';
import { SlicedOpens } from './slicedOpens.js';
import { statementSteps } from '../analysis/structure.js';
import type { LatexDocument } from '../model/latexDocument.js';
import { dependencyGraphBuilt, dependencyGraphMeaning, dependencyGraphVersion, dependencySteps } from '../analysis/dependencies/dependencyGraph.js';

/** Typing pause after which the dependency graph is brought up to date. */
const DEPENDENCY_DELAY_MS = 250;
import { runInTurns, turn } from '../util/turns.js';

export const VERSION = '0.1.0';

/** What the session sends to the client (the protocol layer implements it over the connection). */
export interface SessionClient {
  log(msg: string): void;
  error(msg: string): void;
  publishDiagnostics(uri: string, version: number | undefined, diagnostics: Diagnostic[]): void;
  progress: StartProgress;
  /** Asks the client to request code lenses again (only called when it said it can). */
  refreshLenses(): Promise<void>;
  /** Asks the client to request inlay hints again; absent when it cannot. */
  refreshInlayHints?: () => Promise<void>;
  statusChanged(): void;
  /** The `mathsense` section for each scope (undefined: the workspace); absent when the client cannot answer. */
  configuration?: (scopes: Array<string | undefined>) => Promise<unknown[]>;
  /** Errors a guard must not swallow (they are answers for the client). */
  passThrough?: (e: unknown) => boolean;
  /** `workspace/applyEdit`: whether the client applied it; absent when it cannot. */
  applyEdit?: (edit: WorkspaceEdit, label: string) => Promise<boolean>;
}

export interface SessionStart {
  folders: string[];
  init?: InitializationOptions;
  /** The client re-requests lenses on `workspace/codeLens/refresh`. */
  lensRefresh: boolean;
  /** The client takes versioned `documentChanges` in workspace edits. */
  versionedEdits?: boolean;
  /** The most folding ranges the client keeps per document (`foldingRange.rangeLimit`). */
  foldingRangeLimit?: number;
  /** The client takes a completion list's `itemDefaults.editRange`. */
  completionEditRange?: boolean;
}

/** A search waits this long for the query's formula-encoder vector, then ranks without it. */
const QUERY_VECTOR_WAIT_MS = 300;
/** How long a search waits for the index's equations on first use. */
const EQUATIONS_WAIT_MS = 1500;
/** While lenses are searched in the background, the client draws them again this often. */
const LENS_FILL_REFRESH_MS = 2000;
/** How long shutdown waits for an embedding worker's batch (VS Code gives a server 2 s to answer `shutdown`). */
const SHUTDOWN_WAIT_MS = 1500;
/** Label and reference names counted between pauses of a large document's warm-up. */
const NAMES_PER_PAUSE = 256;
/** When a client that asks for SVG hovers gets MathJax loaded, after start. */
const MATHJAX_WARM_MS = 1500;
/** A client that advertises workspace/configuration but never answers gets defaults after this long. */
const CONFIGURATION_WAIT_MS = 10_000;

export class Session implements FeatureContext {
  readonly services: Services;
  readonly ws;
  readonly index;
  readonly lensMatches;
  readonly guard: Guard;
  readonly guardAsync: GuardAsync;
  readonly diagnostics: DiagnosticsManager;
  resultsPanel = false;
  private readonly settings = new SettingsStore();
  private readonly loader: ProjectLoader;
  private readonly prefetch: StatementPrefetch;
  private readonly slicedOpens: SlicedOpens;
  private hoverMathMode: HoverMath = SOURCE_MATH;
  private folders: string[] = [];
  lensRefresh = false;
  versionedEdits = false;
  /** The most folding ranges the client keeps (none said: all). */
  foldingRangeLimit: number | undefined;
  /** The client takes a completion list's `itemDefaults.editRange`. */
  completionEditRange = false;
  private shuttingDown = false;
  private mathJaxTimer: NodeJS.Timeout | undefined;

  constructor(private readonly client: SessionClient) {
    ({ guard: this.guard, guardAsync: this.guardAsync } = guards((m) => client.error(m), client.passThrough));
    this.services = new Services({ log: (m) => client.log(m), settings: () => this.settings.current, statusChanged: () => { if (!this.shuttingDown) client.statusChanged(); }, progress: client.progress });
    this.ws = this.services.ws;
    this.index = this.services.index;
    this.lensMatches = this.services.lensMatches;
    this.ws.onReadError = (uri, reason) => client.log(`cannot read ${uri}: ${reason}`);
    // included files are read off the request path (ProjectLoader)
    this.ws.loadIncludesSynchronously = false;
    const derivations = new BackgroundDerivations(this.services.derivations, (m) => client.error(m));
    this.diagnostics = new DiagnosticsManager(this.ws, {
      settingsFor: (doc) => this.settings.for(doc),
      derivations,
      projectLoading: () => this.loader.incomplete(),
      guard: this.guard,
      publish: (doc, diagnostics) => client.publishDiagnostics(doc.uri, doc.version, diagnostics),
    });
    this.loader = new ProjectLoader(this.ws, {
      progress: client.progress,
      log: (m) => client.log(m),
      error: (m) => client.error(m),
      guard: this.guard,
      loaded: () => { this.diagnostics.revalidateAll(); this.numbersChanged(); },
      settled: () => { this.diagnostics.projectLoaded(); this.dependenciesSoon(); },
    });
    // the index's preparation runs after the project is read, not interleaved with it
    this.index.waitFor(() => this.loader.idle());
    this.prefetch = new StatementPrefetch(this.ws, this.index, this.guard, (m) => client.log(m));
    this.slicedOpens = new SlicedOpens({
      open: (uri, languageId, version, text, prepared) => this.guard('open', undefined, () => this.openNow(uri, languageId, version, text, prepared)),
      change: (uri, changes, version) => this.guard('change', undefined, () => this.changed(uri, changes, version)),
      progress: client.progress,
    });
  }

  // ── Lifetime ────────────────────────────────────────────────────────────────────────────

  initialize(start: SessionStart): void {
    this.folders = [...start.folders];
    this.lensRefresh = start.lensRefresh;
    this.versionedEdits = !!start.versionedEdits;
    this.foldingRangeLimit = start.foldingRangeLimit;
    this.completionEditRange = !!start.completionEditRange;
    // a workspace the user has not trusted reads no file outside its folders (no folders: none at all beyond what is opened)
    if (start.init?.trusted === false) this.ws.readableRoots = [...start.folders];
    if (start.init?.settings) this.settings.set(start.init.settings);
    this.resultsPanel = start.init?.resultsPanel === true;
    const hm = start.init?.mathsense;
    // svg: typeset by MathJax in the client's text colour; else TeX as written
    this.hoverMathMode = hm?.hoverMath === 'svg' ? { mode: 'svg', svg: new SvgMath(), ...(typeof hm.hoverMathColor === 'string' ? { color: hm.hoverMathColor } : {}) } : SOURCE_MATH;
    // MathJax loads a little after start: neither on the start-up path nor inside the first hover
    const svg = this.hoverMathMode.svg;
    if (svg) this.mathJaxTimer = setTimeout(() => this.guard('mathjax', undefined, () => svg.warm()), MATHJAX_WARM_MS);
  }

  /** After `initialized`: settings are pulled, the index starts loading, the folders are scanned. */
  initialized(): void {
    this.loader.scan(this.folders, async () => {
      await this.pullSettings();
      void this.index.load();
    });
  }

  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    if (this.dependencyTimer) clearTimeout(this.dependencyTimer);
    this.slicedOpens.stop();
    this.diagnostics.stop();
    this.prefetch.stop();
    for (const t of [this.warmTimer, this.refreshTimer, this.inlayTimer, this.mathJaxTimer]) if (t) clearTimeout(t);
    const t0 = performance.now();
    for (const failure of await this.services.dispose(SHUTDOWN_WAIT_MS)) this.client.log(`shutdown: ${failure}`);
    this.client.log(`shutdown: encoder sessions released and workers stopped in ${Math.round(performance.now() - t0)} ms`);
  }

  // ── Documents and files ─────────────────────────────────────────────────────────────────

  opened(uri: string, languageId: string, version: number, text: string): void {
    // a file the LaTeX run wrote (`main.out` opened as LaTeX) is no source of equations or labels
    const file = uriToPath(uri);
    if (file && writtenByLatex(file)) return;
    if (isBibFile(uri, languageId)) {
      if (file) this.ws.bibs.openDocument(file, uri, version, text);
      this.diagnostics.revalidateSoon();
      return;
    }
    // a large LaTeX text is built between requests, then opened
    if (!isMarkdownLanguage(uri, languageId) && this.slicedOpens.open(uri, languageId, version, text)) return;
    this.openNow(uri, languageId, version, text);
  }

  private openNow(uri: string, languageId: string, version: number, text: string, prepared?: LatexDocument): void {
    const doc = this.ws.open(uri, languageId, version, text, prepared);
    this.loader.collectPending();
    const current = () => !this.shuttingDown && this.ws.get(uri) === doc && doc.version === version;
    if (prepared) {
      // a document built in slices is large: its statements and how often each of its label and
      // reference names is defined (what its first diagnostics read) are found a turn at a time
      // then the first diagnostics, found a slice at a time too (a failed warm-up leaves them to find it all)
      const first = () => this.diagnostics.changedInTurns(doc);
      runInTurns(this.warmLarge(doc), { guard: (slice) => this.guard('warm', undefined, slice), stop: () => !current(), done: first, failed: first });
    } else this.diagnostics.changed(doc);
    void this.loader.loadPending();
    this.prefetch.schedule(doc);
    this.dependenciesSoon();
  }

  private graphWarming = false;

  /**
   * The dependency graph is built, or brought up to date, a document at a time between
   * requests; its first build brings the checks, lenses and hover lines that wait for it.
   */
  private warmDependencies(): void {
    // while the project is being read, a graph of part of it would be read again whole once the
    // rest arrives (what its documents rest on changes): the read's end asks again
    if (this.graphWarming || this.shuttingDown || this.loader.incomplete()) return;
    this.graphWarming = true;
    const first = !dependencyGraphBuilt(this.ws);
    const before = dependencyGraphVersion(this.ws);
    const meant = dependencyGraphMeaning(this.ws);
    const end = (ok: boolean) => {
      this.graphWarming = false;
      if (!ok || this.shuttingDown) return;
      // lenses move with the statements; the checks change only with what the graph says (their
      // findings were carried to where the text put them), and re-checking every open document
      // after each pause in typing made the next keystroke's diagnostics wait
      if (!first && dependencyGraphVersion(this.ws) === before) return;
      if (first || dependencyGraphMeaning(this.ws) !== meant) this.diagnostics.revalidateAll();
      this.refreshLenses('soon');
    };
    runInTurns(dependencySteps(this.ws, (d) => this.numbers(d)), {
      guard: (slice) => this.guard('dependency graph', undefined, slice),
      stop: () => this.shuttingDown,
      done: () => end(true),
      failed: () => end(false),
    });
  }

  /** What a large document's first diagnostics read, pausing (`yield`) now and then: run in turns. */
  private *warmLarge(doc: Doc): Generator<void, void> {
    yield* statementSteps(this.ws, doc);
    let n = 0;
    for (const names of [doc.refs(), doc.labels()]) {
      for (const r of names) {
        this.ws.countLabel(doc, r.name);
        if (++n % NAMES_PER_PAUSE === 0) yield;
      }
    }
  }

  changed(uri: string, changes: TextDocumentContentChangeEvent[], version: number): void {
    if (this.slicedOpens.change(uri, changes, version)) return;
    const bib = this.ws.bibs.openPath(uri);
    if (bib) {
      this.ws.bibs.changeDocument(bib, changes, version);
      this.diagnostics.revalidateSoon();
      return;
    }
    const edited = this.ws.edit(uri, changes, version);
    if (!edited) {
      // LSP sends changes only for open documents; one for another would replace what the disk holds
      this.client.log(`ignored a change to ${uri}: the editor has not opened it`);
      return;
    }
    this.index.noteEdit();
    const { doc, touchedProject } = edited;
    if (touchedProject) this.loader.collectPending();
    this.diagnostics.changed(doc);
    if (touchedProject) void this.loader.loadPending();
    this.prefetch.schedule(doc);
    this.dependenciesSoon();
  }

  private dependencyTimer: NodeJS.Timeout | undefined;

  /** After a pause in typing or opening, the dependency graph is built or catches up (its checks meanwhile keep their last findings): never in the middle of a burst of edits and requests. */
  private dependenciesSoon(): void {
    if (this.dependencyTimer) clearTimeout(this.dependencyTimer);
    this.dependencyTimer = setTimeout(() => { this.dependencyTimer = undefined; this.warmDependencies(); }, DEPENDENCY_DELAY_MS);
  }

  closed(uri: string): void {
    if (this.slicedOpens.close(uri)) return;
    const bib = this.ws.bibs.openPath(uri);
    if (bib) {
      // the disk version is read again (off the request path)
      this.ws.bibs.closeDocument(bib);
      this.loader.collectPending();
      void this.loader.loadPending();
      this.diagnostics.revalidateSoon();
      return;
    }
    this.ws.close(uri);
    this.diagnostics.closed(uri);
    this.client.publishDiagnostics(uri, undefined, []);
    this.diagnostics.revalidateSoon();
  }

  /** Files changed on disk (watched): documents re-read, bibliographies re-read when a project needs them. */
  filesChanged(changes: ReadonlyArray<{ uri: string; deleted: boolean }>): void {
    this.ws.filesChanged();
    let bibs = false;
    for (const ch of changes) {
      const file = uriToPath(ch.uri);
      // a LaTeX run wrote new numbers: the store re-reads them by their stamps when asked
      if (file && /\.aux$/i.test(file)) { this.numbersChanged(); continue; }
      if (file && isBibFile(file)) {
        this.ws.bibliographyChanged(file);
        bibs = true;
        continue;
      }
      if (!file || !isDocumentPath(file)) continue;
      if (ch.deleted) this.ws.deletedOnDisk(ch.uri);
      else this.ws.loadFile(file, true);
    }
    if (bibs) {
      this.loader.collectPending();
      void this.loader.loadPending();
    }
    this.diagnostics.revalidateSoon();
  }

  foldersChanged(added: readonly string[], removed: readonly string[]): void {
    for (const p of removed) {
      this.folders = this.folders.filter((x) => x !== p);
      for (const d of this.ws.all()) {
        const dp = uriToPath(d.uri);
        if (dp && dp.startsWith(p + path.sep) && !this.ws.isOpen(d)) this.ws.remove(d.uri);
      }
    }
    for (const p of added) {
      this.folders.push(p);
      // the new folder's own settings are read before its documents are
      this.loader.scan([p], () => this.pullSettings());
    }
    this.diagnostics.revalidateSoon();
  }

  /** Settings changed: pulled again (or taken from the notification when the client cannot answer), then every open document is published. */
  async configurationChanged(pushed: unknown): Promise<void> {
    if (this.client.configuration) await this.pullSettings();
    else { this.settings.set(pushed); this.syncLibrary(); }
    this.diagnostics.revalidateAll();
  }

  /** The library serves the folders the settings name now (and the user's recorded list). */
  private syncLibrary(): void {
    if (!this.shuttingDown) this.guard('library', undefined, () => this.services.library.sync(this.settings.libraryFolders()));
  }

  hoverMathColor(color: string): void {
    if (this.hoverMathMode.mode === 'svg') this.hoverMathMode = { ...this.hoverMathMode, color };
  }

  // ── FeatureContext ──────────────────────────────────────────────────────────────────────

  get library() {
    return this.services.library;
  }

  async applyEdit(edit: WorkspaceEdit, label: string): Promise<boolean> {
    return this.client.applyEdit ? this.client.applyEdit(edit, label) : false;
  }

  settingsFor(doc: Doc): ServerSettings {
    return this.settings.for(doc);
  }

  numbers(doc: Doc) {
    return this.services.aux.numbers(this.ws, doc);
  }

  steps(doc: Doc): readonly DocStep[] {
    return this.diagnostics.steps(doc);
  }

  hoverMath(): HoverMath {
    return this.hoverMathMode;
  }

  async related(equationsWaitMs = EQUATIONS_WAIT_MS): Promise<RelatedContext> {
    const { index, formulaVectors, equations } = this.services;
    // the index's equations load on first use; a search waits for them a little, like for analyses
    let timer: NodeJS.Timeout | undefined;
    const loading = index.loadEquations();
    await Promise.race([loading, new Promise((r) => { timer = setTimeout(r, equationsWaitMs); })]);
    clearTimeout(timer);
    const got = index.get();
    const eqs = index.equations();
    // a lens list that did not wait for them is drawn again once they are there
    if (got && !eqs && !this.lensesAfterEquations) {
      this.lensesAfterEquations = true;
      void loading.then((e) => { if (e) this.refreshLenses('soon'); });
    }
    return {
      ws: this.ws,
      equations,
      index: got && eqs ? { index: got.index, equations: eqs } : undefined,
      queryVector: (t) => formulaVectors.query(t, QUERY_VECTOR_WAIT_MS),
      indexVectorsMatch: () => !!eqs && eqs.header.dim > 0 && eqs.header.modelVersion === formulaVectors.modelVersion,
      encoderMessage: () => formulaVectors.unavailable ?? (formulaVectors.modelVersion ? undefined : 'formula encoder still loading: ranked by fingerprints and structure'),
      library: (doc) => this.services.library.equations(doc ? this.settingsFor(doc).library.folders : undefined),
      inProject: (uri) => { const p = uriToPath(uri); return !!p && this.folders.some((f) => within(f, p)); },
    };
  }

  private warmTimer: NodeJS.Timeout | undefined;
  private lensesAfterEquations = false;

  /**
   * The workspace's equations are analysed (in the equation worker) once lenses are first asked
   * for, and again after edits: queued shortly after the request, never inside it.
   */
  warmEquations(): void {
    if (this.warmTimer || this.shuttingDown) return;
    this.warmTimer = setTimeout(() => {
      this.warmTimer = undefined;
      const { equations, equationAnalyses, index } = this.services;
      // the snapshot and which files copy which (a lens list reads both) are made here, off any
      // request, a slice at a time: a workspace file of megabytes has tens of thousands of displays
      const steps = (function* (ws: Workspace) { yield* copyGroupSteps(yield* equations.snapshotSteps(ws)); })(this.ws);
      runInTurns(steps, {
        guard: (slice) => this.guard('equations', undefined, slice),
        stop: () => this.shuttingDown,
        done: () => {
          void index.loadEquations();
          // once analysed, their formula-encoder vectors are asked for (a snapshot does that)
          void equationAnalyses.whenIdle().then(() => runInTurns(equations.snapshotSteps(this.ws), {
            guard: (slice) => this.guard('equations', undefined, slice), stop: () => this.shuttingDown, done: () => undefined,
          }));
        },
      });
    }, 200);
  }

  private inlayTimer: NodeJS.Timeout | undefined;

  /**
   * What the numbers after references read may have changed (the project is read, a LaTeX run
   * wrote its .aux): the client asks for inlay hints again, which an editor does not do by itself
   * for a file that did not change.
   */
  private numbersChanged(): void {
    const refresh = this.client.refreshInlayHints;
    if (!refresh || this.inlayTimer || this.shuttingDown) return;
    this.inlayTimer = setTimeout(() => {
      this.inlayTimer = undefined;
      if (this.shuttingDown) return;
      refresh().catch((e) => this.client.log(`inlay hint refresh failed: ${(e as Error).message}`));
    }, 200);
  }

  // ── Lens refresh ────────────────────────────────────────────────────────────────────────

  private refreshing = false;
  private refreshTimer: NodeJS.Timeout | undefined;

  /** Lenses answered incomplete are asked for again: shortly, or once the equations are analysed. */
  refreshLenses(when: LensRefresh | undefined, doc?: Doc): void {
    if (!when || !this.lensRefresh || this.shuttingDown) return;
    if (when === 'filled') {
      if (doc) this.fillLenses(doc);
      return;
    }
    if (when === 'soon') {
      if (this.refreshTimer) return;
      this.refreshTimer = setTimeout(() => {
        this.refreshTimer = undefined;
        if (this.shuttingDown) return;
        this.client.refreshLenses().catch((e) => this.client.log(`code lens refresh failed: ${(e as Error).message}`));
      }, 100);
      return;
    }
    if (this.refreshing) return;
    this.refreshing = true;
    void this.services.equationAnalyses.whenIdle().then(() => {
      this.refreshing = false;
      return this.client.refreshLenses();
    }).catch((e) => { this.refreshing = false; this.client.log(`code lens refresh failed: ${(e as Error).message}`); });
  }

  /** Documents whose lens titles are being searched in the background. */
  private readonly filling = new Set<string>();

  /** Searches the lenses `doc` lacks a display at a time in the background, and has the client draw them again as they come (fillLensMatches). */
  private fillLenses(doc: Doc): void {
    if (this.filling.has(doc.uri)) return;
    this.filling.add(doc.uri);
    const refresh = () => this.client.refreshLenses().catch((e) => this.client.log(`code lens refresh failed: ${(e as Error).message}`));
    void (async () => {
      try {
        const ctx = await this.related(0);
        await fillLensMatches(ctx, doc, this.lensMatches, { turn, stop: () => this.shuttingDown, progress: refresh, progressMs: LENS_FILL_REFRESH_MS });
      } catch (e) {
        this.client.log(`code lenses: ${(e as Error).message}`);
      } finally {
        this.filling.delete(doc.uri);
      }
    })();
  }

  // ── Status ──────────────────────────────────────────────────────────────────────────────

  /** Answered once the workspace scan and the include loading have finished. */
  async status(): Promise<ServerStatus> {
    await this.loader.idle();
    const docs = this.ws.all();
    const mem = process.memoryUsage();
    return {
      version: VERSION,
      documents: docs.length,
      blocks: docs.reduce((n, d) => n + d.blocks().length, 0),
      cache: { hits: sharedBlockCache.hits, misses: sharedBlockCache.misses },
      rssBytes: mem.rss,
      // the main thread's share (the workers' isolates and onnxruntime's sessions are the rest)
      memory: { heapUsedBytes: mem.heapUsed, externalBytes: mem.external, arrayBuffersBytes: mem.arrayBuffers },
      embeddings: await this.services.embeddings.status(),
      index: this.index.status(),
      equations: await this.equationStatus(),
      library: this.services.library.status(),
      ...(this.ws.skippedOutside.size ? { skippedOutside: [...this.ws.skippedOutside].sort() } : {}),
    };
  }

  private async equationStatus(): Promise<EquationsStatus> {
    const { equations, formulaVectors } = this.services;
    const snap = this.guard('equations status', undefined, () => equations.snapshot(this.ws, { queue: false }));
    return {
      sites: snap?.sites.length ?? 0,
      pending: snap?.pending ?? 0,
      vectorsPending: formulaVectors.pending,
      index: this.index.equations()?.size ?? 0,
      encoder: await formulaVectors.status(),
    };
  }

  // ── Settings ────────────────────────────────────────────────────────────────────────────

  /** The workspace's settings, then each folder's; defaults when the client does not answer in time. */
  private async pullSettings(): Promise<void> {
    const ask = this.client.configuration;
    if (!ask) { this.syncLibrary(); return; }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer to workspace/configuration in ${CONFIGURATION_WAIT_MS / 1000} s: using defaults`)), CONFIGURATION_WAIT_MS); });
    try {
      const folders = [...this.folders];
      const all = await Promise.race([ask([undefined, ...folders.map((f) => pathToUri(f))]), late]);
      this.settings.setAll(all[0], folders.map((folder, i) => ({ folder, raw: all[i + 1] })));
    } catch (e) {
      this.client.log(`could not read settings: ${(e as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    this.syncLibrary();
  }
}
