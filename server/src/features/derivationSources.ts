// Where the diagnostics manager's derivation steps come from. The server checks display math
// in the derivation worker off the request path, keeping results per block, so a keystroke only
// sends new or changed blocks and never waits; the CLI checks a document at once, in its thread.
import type { Doc, Workspace } from '../project/workspace.js';
import { macroSignature, mathBlocks, scopeMacros } from '../math/blocks.js';
import type { DerivationChecker } from '../math/checker.js';
import { checkWorkspaceDocumentSync, type DerivationService, type DocStep } from '../math/service.js';
import type { DerivationSource } from './diagnosticsManager.js';

/** Server: one check per document at a time; when it ends, `onChecked` says so (again: edited meanwhile). */
export class BackgroundDerivations implements DerivationSource {
  onChecked?: (uri: string, version: number, again: boolean) => void;
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();

  constructor(private readonly service: DerivationService, private readonly error: (msg: string) => void) {}

  steps(ws: Workspace, doc: Doc): DocStep[] {
    const macros = scopeMacros(ws, doc);
    const sig = macroSignature(macros);
    const { steps, missing } = this.service.current(mathBlocks(doc, sig));
    if (missing.length) this.check(doc.uri, doc.version, () => this.service.check(missing, macros, sig));
    return steps;
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
