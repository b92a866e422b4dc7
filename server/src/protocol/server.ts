// LSP wiring: document sync, requests mapped onto features, workspace scan with
// `$/progress`, settings, and diagnostics published for every document version. Every
// handler is guarded: a failure in one feature is logged and answered with an empty result,
// never allowed to take the server down.
import {
  createConnection, ProposedFeatures, TextDocumentSyncKind, CodeActionKind, FileChangeType, ResponseError, ErrorCodes,
  type Connection, type InitializeParams, type InitializeResult,
} from 'vscode-languageserver/node';
import * as path from 'node:path';
import { Workspace, type Doc } from '../project/workspace.js';
import { findDocumentFiles, isDocumentPath, pathToUri, readTextFileAsync, uriToPath } from '../project/files.js';
import { defaultDiagnosticSettings, documentDiagnostics, type DiagnosticSettings } from '../features/diagnostics.js';
import { documentHover } from '../features/hover.js';
import { SOURCE_MATH, type HoverMath } from '../features/hoverMath.js';
import { SvgMath } from '../analysis/mathSvg.js';
import { AuxStore } from '../project/auxNumbers.js';
import { referenceInlayHints } from '../features/inlayHints.js';
import { parseSearchArgs, SEARCH_COMMAND, searchEquations, searchStatements, type SearchResponse } from '../features/search.js';
import { definition, findReferences, labelHighlights, prepareRename, rename, RenameError } from '../features/navigation.js';
import { bibRename, citeRename, prepareBibRename, prepareCiteRename } from '../features/citationRename.js';
import { documentSymbols, workspaceSymbols } from '../features/symbols.js';
import { completion, refContextAt, resolveCompletion } from '../features/completion.js';
import { bibReferences, citeCompletion, citeContextAt, citeDefinition, citeHighlights, citeHover, citeReferences } from '../features/citations.js';
import { foldingRanges } from '../features/folding.js';
import { typoFixes } from '../features/typoFixes.js';
import { environmentCompletion, macroCompletion } from '../features/environmentCompletion.js';
import { documentLinks } from '../features/documentLinks.js';
import { sharedBlockCache } from '../syntax/blockCache.js';
import { defaultDerivationSettings, derivationCodeActions, derivationDiagnostics, type DerivationSettings } from '../features/derivation.js';
import { macroSignature, mathBlocks, scopeMacros } from '../math/blocks.js';
import { DerivationService, type DocStep } from '../math/service.js';
import { workerRunner } from '../math/workerRunner.js';
import { embeddingSettings, ServerEmbeddings, type EmbeddingSettings } from '../embeddings/serverEmbeddings.js';
import { EmbeddingService } from '../embeddings/embeddingService.js';
import { indexSettings, ServerIndex, type IndexSettings } from '../index/serverIndex.js';
import { bodyText, CANDIDATE_PROOFS_COMMAND, candidateProofsMarkdown, citeCodeActions, citeResults, disambiguationMarkdown, proofCodeActions, proofResults, rankRefCompletions, SUGGEST_CITATIONS_COMMAND, warmRefRanking, type ShowResultsArgs } from '../features/indexFeatures.js';
import { EquationAnalyses } from '../features/equationAnalyses.js';
import { workerAnalysis } from '../index/equationAnalysis.js';
import { FormulaVectors } from '../features/formulaVectors.js';
import { WorkspaceEquations } from '../features/workspaceEquations.js';
import {
  emptyResponse, FIND_RELATED_COMMAND, findRelatedEquations, parseFindArgs, SHOW_RELATED_COMMAND,
  type RelatedContext, type RelatedResponse,
} from '../features/relatedEquations.js';
import { equationLenses, lensData, lensSite, lensTitle, LENS_MODES, matchLenses, MatchCache, type LensMode } from '../features/equationLenses.js';
import { equationAt } from '../features/equationSites.js';
import { statements } from '../analysis/structure.js';

export interface EquationSettings { lens: LensMode }
/**
 * Providers that overlap LaTeX Workshop's or texlab's, each of which can be switched off so two
 * extensions side by side do not answer twice.
 */
export interface ProviderSettings { referenceHover: boolean; citationHover: boolean; labelCompletion: boolean; citationCompletion: boolean; outline: boolean }
export interface ServerSettings { diagnostics: DiagnosticSettings; derivations: DerivationSettings; embeddings: EmbeddingSettings; index: IndexSettings; equations: EquationSettings; providers: ProviderSettings }

const VERSION = '0.1.0';
/** Notification (no params): what `mathsense/status` answers has changed. */
export const STATUS_CHANGED = 'mathsense/statusChanged';
/** Notification `{color}` from the client: the editor's text colour changed (svg hover math is drawn in it). */
export const HOVER_MATH_COLOR = 'mathsense/hoverMathColor';

/** `hoverMath` of the initialization options: "svg" (typeset by MathJax) or "source" (the default). */
function hoverMathOption(mode: unknown, color: unknown): HoverMath {
  if (mode !== 'svg') return SOURCE_MATH;
  return { mode: 'svg', svg: new SvgMath(), ...(typeof color === 'string' ? { color } : {}) };
}
/** A lens resolution waits this long for workspace equations still being analysed. */
const LENS_WAIT_MS = 1500;
/** A `matches` lens list searches this long, then answers with what it has (and asks for a refresh). */
const LENS_BUDGET_MS = 1000;
/** A search waits this long for the query's formula-encoder vector, then ranks without it. */
const QUERY_VECTOR_WAIT_MS = 300;
/**
 * How long `shutdown` waits for an embedding worker to finish its batch and release its session
 * before stopping it between native calls (VS Code gives a server 2 s to answer `shutdown`).
 */
