// LaTeX documents the editor opens that are large are read a slice at a time between requests:
// their blocks (model/slicedBuild.ts), then the views their first requests read (line offsets,
// labels, environments, references: model/documentView.ts#warm). Building these at once for a
// file of tens of megabytes would hold every request, in every document, for seconds. Until
// then, a document counts as not
// open yet: requests on it see what the workspace read from disk (or nothing), and the edits
// the editor sends meanwhile are kept and applied, in order, once it is open.
import * as path from 'node:path';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { LatexDocument } from '../model/latexDocument.js';
import { SlicedBuild, SLICED_OPEN_CHARS } from '../model/slicedBuild.js';
import { uriToPath } from '../project/files.js';
import type { Progress, StartProgress } from './projectLoader.js';
import { nextTurn, SLICE_MS } from '../util/turns.js';

interface Pending {
  languageId: string;
  version: number;
  build: SlicedBuild;
  edits: Array<{ changes: TextDocumentContentChangeEvent[]; version: number }>;
  progress?: Progress;
}

export interface SlicedOpenHooks {
  /** The document is built and its views warmed: open it now, then apply the edits sent meanwhile. */
  open(uri: string, languageId: string, version: number, text: string, prepared: LatexDocument): void;
  change(uri: string, changes: TextDocumentContentChangeEvent[], version: number): void;
  progress: StartProgress;
}

export class SlicedOpens {
  private readonly pending = new Map<string, Pending>();
  private stopped = false;

  constructor(private readonly hooks: SlicedOpenHooks) {}

  /** Takes the open of a large LaTeX document (true), or leaves it to be opened at once (false). */
  open(uri: string, languageId: string, version: number, text: string): boolean {
    // a new open (large or not) replaces a build still going on
    this.drop(uri);
    if (text.length < SLICED_OPEN_CHARS) return false;
    const job: Pending = { languageId, version, build: new SlicedBuild(text), edits: [] };
    this.pending.set(uri, job);
    const name = path.basename(uriToPath(uri) ?? uri);
    void this.hooks.progress(`MathSense: reading ${name}`, `${Math.round(text.length / 1e6)} MB`).then((p) => {
      if (this.pending.get(uri) === job) job.progress = p; else p?.done();
    });
    let reported = 0;
    let doc: LatexDocument | undefined;
    const slice = (): void => {
      if (this.stopped || this.pending.get(uri) !== job) return;
      const deadline = performance.now() + SLICE_MS;
      // the blocks, then the views the first requests read (model/documentView.ts#warm)
      const done = job.build.step(deadline) && (doc ??= new LatexDocument(uri, job.build.text, job.version, job.languageId, undefined, job.build.blocks())).warm(deadline);
      if (!done) {
        const pct = Math.floor(job.build.progress() * 100);
        if (pct >= reported + 5) { reported = pct; job.progress?.report(`${name}: ${pct}%`, pct); }
        nextTurn(slice);
        return;
      }
      this.pending.delete(uri);
      job.progress?.done();
      this.hooks.open(uri, job.languageId, job.version, job.build.text, doc!);
      for (const e of job.edits) this.hooks.change(uri, e.changes, e.version);
    };
    nextTurn(slice);
    return true;
  }

  /** Keeps an edit of a document still being built (true); false when it is not being built. */
  change(uri: string, changes: TextDocumentContentChangeEvent[], version: number): boolean {
    const job = this.pending.get(uri);
    if (!job) return false;
    job.edits.push({ changes, version });
    return true;
  }

  /** The editor closed a document: its build, if any, is dropped (true). */
  close(uri: string): boolean {
    return this.drop(uri);
  }

  /** Whether a document is being built. */
  building(uri: string): boolean {
    return this.pending.has(uri);
  }

  stop(): void {
    this.stopped = true;
    for (const uri of [...this.pending.keys()]) this.drop(uri);
  }

  private drop(uri: string): boolean {
    const job = this.pending.get(uri);
    if (!job) return false;
    this.pending.delete(uri);
    job.progress?.done();
    return true;
  }
}
