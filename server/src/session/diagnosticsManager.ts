// The one place that decides what a document's diagnostics are: the label, reference and
// structure candidates (features/diagnostics/) merged with the derivation steps found so far, through
// the publishability gate (features/diagnostics/publishGate.ts); which documents were published with something held
// back while the project loads; and when a document is published again (its derivation check
// ended, the project finished loading, another document changed). The server publishes what it
// answers; `mathsense check` asks it once per file with the derivations checked at once.
import type { Diagnostic } from 'vscode-languageserver-types';
import { isMacroSource, type Doc, type Workspace } from '../project/workspace.js';
import type { DocStep } from '../math/service.js';
import type { Guard } from '../util/guard.js';
import { candidateSteps, documentDiagnostics, type DiagnosticSettings } from '../features/diagnostics/documentDiagnostics.js';
import type { Candidate } from '../features/diagnostics/publishGate.js';
import { labelUniverse } from '../project/labelUniverse.js';
import { runInTurns } from '../util/turns.js';
import { derivationDiagnostics, derivationsSkipped, type DerivationSettings } from '../features/equations/derivation.js';

/** Where derivation steps come from (derivationSources.ts): checked in the background (server) or at once (CLI). */
export interface DerivationSource {
  /** The steps known for this version of the document; may start checking the rest. */
  steps(ws: Workspace, doc: Doc): DocStep[];
  /** Why this version's steps are not checked (it ran out of its time budget), or undefined. */
  skipped?(doc: Doc): string | undefined;
  /** Called with a document whose check has ended: its steps changed. */
  onChecked?: (uri: string, version: number, again: boolean) => void;
}

export interface DiagnosticsOptions {
  settingsFor(doc: Doc): { diagnostics: DiagnosticSettings; derivations: DerivationSettings };
  derivations?: DerivationSource;
  /** Whether some project may not be fully read yet: what needs all of it is held back. */
  projectLoading?: () => boolean;
  guard: Guard;
  /** Sends a document's diagnostics (server); absent for one-shot use (CLI). */
  publish?: (doc: Doc, diagnostics: Diagnostic[]) => void;
}

/**
 * Documents from this many characters are published once their candidates are found in slices
 * (`candidateSteps`), not inside the turn that asked: tens of megabytes of real LaTeX take a good
 * part of a second.
 */
const PUBLISH_IN_TURNS_CHARS = 2_000_000;

/** Other open documents are published again this long after a change (a label added here may fix a reference there). */
const REVALIDATE_MS = 300;