const SHUTDOWN_WAIT_MS = 1500;

/** A BibTeX file: kept in the bibliography store, not as a document. */
function isBibFile(uri: string, languageId?: string): boolean {
  return languageId === 'bibtex' || languageId === 'biblatex' || /\.bib$/i.test(uri);
}

function mergeSettings(raw: unknown): ServerSettings {
  const r = (raw ?? {}) as {
    diagnostics?: Partial<DiagnosticSettings>; derivations?: Partial<DerivationSettings>; relatedEquations?: { codeLens?: unknown; lens?: unknown };
    hover?: { references?: unknown; citations?: unknown }; completion?: { labels?: unknown; citations?: unknown }; outline?: { enabled?: unknown };
  };
  const lens = r.relatedEquations?.lens;
  return {
    diagnostics: { ...defaultDiagnosticSettings, ...(r.diagnostics ?? {}) },
    derivations: { ...defaultDerivationSettings, ...(r.derivations ?? {}) },
    embeddings: embeddingSettings(raw),
    index: indexSettings(raw),
    // `codeLens: false` (the older switch) still turns lenses off
    equations: { lens: r.relatedEquations?.codeLens === false ? 'off' : LENS_MODES.includes(lens as LensMode) ? (lens as LensMode) : 'matches' },
    providers: {
      referenceHover: r.hover?.references !== false, citationHover: r.hover?.citations !== false,
      labelCompletion: r.completion?.labels !== false, citationCompletion: r.completion?.citations !== false, outline: r.outline?.enabled !== false,
    },
  };
}

export class MathSenseServer {
  readonly ws = new Workspace();
  private settings: ServerSettings = mergeSettings(undefined);
  private folders: string[] = [];
  private canPullConfig = false;
  private folderEvents = false;
  private lensRefresh = false;
  /** Searches behind the `matches` lenses, per display text. */
  private readonly lensMatches = new MatchCache();
  /** The client shows results in a panel (`mathsense.showResults`): the VS Code extension says so at initialize. */
  private resultsPanel = false;
  /** How hovers show math (`initializationOptions.mathsense.hoverMath`; the colour follows the client's theme). */
  private hoverMath: HoverMath = SOURCE_MATH;
  /** Numbers of the last LaTeX run, per root `.aux`. */
  private readonly aux = new AuxStore();
  private revalidateTimer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> = Promise.resolve();
  /** Workspace folder scans under way (set from `initialized` on, before settings are pulled). */
  private foldersScanning = 0;
  /** Included / external files found on disk and not loaded yet (read by loadPendingIncludes). */
  private readonly includesToLoad = new Set<string>();
  /** .bib files of some project found on disk and not read yet (read by loadPendingIncludes). */
  private readonly bibsToLoad = new Set<string>();
  /** Open documents published with label diagnostics held back (see NEEDS_WHOLE_PROJECT). */
  private readonly heldBack = new Set<string>();
  private shuttingDown = false;
  /** Derivation checks run in a worker; results are kept per block and per document version. */
  private derivations = new DerivationService(workerRunner((m) => this.log(m)));
  private derivationSteps = new Map<string, { version: number; steps: DocStep[] }>();
  private derivationRunning = new Set<string>();
  private derivationAgain = new Set<string>();
  /** The encoder runs in its own worker, started on first use; absent/corrupt models switch its features off. */
  private embeddings = new ServerEmbeddings((m) => this.log(m), () => this.settings.embeddings);
  /** The bundled index (build/index): loaded asynchronously after initialization; features wait for nothing. */
  private index = new ServerIndex((m) => this.log(m), () => ({ ...this.settings.index, modelsPath: this.settings.embeddings.modelsPath }), () => this.embeddings.get(), () => this.statusChanged());
  private prefetchTimer: NodeJS.Timeout | undefined;
  /** Documents whose statements are prefetched when the timer fires (every one opened or edited meanwhile). */
  private readonly prefetchDocs = new Set<string>();
  /** Documents whose prefetch waits for the index to finish loading. */
  private readonly prefetchAfterLoad = new Set<string>();
  private waitingForIndex = false;
  /** Related equations: analyses in a worker, formula-encoder vectors in their own embedding worker. */
  private equationRunner = workerAnalysis((m) => this.log(m));
  private equationAnalyses = new EquationAnalyses(this.equationRunner, (m) => this.log(m));
  private formulaVectors = new FormulaVectors((m) => this.log(m), () => this.settings.embeddings);
  private equations = new WorkspaceEquations(this.equationAnalyses, this.formulaVectors);

  constructor(private readonly conn: Connection) {
    this.ws.onReadError = (uri, reason) => this.log(`cannot read ${uri}: ${reason}`);
    // included files are read off the request path (loadPendingIncludes)
    this.ws.loadIncludesSynchronously = false;
    this.register();
  }

  private log(msg: string): void {
    this.conn.console.log(msg);
  }

