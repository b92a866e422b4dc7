// Where the diagnostics manager's derivation steps come from. The server checks display math
// in the derivation worker off the request path, keeping results per block, so a keystroke only
// sends new or changed blocks and never waits; the CLI checks a document at once, in its thread.
import type { Doc, Workspace } from '../project/workspace.js';
import { macroSignature, mathBlocksBy, scopeMacros } from '../math/blocks.js';
import type { DerivationChecker } from '../math/checker.js';
import { checkWorkspaceDocumentSync, type DerivationService, type DocStep } from '../math/service.js';
import type { DerivationSource } from './diagnosticsManager.js';
import { nextTurn } from '../util/turns.js';

export interface ReadingLimits {
  /** Main-thread time one slice of reading a document's displays may take; requests are answered between slices. */
  sliceMs: number;
  /** Reading time one version of a document may take in all; past it, its derivations are skipped, with a note. */
  budgetMs: number;
}

export const READING_LIMITS: ReadingLimits = { sliceMs: 20, budgetMs: 4000 };

/**
 * Server: a document's displays are read on the main thread in slices (a large document's
 * first reading takes seconds), then checked in the worker, one check per document at a time;
 * when either ends, `onChecked` says so (again: edited meanwhile).
 */
export class BackgroundDerivations implements DerivationSource {
  onChecked?: (uri: string, version: number, again: boolean) => void;
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  /** Documents whose displays are being read, by the version being read. */
  private readonly reading = new Map<string, { version: number; spent: number }>();
  /** Documents whose reading ran out of budget, by version. */
  private readonly overBudget = new Map<string, number>();

  constructor(private readonly service: DerivationService, private readonly error: (msg: string) => void, private readonly limits = READING_LIMITS) {}

  steps(ws: Workspace, doc: Doc): DocStep[] {
    const macros = scopeMacros(ws, doc);
    const sig = macroSignature(macros);
    const t0 = performance.now();
    const blocks = mathBlocksBy(doc, sig, t0 + this.limits.sliceMs);
    if (!blocks) {
      if (this.overBudget.get(doc.uri) !== doc.version) this.readOn(ws, doc, sig, performance.now() - t0);
      return [];
    }
    this.overBudget.delete(doc.uri);
    const { steps, missing } = this.service.current(blocks);
    if (missing.length) this.check(doc.uri, doc.version, () => this.service.check(missing, macros, sig));
    return steps;
  }

  skipped(doc: Doc): string | undefined {
    if (this.overBudget.get(doc.uri) !== doc.version) return undefined;
    return `Derivation steps in this document are not checked: reading its displays took over ${this.limits.budgetMs / 1000} s. `
      + 'Labels, references and structure are checked as usual; the reading goes on from where it stopped after the next edit.';
  }

  /** Reads the rest of the document's displays in slices, then publishes it again (its steps are then asked for). */
  private readOn(ws: Workspace, doc: Doc, sig: string, spent: number): void {
    const { uri, version } = doc;
    if (this.reading.get(uri)?.version === version) return;
    const job = { version, spent };
    this.reading.set(uri, job);
    const slice = (): void => {
      // an edit started a reading of its own; a closed or replaced document needs none
      if (this.reading.get(uri) !== job) return;
      if (ws.get(uri) !== doc || doc.version !== version) { this.reading.delete(uri); return; }
      const t0 = performance.now();
      const done = mathBlocksBy(doc, sig, t0 + this.limits.sliceMs) !== undefined;
      job.spent += performance.now() - t0;
      if (!done && job.spent < this.limits.budgetMs) { nextTurn(slice); return; }
      this.reading.delete(uri);
      if (!done) this.overBudget.set(uri, version);
      this.onChecked?.(uri, version, false);
    };
    nextTurn(slice);
  }

  private check(uri: string, version: number, run: () => Promise<void>): void {
    if (this.running.has(uri)) { this.again.add(uri); return; }
    this.running.add(uri);
    run().then(() => {
      this.running.delete(uri);
      const again = this.again.delete(uri);
      this.onChecked?.(uri, version, again);
    }, (e: unknown) => {
      this.running.delete(uri);
      this.again.delete(uri);
      this.error(`derivation check failed: ${(e as Error).stack ?? e}`);
    });
  }
}

/** CLI: every block checked now, in this thread (progress per block for a single document). */
export class ImmediateDerivations implements DerivationSource {
  constructor(private readonly checker: DerivationChecker, private readonly progress?: (doc: Doc) => ((done: number, total: number) => void) | undefined) {}

  steps(ws: Workspace, doc: Doc): DocStep[] {
    return checkWorkspaceDocumentSync(ws, doc, this.checker, this.progress?.(doc));
  }
}
