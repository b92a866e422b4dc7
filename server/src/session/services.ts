// The long-lived services of a running server, created here and nowhere else, and released
// together at shutdown. Each starts lazily (workers on first use, the index after
// `initialized`), so creating them costs nothing.
import { Workspace } from '../project/workspace.js';
import { AuxStore } from '../project/auxNumbers.js';
import { DerivationService } from '../math/service.js';
import { workerRunner } from '../math/workerRunner.js';
import { EmbeddingService } from '../embeddings/embeddingService.js';
import { ServerEmbeddings } from '../embeddings/serverEmbeddings.js';
import { ServerIndex } from '../index/serverIndex.js';
import { workerAnalysis } from '../index/equationAnalysis.js';
import { EquationAnalyses } from '../index/equationAnalyses.js';
import { FormulaVectors } from '../index/formulaVectors.js';
import { WorkspaceEquations } from '../index/workspaceEquations.js';
import { MatchCache } from '../index/matchCache.js';
import type { ServerSettings } from './settings.js';
import { ServerLibrary, type LibraryProgress } from '../index/library/serverLibrary.js';
import { MathTokenizer } from '../embeddings/tokenizer.js';
import { findModelsDir } from '../embeddings/modelFiles.js';
import * as path from 'node:path';

/** Library displays sent to the equation worker at once. */
const LIBRARY_ANALYSIS_BATCH = 100;

export interface ServiceHooks {
  log(msg: string): void;
  /** The workspace-wide settings (model and index paths, the accelerator). */
  settings(): ServerSettings;
  /** What `mathsense/status` reports has changed (the index loaded or failed, semantic ranking decided). */
  statusChanged(): void;
  /** Long work shown to the user (LSP `$/progress`). */
  progress(title: string, message: string): Promise<LibraryProgress | undefined>;
}

export class Services {
  /** Every document of the project: open in the editor, scanned, or loaded through an include. */
  readonly ws = new Workspace();
  /** Numbers of the last LaTeX run, per root `.aux`. */
  readonly aux = new AuxStore();
  /** Derivation checks run in a worker; results are kept per block. */
  readonly derivations: DerivationService;
  /** The statement encoder in its own worker, started on first use; absent or corrupt models switch its features off. */
  readonly embeddings: ServerEmbeddings;
  /** The bundled index: loaded asynchronously after initialization; features wait for nothing. */
  readonly index: ServerIndex;
  /** Related equations: analyses in a worker, formula-encoder vectors in their own embedding worker. */
  private readonly equationRunner: ReturnType<typeof workerAnalysis>;
  readonly equationAnalyses: EquationAnalyses;
  readonly formulaVectors: FormulaVectors;
  readonly equations: WorkspaceEquations;
  /** Searches behind the `matches` lenses, per display text. */
  readonly lensMatches = new MatchCache();
  /** The author's library: the folders the settings name and the user's recorded ones, indexed in the background. */
  readonly library: ServerLibrary;
  private libraryTokenizer: MathTokenizer | undefined;

  constructor(hooks: ServiceHooks) {
    const { log } = hooks;
    this.derivations = new DerivationService(workerRunner(log));
    this.embeddings = new ServerEmbeddings(log, () => hooks.settings().embeddings);
    this.index = new ServerIndex(log, () => ({ ...hooks.settings().index, modelsPath: hooks.settings().embeddings.modelsPath }), () => this.embeddings.get(), hooks.statusChanged);
    this.equationRunner = workerAnalysis(log);
    this.equationAnalyses = new EquationAnalyses(this.equationRunner, log);
    this.formulaVectors = new FormulaVectors(log, () => hooks.settings().embeddings);
    this.equations = new WorkspaceEquations(this.equationAnalyses, this.formulaVectors);
    this.library = new ServerLibrary({
      log,
      // the bundled index's tokenizer, else the models folder's own (a library needs no index)
      tokenizer: () => this.index.get()?.tok ?? (this.libraryTokenizer ??= this.loadTokenizer(hooks.settings().embeddings.modelsPath, log)),
      encoder: async () => {
        const svc = await this.embeddings.get();
        const info = await svc?.start().catch(() => undefined);
        return svc && info ? { version: info.version, dim: info.dim, embed: (texts) => svc.embed(texts) } : undefined;
      },
      // in the equation worker, a batch at a time, so the workspace's own analyses go between them
      analyse: async (latex, defs) => {
        const out = [];
        for (let i = 0; i < latex.length; i += LIBRARY_ANALYSIS_BATCH) out.push(...await this.equationRunner(latex.slice(i, i + LIBRARY_ANALYSIS_BATCH).map((l) => ({ latex: l, macroKey: '' })), { '': defs }));
        return out;
      },
      progress: (title, message) => hooks.progress(title, message),
      changed: hooks.statusChanged,
    });
  }

  private loadTokenizer(modelsPath: string | undefined, log: (m: string) => void): MathTokenizer | undefined {
    try {
      return MathTokenizer.load(path.join(findModelsDir(modelsPath) ?? '', 'tokenizer', 'vocab.json'));
    } catch (e) {
      log(`library: no tokenizer (${(e as Error).message})`);
      return undefined;
    }
  }

  /**
   * Releases the native encoder sessions in order (each embedding worker finishes its running
   * batch, releases its onnxruntime session and acknowledges before it is terminated) and stops
   * the equation worker, so an `exit` that follows never tears a thread down inside onnxruntime.
   */
  async dispose(waitMs: number): Promise<string[]> {
    const results = await Promise.allSettled([EmbeddingService.disposeAll(waitMs), this.equationRunner.close()]);
    return results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error)?.message ?? r.reason)] : []));
  }
}