  /** The asynchronous form of `guard`. */
  private async guardAsync<T>(what: string, fallback: T, f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      this.conn.console.error(`${what} failed: ${(e as Error).stack ?? e}`);
      return fallback;
    }
  }

  /** Runs a handler; on failure logs and returns `fallback`. */
  private guard<T>(what: string, fallback: T, f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      this.conn.console.error(`${what} failed: ${(e as Error).stack ?? e}`);
      return fallback;
    }
  }

  private docAt(uri: string): Doc | undefined {
    return this.ws.get(uri);
  }

  /** The path of a .bib file open in the editor (its entries are the store's, position for position). */
  private openBibPath(uri: string): string | undefined {
    const file = isBibFile(uri) ? uriToPath(uri) : undefined;
    return file && this.ws.bibs.isOpen(file) ? file : undefined;
  }

  private register(): void {
    const c = this.conn;
    c.onInitialize((params: InitializeParams): InitializeResult => {
      this.canPullConfig = !!params.capabilities.workspace?.configuration;
      this.folderEvents = !!params.capabilities.workspace?.workspaceFolders;
      this.lensRefresh = !!params.capabilities.workspace?.codeLens?.refreshSupport;
      const init = params.initializationOptions as { settings?: unknown; resultsPanel?: unknown; mathsense?: { hoverMath?: unknown; hoverMathColor?: unknown } } | undefined;
      if (init?.settings) this.settings = mergeSettings(init.settings);
      this.resultsPanel = init?.resultsPanel === true;
      this.hoverMath = hoverMathOption(init?.mathsense?.hoverMath, init?.mathsense?.hoverMathColor);
      const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
      this.folders = folders.map((u) => uriToPath(u)).filter((p): p is string => !!p);
      return {
        serverInfo: { name: 'mathsense', version: VERSION },
        capabilities: {
          textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
          hoverProvider: true,
          codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Refactor] },
          definitionProvider: true,
          referencesProvider: true,
          documentSymbolProvider: true,
          workspaceSymbolProvider: true,
          completionProvider: { triggerCharacters: ['{', ',', '[', '\\'], resolveProvider: true },
          renameProvider: { prepareProvider: true },
          documentHighlightProvider: true,
          foldingRangeProvider: true,
          documentLinkProvider: { resolveProvider: false },
          codeLensProvider: { resolveProvider: true },
          inlayHintProvider: true,
          executeCommandProvider: { commands: [FIND_RELATED_COMMAND, SUGGEST_CITATIONS_COMMAND, CANDIDATE_PROOFS_COMMAND, SEARCH_COMMAND] },
          workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
        },
      };
    });

    c.onInitialized(() => {
      // the scan promise exists from here on, so `mathsense/status` never answers before it
      // a document opened from here on, before the scan has read its project, must not show
      // references into files not read yet as undefined (the scan counts from now, not from
      // when the settings have been pulled)
      const folders = this.folders;
      if (folders.length) this.foldersScanning++;
      this.scanning = (async () => {
        try {
          if (this.canPullConfig) await this.pullSettings();
          void this.index.load();
          await this.scanFolders(folders);
        } finally {
          if (folders.length) this.scanEnded();
        }
      })();
      if (this.canPullConfig) {
        c.onDidChangeConfiguration(async () => { await this.pullSettings(); this.revalidateAll(); });
      } else {
        c.onDidChangeConfiguration((p) => { this.settings = mergeSettings((p.settings as { mathsense?: unknown })?.mathsense); this.revalidateAll(); });
      }
      if (this.folderEvents) {
        c.workspace.onDidChangeWorkspaceFolders((e) => this.guard('workspaceFolders', undefined, () => {
          for (const f of e.removed) {
            const p = uriToPath(f.uri);
            if (!p) continue;
            this.folders = this.folders.filter((x) => x !== p);
            for (const d of this.ws.all()) {
              const dp = uriToPath(d.uri);
              if (dp && dp.startsWith(p + path.sep) && !this.ws.isOpen(d)) this.ws.remove(d.uri);
            }
          }
          for (const f of e.added) {
            const p = uriToPath(f.uri);
            if (p) {
              this.folders.push(p);
              this.foldersScanning++;
              this.scanning = this.scanning.then(() => this.scanFolders([p])).finally(() => this.scanEnded());
            }
          }
          this.scheduleRevalidate();
        }));
      }
    });

    c.onDidOpenTextDocument((p) => this.guard('didOpen', undefined, () => {
      if (isBibFile(p.textDocument.uri, p.textDocument.languageId)) {
        const file = uriToPath(p.textDocument.uri);
        if (file) this.ws.bibs.openDocument(file, p.textDocument.uri, p.textDocument.version, p.textDocument.text);
        this.scheduleRevalidate();
        return;
      }
      const doc = this.ws.open(p.textDocument.uri, p.textDocument.languageId, p.textDocument.version, p.textDocument.text);
      this.collectPendingIncludes();
      this.publish(doc);
      this.scheduleRevalidate(doc);
      void this.loadPendingIncludes();
      this.prefetchStatements(doc);
    }));
    c.onDidChangeTextDocument((p) => this.guard('didChange', undefined, () => {
      const bib = isBibFile(p.textDocument.uri) ? uriToPath(p.textDocument.uri) : undefined;
      if (bib && this.ws.bibs.isOpen(bib)) {
        this.ws.bibs.changeDocument(bib, p.contentChanges, p.textDocument.version);
        this.scheduleRevalidate();
        return;
      }
      const doc = this.ws.change(p.textDocument.uri, p.contentChanges, p.textDocument.version);
      if (!doc) return;
      this.index.noteEdit();
      const touchedProject = doc.kind === 'latex' && doc.lastEdit.touchedProject;
      if (touchedProject) this.collectPendingIncludes();
      this.publish(doc);
      this.scheduleRevalidate(doc);
      if (touchedProject) void this.loadPendingIncludes();
      this.prefetchStatements(doc);
    }));
    c.onDidCloseTextDocument((p) => this.guard('didClose', undefined, () => {
      const bib = isBibFile(p.textDocument.uri) ? uriToPath(p.textDocument.uri) : undefined;
      if (bib && this.ws.bibs.isOpen(bib)) {
        // the disk version is read again (off the request path)
        this.ws.bibs.closeDocument(bib);
        this.collectPendingIncludes();
        void this.loadPendingIncludes();
        this.scheduleRevalidate();
        return;
      }
      this.ws.close(p.textDocument.uri);
      this.heldBack.delete(p.textDocument.uri);
      c.sendDiagnostics({ uri: p.textDocument.uri, diagnostics: [] });
      this.scheduleRevalidate();
    }));
    c.onDidChangeWatchedFiles((p) => this.guard('watchedFiles', undefined, () => {
      let bibs = false;
      for (const ch of p.changes) {
        const file = uriToPath(ch.uri);
        if (file && isBibFile(file)) {
          // read again when a project needs it (off the request path, loadPendingIncludes)
          this.ws.bibliographyChanged(file);
          bibs = true;
          continue;
        }
        if (!file || !isDocumentPath(file)) continue;
        if (ch.type === FileChangeType.Deleted) this.ws.deletedOnDisk(ch.uri);
        else this.ws.loadFile(file, true);
      }
      if (bibs) {
        this.collectPendingIncludes();
        void this.loadPendingIncludes();
      }
      this.scheduleRevalidate();
    }));

    c.onHover((p) => this.guard('hover', null, () => {
      const doc = this.docAt(p.textDocument.uri);
      if (!doc) return null;
      const offset = doc.offsetAt(p.position);
      const providers = this.settingsFor(doc).providers;
      return documentHover(this.ws, doc, offset, {
        steps: this.stepsOf(doc),
        citation: providers.citationHover ? () => this.guard('hover (citation)', null, () => citeHover(this.ws, doc, offset)) : undefined,
        references: providers.referenceHover,
        term: () => this.guard('hover (terms)', undefined, () => disambiguationMarkdown(this.ws, doc, offset, this.index)),
        proofs: () => this.guard('hover (proofs)', undefined, () => candidateProofsMarkdown(this.ws, doc, offset, this.index)),
        math: this.hoverMath,
        numbers: () => this.aux.numbers(this.ws, doc),
      });
    }));
    c.onCodeAction((p) => this.guard('codeAction', [], () => {
      const doc = this.docAt(p.textDocument.uri);
      if (!doc) return [];
      const actions = derivationCodeActions(doc, this.stepsOf(doc), p.range);
      // a typo in a \ref or \cite key: the nearest names first, before the index's suggestions
      actions.unshift(...this.guard('codeAction (typos)', [], () => typoFixes(this.ws, doc, p.range, p.context.diagnostics)));
      actions.push(...this.guard('codeAction (cite)', [], () => citeCodeActions(this.ws, doc, p.range, this.index, this.resultsPanel)));
      actions.push(...this.guard('codeAction (proofs)', [], () => proofCodeActions(this.ws, doc, p.range, this.index, this.resultsPanel)));
      return actions;
    }));
    c.onDefinition((p) => this.guard('definition', [], () => {
      const doc = this.docAt(p.textDocument.uri);
      if (!doc) return [];
      const offset = doc.offsetAt(p.position);
      return this.guard('definition (citation)', undefined, () => citeDefinition(this.ws, doc, offset)) ?? definition(this.ws, doc, offset);
    }));
    c.onReferences((p) => this.guard('references', [], () => {
      const bib = this.openBibPath(p.textDocument.uri);
      if (bib) return bibReferences(this.ws, bib, p.position, p.context.includeDeclaration);
      const doc = this.docAt(p.textDocument.uri);
      if (!doc) return [];
      const offset = doc.offsetAt(p.position);
      return this.guard('references (citation)', undefined, () => citeReferences(this.ws, doc, offset, p.context.includeDeclaration))
        ?? findReferences(this.ws, doc, offset, p.context.includeDeclaration);
    }));
    c.onDocumentHighlight((p) => this.guard('documentHighlight', [], () => {
      const doc = this.docAt(p.textDocument.uri);
      if (!doc) return [];
      const offset = doc.offsetAt(p.position);
      return citeHighlights(doc, offset) ?? labelHighlights(this.ws, doc, offset);
    }));
    c.onFoldingRanges((p) => this.guard('foldingRange', [], () => {
      const doc = this.docAt(p.textDocument.uri);
      return doc ? foldingRanges(doc) : [];
    }));
    c.onDocumentLinks((p) => this.guard('documentLink', [], () => {
      const doc = this.docAt(p.textDocument.uri);
      return doc ? documentLinks(this.ws, doc) : [];
    }));
    c.onDocumentSymbol((p) => this.guard('documentSymbol', [], () => {
      const doc = this.docAt(p.textDocument.uri);
      return doc && this.settingsFor(doc).providers.outline ? documentSymbols(this.ws, doc, this.aux.numbers(this.ws, doc)) : [];
    }));
    c.onWorkspaceSymbol((p) => this.guard('workspaceSymbol', [], () => workspaceSymbols(this.ws, p.query)));
    c.onCompletion((p) => this.guard('completion', null, () => {
      const doc = this.docAt(p.textDocument.uri);
      if (!doc) return null;
      // inside `\cite{`-like commands: bibliography keys; elsewhere labels (each can be left to a neighbour)
      const providers = this.settingsFor(doc).providers;
      const offset = doc.offsetAt(p.position);
      // each provider finds its own context; a switched-off one only needs to know it is there
      if (providers.citationCompletion) {
        const cites = this.guard('completion (citations)', null, () => citeCompletion(this.ws, doc, offset));
        if (cites) return cites;
      } else if (citeContextAt(doc, offset)) return null;
      if (providers.labelCompletion) {
        const labels = completion(this.ws, doc, offset, (ctx, items) => this.guard('completion (ranking)', undefined, () => rankRefCompletions(this.ws, doc, ctx, items, this.index)), () => this.aux.numbers(this.ws, doc));
        if (labels) return labels;
      } else if (refContextAt(doc, offset, this.ws)) return null;
      // environment names after \begin{ / \end{, then the project's macros after a backslash
      return environmentCompletion(this.ws, doc, offset) ?? macroCompletion(this.ws, doc, offset);
    }));
    c.onCompletionResolve((item) => this.guard('completionResolve', item, () => resolveCompletion(this.ws, item)));
    c.onPrepareRename((p) => this.guard('prepareRename', null, () => {
      const bib = this.openBibPath(p.textDocument.uri);
      if (bib) return prepareBibRename(this.ws, bib, p.position);
      const doc = this.docAt(p.textDocument.uri);
      if (!doc) return null;
      const offset = doc.offsetAt(p.position);
      return this.guard('prepareRename (citation)', undefined, () => prepareCiteRename(this.ws, doc, offset)) ?? prepareRename(this.ws, doc, offset);
    }));
    c.onRenameRequest((p) => this.guard('rename', null, () => {
      try {
        const bib = this.openBibPath(p.textDocument.uri);
        if (bib) return bibRename(this.ws, bib, p.position, p.newName);
        const doc = this.docAt(p.textDocument.uri);
        if (!doc) return null;
        const offset = doc.offsetAt(p.position);
        return citeRename(this.ws, doc, offset, p.newName) ?? rename(this.ws, doc, offset, p.newName);
      } catch (e) {
        if (e instanceof RenameError) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
        throw e;
      }
    }));
    c.languages.inlayHint.on((p) => this.guard('inlayHint', [], () => {
      const doc = this.docAt(p.textDocument.uri);
      return doc ? referenceInlayHints(doc, p.range, this.aux.numbers(this.ws, doc)) : [];
    }));
    c.onCodeLens((p) => this.guardAsync('codeLens', [], async () => {
      const doc = this.docAt(p.textDocument.uri);
      if (!doc) return [];
      const mode = this.settingsFor(doc).equations.lens;
      if (mode === 'off') return [];
      this.warmEquations();
      if (mode === 'all') return equationLenses(doc);
      const m = await matchLenses(await this.relatedContext(), doc, this.lensMatches, { waitMs: LENS_WAIT_MS, budgetMs: LENS_BUDGET_MS });
      if (m.pending) this.refreshLensesWhenAnalysed();
      else if (m.incomplete) this.refreshLensesSoon();
      return m.lenses;
    }));
    c.onCodeLensResolve((lens) => this.guardAsync('codeLensResolve', lens, async () => {
      const d = lensData(lens.data);
      const doc = d && this.docAt(d.uri);
      const site = doc && lensSite(doc, d);
      if (!doc || !site) return { ...lens, command: { title: 'No equation here', command: '' } };
      const r = await findRelatedEquations(await this.relatedContext(), { doc, site }, { waitMs: LENS_WAIT_MS });
      if (r.pending) this.refreshLensesWhenAnalysed();
      return { ...lens, command: { title: lensTitle(r), command: r.results.length || r.pending ? SHOW_RELATED_COMMAND : '', arguments: [r] } };
    }));
    c.onExecuteCommand((p) => this.guardAsync<RelatedResponse | ShowResultsArgs | SearchResponse | null>('executeCommand', emptyResponse('internal error (see the server log)'), async () => {
      if (p.command === SEARCH_COMMAND) {
        const a = parseSearchArgs(p.arguments);
        if ('error' in a) throw new ResponseError(ErrorCodes.InvalidParams, `${SEARCH_COMMAND}: ${a.error}`);
        if (a.kind === 'equation') return searchEquations(await this.relatedContext(), a.query, a.limit);
        await this.index.load();
        return searchStatements(this.ws, this.index, a.query, a.kind, a.limit);
      }
      if (p.command === SUGGEST_CITATIONS_COMMAND || p.command === CANDIDATE_PROOFS_COMMAND) {
        const a = parseFindArgs(p.arguments);
        const doc = 'uri' in a ? this.docAt(a.uri) : undefined;
        if (!doc || !('position' in a)) throw new ResponseError(ErrorCodes.InvalidParams, `${p.command}: expected {uri, position} of an open document`);
        await this.index.load();
        const at = doc.offsetAt(a.position);
        return (p.command === SUGGEST_CITATIONS_COMMAND ? citeResults(this.ws, doc, at, this.index) : proofResults(this.ws, doc, at, this.index)) ?? null;
      }
      if (p.command !== FIND_RELATED_COMMAND) return null;
      const a = parseFindArgs(p.arguments);
      if ('error' in a) return emptyResponse(`${FIND_RELATED_COMMAND}: ${a.error}`);
      if ('latex' in a) return findRelatedEquations(await this.relatedContext(), { latex: a.latex }, { waitMs: LENS_WAIT_MS });
      const doc = this.docAt(a.uri);
      if (!doc) return emptyResponse(`${FIND_RELATED_COMMAND}: ${a.uri} is not open or known`);
      const site = equationAt(doc, doc.offsetAt(a.position));
      if (!site) return emptyResponse(`${FIND_RELATED_COMMAND}: no display equation at ${a.position.line + 1}:${a.position.character + 1}`);
      return findRelatedEquations(await this.relatedContext(), { doc, site }, { waitMs: LENS_WAIT_MS });
    }));
    c.onShutdown(() => this.shutdown());
    c.onNotification(HOVER_MATH_COLOR, (p: { color?: unknown }) => {
      if (this.hoverMath.mode === 'svg' && typeof p?.color === 'string') this.hoverMath = { ...this.hoverMath, color: p.color };
    });
    c.onRequest('mathsense/status', async () => {
      await this.scanning;
      await this.includeLoading;
      const docs = this.ws.all();
      return {
        version: VERSION,
        documents: docs.length,
        blocks: docs.reduce((n, d) => n + d.blocks().length, 0),
        cache: { hits: sharedBlockCache.hits, misses: sharedBlockCache.misses },
        rssBytes: process.memoryUsage().rss,
        embeddings: await this.embeddings.status(),
        index: this.index.status(),
        equations: await this.equationStatus(),
      };
    });
  }

  /** Tells the client `mathsense/status` has changed (the index loaded or failed, semantic ranking decided), so its status item follows. */
  private statusChanged(): void {
    if (this.shuttingDown) return;
    void this.conn.sendNotification(STATUS_CHANGED).catch(() => undefined);
  }

  /** What a related-equations search uses: the workspace equations, the index's, the formula encoder. */
  private async relatedContext(): Promise<RelatedContext> {
    // the index's equations load on first use; a search waits for them a little, like for analyses
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.index.loadEquations(), new Promise((r) => { timer = setTimeout(r, LENS_WAIT_MS); })]);
    clearTimeout(timer);
    const got = this.index.get();
    const eqs = this.index.equations();
    return {
      ws: this.ws,
      equations: this.equations,
      index: got && eqs ? { index: got.index, equations: eqs } : undefined,
      queryVector: (t) => this.formulaVectors.query(t, QUERY_VECTOR_WAIT_MS),
      indexVectorsMatch: () => !!eqs && eqs.header.dim > 0 && eqs.header.modelVersion === this.formulaVectors.modelVersion,
      encoderMessage: () => this.formulaVectors.unavailable ?? (this.formulaVectors.modelVersion ? undefined : 'formula encoder still loading: ranked by fingerprints and structure'),
    };
  }

  private warmTimer: NodeJS.Timeout | undefined;

  /**
   * The workspace's equations are analysed (in the equation worker) once lenses are first asked
   * for, and again after edits: queued shortly after the request, never inside it.
   */
  private warmEquations(): void {
    if (this.warmTimer) return;
    this.warmTimer = setTimeout(() => {
      this.warmTimer = undefined;
      this.guard('equations', undefined, () => this.equations.snapshot(this.ws));
      void this.index.loadEquations();
      // once analysed, their formula-encoder vectors are asked for (a snapshot does that)
      void this.equationAnalyses.whenIdle().then(() => this.guard('equations', undefined, () => this.equations.snapshot(this.ws)));
    }, 200);
  }

  private refreshing = false;
  private refreshTimer: NodeJS.Timeout | undefined;

  /** Lenses answered before every display was searched are asked for again shortly (the next request goes on). */
  private refreshLensesSoon(): void {
    if (this.refreshTimer || !this.lensRefresh) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (this.shuttingDown) return;
      this.conn.sendRequest('workspace/codeLens/refresh').catch((e) => this.log(`code lens refresh failed: ${(e as Error).message}`));
    }, 100);
  }

  /** Lenses resolved while equations were still being analysed are asked for again when they are done. */
  private refreshLensesWhenAnalysed(): void {
    if (this.refreshing || !this.lensRefresh) return;
    this.refreshing = true;
    void this.equationAnalyses.whenIdle().then(() => {
      this.refreshing = false;
      return this.conn.sendRequest('workspace/codeLens/refresh');
    }).catch((e) => { this.refreshing = false; this.log(`code lens refresh failed: ${(e as Error).message}`); });
  }

  private async equationStatus() {
    const snap = this.guard('equations status', undefined, () => this.equations.snapshot(this.ws, { queue: false }));
    return {
      sites: snap?.sites.length ?? 0,
      pending: snap?.pending ?? 0,
      vectorsPending: this.formulaVectors.pending,
      index: this.index.equations()?.size ?? 0,
      encoder: await this.formulaVectors.status(),
    };
  }

  /**
   * Statements of a document are embedded in the background, so hovers on them are hybrid at
   * once: shortly after an open or edit (every document opened or edited meanwhile, not only
   * the last one), or, when the index has not finished loading yet (the file the editor was
   * launched with is opened before it has), as soon as it has.
   */
  private prefetchStatements(doc: Doc): void {
    if (this.shuttingDown) return;
    this.prefetchDocs.add(doc.uri);
    if (this.prefetchTimer) clearTimeout(this.prefetchTimer);
    this.prefetchTimer = setTimeout(() => {
      this.prefetchTimer = undefined;
      const uris = [...this.prefetchDocs];
      this.prefetchDocs.clear();
      for (const uri of uris) this.guard('prefetch', undefined, () => this.prefetchNow(uri));
    }, 500);
  }

  private prefetchNow(uri: string): void {
    const doc = this.ws.get(uri);
    if (!doc || !this.ws.isOpen(doc) || this.shuttingDown) return;
    if (!this.index.get()) {
      this.prefetchAfterLoad.add(uri);
      this.prefetchWhenLoaded();
      return;
    }
    const texts = statements(this.ws, doc).slice(0, 300).map((st) => bodyText(doc, st.env)).filter((t) => t.length >= 10);
    this.index.want(texts);
    void warmRefRanking(this.ws, doc, this.index).catch((e: Error) => this.log(`\\ref ranking not prepared: ${e.message}`));
  }

  /** Runs the prefetches that found the index still loading once it is ready (dropped if it is unavailable). */
  private prefetchWhenLoaded(): void {
    if (this.waitingForIndex) return;
    this.waitingForIndex = true;
    void this.index.load().then(() => {
      this.waitingForIndex = false;
      const state = this.index.status().state;
      // the index path changed while it loaded: wait for the new one
      if (state === 'loading') { this.prefetchWhenLoaded(); return; }
      const uris = [...this.prefetchAfterLoad];
      this.prefetchAfterLoad.clear();
      if (state !== 'ready') return;
      for (const uri of uris) this.guard('prefetch', undefined, () => this.prefetchNow(uri));
    });
  }

  /**
   * `shutdown`: no new background work, then the native encoder sessions are released in order
   * (each embedding worker finishes its running batch, releases its onnxruntime session and
   * acknowledges before it is terminated) and the equation worker is stopped, all before the
   * answer, so the `exit` that follows never tears a thread down inside onnxruntime.
   */
  private async shutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const t of [this.revalidateTimer, this.prefetchTimer, this.warmTimer, this.refreshTimer]) if (t) clearTimeout(t);
    this.prefetchDocs.clear();
    this.prefetchAfterLoad.clear();
    const t0 = performance.now();
    const results = await Promise.allSettled([EmbeddingService.disposeAll(SHUTDOWN_WAIT_MS), this.equationRunner.close()]);
    for (const r of results) if (r.status === 'rejected') this.log(`shutdown: ${(r.reason as Error)?.message ?? r.reason}`);
    this.log(`shutdown: encoder sessions released and workers stopped in ${Math.round(performance.now() - t0)} ms`);
  }

  /** Settings per workspace folder, deepest first. */
  private folderSettings: Array<{ folder: string; settings: ServerSettings }> = [];

  /** The settings that apply to a document: its workspace folder's, else the workspace's. */
  private settingsFor(doc: Doc): ServerSettings {
    const p = uriToPath(doc.uri);
    if (p) for (const f of this.folderSettings) if (p === f.folder || p.startsWith(f.folder + path.sep)) return f.settings;
    return this.settings;
  }

  private async pullSettings(): Promise<void> {
    // a client that advertises workspace/configuration but never answers must not hold up the
    // workspace scan (and with it the label diagnostics) forever: defaults after 10 s
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('no answer to workspace/configuration in 10 s: using defaults')), 10_000); });
    try {
      // the workspace's settings, then each folder's (a paper and lecture notes in one workspace may differ)
      const folders = [...this.folders];
      const items = [{ section: 'mathsense' }, ...folders.map((f) => ({ section: 'mathsense', scopeUri: pathToUri(f) }))];
      const all = await Promise.race([this.conn.workspace.getConfiguration(items), late]) as unknown[];
      this.settings = mergeSettings(all[0]);
      this.folderSettings = folders.map((f, i) => ({ folder: f, settings: mergeSettings(all[i + 1] ?? all[0]) })).sort((a, b) => b.folder.length - a.folder.length);
    } catch (e) {
      this.log(`could not read settings: ${(e as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Publishes diagnostics for one document, tagged with its version: the label/structure
   * diagnostics and the derivation results of blocks already checked, at once; blocks not yet
   * checked go to the worker, and the document is published again when they are done.
   */
  private publish(doc: Doc): void {
    const extra = this.guard('derivations', [], () => this.derivationsNow(doc));
    // still published while the project loads (every version gets diagnostics), without what the missing files would change
    const { diagnostics, heldBack } = this.guard('diagnostics', { diagnostics: extra, heldBack: false }, () => documentDiagnostics(this.ws, doc, {
      settings: this.settingsFor(doc).diagnostics, extra, projectLoading: this.projectIncomplete(),
    }));
    if (heldBack) this.heldBack.add(doc.uri); else this.heldBack.delete(doc.uri);
    this.conn.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  }

  private stepsOf(doc: Doc): DocStep[] {
    const s = this.derivationSteps.get(doc.uri);
    return s && s.version === doc.version ? s.steps : [];
  }

  /** Derivation diagnostics available now; starts a check of the blocks that are missing. */
  private derivationsNow(doc: Doc) {
    if (!this.settingsFor(doc).derivations.enabled) return [];
    const macros = scopeMacros(this.ws, doc);
    const sig = macroSignature(macros);
    const blocks = mathBlocks(doc, sig);
    const { steps, missing } = this.derivations.current(blocks);
    this.derivationSteps.set(doc.uri, { version: doc.version, steps });
    if (missing.length) this.checkDerivations(doc.uri, doc.version, () => this.derivations.check(missing, macros, sig));
    return derivationDiagnostics(doc, steps, this.settingsFor(doc).derivations);
  }

  /** One check per document at a time; when it ends, the current version is published again. */
  private checkDerivations(uri: string, version: number, run: () => Promise<void>): void {
    if (this.derivationRunning.has(uri)) { this.derivationAgain.add(uri); return; }
    this.derivationRunning.add(uri);
    run().then(() => {
      this.derivationRunning.delete(uri);
      const again = this.derivationAgain.delete(uri);
      const doc = this.ws.get(uri);
      if (doc && this.ws.isOpen(doc) && (again || doc.version === version)) this.publish(doc);
    }, (e: unknown) => {
      this.derivationRunning.delete(uri);
      this.derivationAgain.delete(uri);
      this.conn.console.error(`derivation check failed: ${(e as Error).stack ?? e}`);
    });
  }

  /** Other open documents may be affected by a change (labels, includes): refresh them soon. */
  private scheduleRevalidate(except?: Doc): void {
    if (this.revalidateTimer) clearTimeout(this.revalidateTimer);
    this.revalidateTimer = setTimeout(() => this.revalidateAll(except), 300);
  }

  private revalidateAll(except?: Doc): void {
    for (const doc of this.ws.all()) if (doc !== except && this.ws.isOpen(doc)) this.publish(doc);
  }

  /**
   * Whether some document's project may not be fully loaded: a workspace scan is under way (a
   * chapter's parent or the chapters it references may not have been read yet), or included
   * files found on disk are still being read.
   */
  private projectIncomplete(): boolean {
    return this.foldersScanning > 0 || this.includesToLoad.size > 0 || this.bibsToLoad.size > 0;
  }

  /** Publishes again, complete, the documents whose label diagnostics were held back. */
  private releaseHeldBack(): void {
    if (this.projectIncomplete()) return;
    for (const uri of [...this.heldBack]) {
      const doc = this.ws.get(uri);
      if (doc && this.ws.isOpen(doc)) this.publish(doc);
      else this.heldBack.delete(uri);
    }
  }

  /** A workspace folder scan has ended: once none is left, every open document is published complete. */
  private scanEnded(): void {
    this.foldersScanning = Math.max(0, this.foldersScanning - 1);
    if (this.foldersScanning > 0) return;
    this.collectPendingIncludes();
    this.revalidateAll();
    void this.loadPendingIncludes();
  }

  /** Takes the included files the include graph found on disk but not loaded (read by loadPendingIncludes). */
  private collectPendingIncludes(): void {
    this.guard('includes', undefined, () => this.ws.refreshGraph());
    for (const f of this.ws.takePendingIncludes()) this.includesToLoad.add(f);
    for (const f of this.ws.takePendingBibliographies()) this.bibsToLoad.add(f);
  }

  /** The loading of included files, chained (`mathsense/status` waits for it). */
  private includeLoading: Promise<void> = Promise.resolve();

  /**
   * Reads included / xr-external files that are not loaded yet, asynchronously and with
   * progress, then re-validates. Opening one Stacks chapter alone pulls in ~120 chapters
   * through `\externaldocument`; reading them inside didOpen blocked the server for seconds.
   */
  private loadPendingIncludes(): Promise<void> {
    this.includeLoading = this.includeLoading.then(async () => {
      let progress: Awaited<ReturnType<Connection['window']['createWorkDoneProgress']>> | undefined;
      let loaded = 0;
      for (;;) {
        this.collectPendingIncludes();
        // the workspace scan may have read some of them meanwhile
        for (const file of this.includesToLoad) if (this.ws.get(pathToUri(file))) this.includesToLoad.delete(file);
        for (const file of this.bibsToLoad) if (this.ws.bibs.has(file)) this.bibsToLoad.delete(file);
        const pending = [...this.includesToLoad];
        const bibs = [...this.bibsToLoad];
        if (pending.length === 0 && bibs.length === 0) break;
        if (!progress) {
          progress = await this.conn.window.createWorkDoneProgress().catch(() => undefined);
          progress?.begin('MathSense: loading included files', 0, `${pending.length + bibs.length} files`, false);
        }
        for (const file of pending) {
          if (!this.ws.get(pathToUri(file))) {
            const r = await readTextFileAsync(file);
            if ('error' in r) this.ws.markUnreadable(file, r.error);
            else this.guard('includes', undefined, () => this.ws.addLoaded(file, r.text));
            loaded++;
            progress?.report(`${loaded} files: ${path.basename(file)}`);
          }
          this.includesToLoad.delete(file);
        }
        // bibliographies (.bib): parsed into the store, never opened as documents
        for (const file of bibs) {
          if (!this.ws.bibs.has(file)) {
            const r = await readTextFileAsync(file);
            if ('error' in r) { this.ws.bibs.setError(file, r.error); this.log(`cannot read ${file}: ${r.error}`); }
            else this.guard('bibliography', undefined, () => this.ws.bibs.setText(file, r.text));
            if (!this.ws.bibs.has(file)) this.ws.bibs.setError(file, 'could not be parsed');
            loaded++;
            progress?.report(`${loaded} files: ${path.basename(file)}`);
          }
          this.bibsToLoad.delete(file);
        }
      }
      if (progress) {
        progress.done();
        this.log(`loaded ${loaded} included files`);
        this.revalidateAll();
      }
      this.releaseHeldBack();
    }).catch((e) => {
      this.includesToLoad.clear();
      this.bibsToLoad.clear();
      this.conn.console.error(`loading includes failed: ${(e as Error).stack ?? e}`);
      this.releaseHeldBack();
    });
    return this.includeLoading;
  }

  /**
   * Reads every document under the folders. Callers count the scan in `foldersScanning` and call
   * `scanEnded` after it, which publishes every open document and loads what is still included.
   */
  private async scanFolders(folders: string[]): Promise<void> {
    if (folders.length === 0) return;
    const progress = await this.conn.window.createWorkDoneProgress().catch(() => undefined);
    const files = folders.flatMap((f) => findDocumentFiles(f));
    progress?.begin('MathSense: indexing', 0, `${files.length} files`, false);
    const started = Date.now();
    let lastReport = 0;
    for (let i = 0; i < files.length; i++) {
      this.guard('scan', undefined, () => this.ws.loadFile(files[i]));
      if (Date.now() - lastReport > 100 || i === files.length - 1) {
        lastReport = Date.now();
        progress?.report(Math.round(((i + 1) / files.length) * 100), `${i + 1}/${files.length} ${path.basename(files[i])}`);
        await new Promise((r) => setImmediate(r));
      }
    }
    progress?.done();
    this.log(`indexed ${files.length} files in ${Date.now() - started} ms`);
  }
}

export function startServer(): Connection {
  const conn = createConnection(ProposedFeatures.all);
  // stdout belongs to the protocol: route stray console output to the client's log
  console.log = (...a: unknown[]) => conn.console.log(a.map(String).join(' '));
  console.info = console.log;
  console.warn = (...a: unknown[]) => conn.console.warn(a.map(String).join(' '));
  console.error = (...a: unknown[]) => conn.console.error(a.map(String).join(' '));
  process.on('uncaughtException', (e) => conn.console.error(`uncaught: ${e.stack ?? e}`));
  process.on('unhandledRejection', (e) => conn.console.error(`unhandled rejection: ${e}`));
  new MathSenseServer(conn);
  conn.listen();
  return conn;
}
