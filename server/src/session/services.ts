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

export interface ServiceHooks {
  log(msg: string): void;
  /** The workspace-wide settings (model and index paths, the accelerator). */
  settings(): ServerSettings;
  /** What `mathsense/status` reports has changed (the index loaded or failed, semantic ranking decided). */
  statusChanged(): void;
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

  constructor(hooks: ServiceHooks) {
    const { log } = hooks;
    this.derivations = new DerivationService(workerRunner(log));
    this.embeddings = new ServerEmbeddings(log, () => hooks.settings().embeddings);
    this.index = new ServerIndex(log, () => ({ ...hooks.settings().index, modelsPath: hooks.settings().embeddings.modelsPath }), () => this.embeddings.get(), hooks.statusChanged);
    this.equationRunner = workerAnalysis(log);
    this.equationAnalyses = new EquationAnalyses(this.equationRunner, log);
    this.formulaVectors = new FormulaVectors(log, () => hooks.settings().embeddings);
    this.equations = new WorkspaceEquations(this.equationAnalyses, this.formulaVectors);
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