export class DiagnosticsManager {
  /** Open documents published with diagnostics held back until the project is read. */
  private readonly heldBack = new Set<string>();
  private readonly stepsByUri = new Map<string, { version: number; steps: DocStep[] }>();
  private revalidateTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly ws: Workspace, private readonly opts: DiagnosticsOptions) {
    if (opts.derivations) opts.derivations.onChecked = (uri, version, again) => this.checked(uri, version, again);
  }

  /** Everything published for `doc` now: candidates (`candidates`: found already) and derivation steps, through the gate. */
  diagnose(doc: Doc, candidates?: Candidate[]): Diagnostic[] {
    const { guard } = this.opts;
    const settings = this.opts.settingsFor(doc);
    const extra = guard('derivations', [], () => this.derivationDiagnostics(doc, settings.derivations));
    const loading = this.opts.projectLoading?.() ?? false;
    const { diagnostics, heldBack } = guard('diagnostics', { diagnostics: extra, heldBack: false }, () =>
      documentDiagnostics(this.ws, doc, { settings: settings.diagnostics, extra, projectLoading: loading, candidates }));
    if (heldBack) this.heldBack.add(doc.uri); else this.heldBack.delete(doc.uri);
    return diagnostics;
  }

  /** Derivation steps of the document's current version (hover, code actions). */
  steps(doc: Doc): DocStep[] {
    const s = this.stepsByUri.get(doc.uri);
    return s && s.version === doc.version ? s.steps : [];
  }

  /**
   * Publishes one document: now, or for a document of PUBLISH_IN_TURNS_CHARS or more, once its
   * candidates are found a slice at a time (a version edited meanwhile is left for the next).
   */
  publish(doc: Doc): void {
    if (this.stopped) return;
    if (doc.text.length >= PUBLISH_IN_TURNS_CHARS) { this.publishInTurns(doc); return; }
    this.opts.publish?.(doc, this.diagnose(doc));
  }

  /** Versions of large documents whose candidates are being found, by URI. */
  private readonly inTurns = new Map<string, number>();

  private publishInTurns(doc: Doc, after?: () => void): void {
    const { uri, version } = doc;
    // under way for this version: what it publishes is diagnosed when it ends, with the steps known then
    if (this.inTurns.get(uri) === version) return;
    this.inTurns.set(uri, version);
    const current = () => !this.stopped && this.ws.get(uri) === doc && doc.version === version;
    const end = () => { if (this.inTurns.get(uri) === version) this.inTurns.delete(uri); };
    const ws = this.ws;
    const settings = this.opts.settingsFor(doc).diagnostics;
    // the candidates, then (a turn of its own) the project's label universe the gate reads
    const steps = (function* () {
      const candidates = yield* candidateSteps(ws, doc, settings);
      yield;
      if (candidates.some((c) => c.key !== undefined)) labelUniverse(ws, doc);
      yield;
      return candidates;
    })();
    runInTurns(steps, {
      guard: (slice) => this.opts.guard('diagnostics', undefined, slice),
      stop: () => { const go = current(); if (!go) end(); return !go; },
      done: (candidates) => {
        end();
        this.opts.publish?.(doc, this.diagnose(doc, candidates));
        after?.();
      },
      // published the way `diagnose` reports a failure
      failed: () => { end(); this.opts.publish?.(doc, this.diagnose(doc)); },
    });
  }

  /** A document changed (or opened): published now, the other open documents shortly. */
  changed(doc: Doc): void {
    this.publish(doc);
    this.revalidateSoon(doc);
  }

  /**
   * As `changed`, for a large document just opened: its candidates are found a slice at a time
   * between requests, then it is published, unless it changed meanwhile (its edit publishes it).
   */
  changedInTurns(doc: Doc): void {
    if (this.stopped) return;
    this.publishInTurns(doc, () => this.revalidateSoon(doc));
  }

  /** Open documents may be affected by something outside them (a file, a setting): publish them shortly. */
  revalidateSoon(except?: Doc): void {
    if (this.stopped) return;
    if (this.revalidateTimer) clearTimeout(this.revalidateTimer);
    this.revalidateTimer = setTimeout(() => this.revalidateAll(except), REVALIDATE_MS);
  }

  revalidateAll(except?: Doc): void {
    for (const doc of this.ws.all()) if (doc !== except && this.ws.isOpen(doc)) this.publish(doc);
  }

  /** A closed document: nothing held back for it any more. */
  closed(uri: string): void {
    this.heldBack.delete(uri);
    this.stepsByUri.delete(uri);
  }

  /** The project may be complete now: the documents held back are published again, complete. */
  projectLoaded(): void {
    if (this.opts.projectLoading?.()) return;
    for (const uri of [...this.heldBack]) {
      const doc = this.ws.get(uri);
      if (doc && this.ws.isOpen(doc)) this.publish(doc);
      else this.heldBack.delete(uri);
    }
  }

  /** No more publishing (shutdown). */
  stop(): void {
    this.stopped = true;
    if (this.revalidateTimer) clearTimeout(this.revalidateTimer);
  }

  private derivationDiagnostics(doc: Doc, settings: DerivationSettings): Diagnostic[] {
    const source = this.opts.derivations;
    // a .sty or .cls is read for its macros, never checked as a document
    if (!source || !settings.enabled || isMacroSource(doc)) return [];
    const steps = source.steps(this.ws, doc);
    this.stepsByUri.set(doc.uri, { version: doc.version, steps });
    const out = derivationDiagnostics(doc, steps, settings);
    const why = source.skipped?.(doc);
    if (why) out.push(derivationsSkipped(doc, why));
    return out;
  }

  /** A check ended: the document is published again if it is still open at that version (or was edited meanwhile). */
  private checked(uri: string, version: number, again: boolean): void {
    const doc = this.ws.get(uri);
    if (doc && this.ws.isOpen(doc) && (again || doc.version === version)) this.publish(doc);
  }
}
