// Which files a workspace may read. In a workspace the user has not trusted, only files inside its
// folders are read: an include elsewhere (`\input{../outside/secret}`, an absolute path) is not
// followed, and is remembered so the status and the include's diagnostic can say why.
import type { DocInclude } from '../model/documentView.js';
import type { Doc } from '../model/doc.js';
import { within } from '../util/paths.js';

export class ReadPolicy {
  /** The folders files may be read from; undefined: any (a trusted workspace). */
  readableRoots: readonly string[] | undefined;
  /** Files includes named outside readableRoots, not looked at. */
  readonly skippedOutside = new Set<string>();
  /** Per include (document and offset): the file outside readableRoots it named. */
  private readonly skippedFor = new Map<string, string>();

  /** Whether a file at `p` may be read (always, in a trusted workspace). */
  mayRead(p: string): boolean {
    return !this.readableRoots || this.readableRoots.some((r) => within(r, p));
  }

  /** An include of `doc` names `file`, which is there but outside the readable folders. */
  skipped(doc: Doc, inc: DocInclude, file: string): void {
    this.skippedOutside.add(file);
    this.skippedFor.set(`${doc.uri}\u0000${inc.start}`, file);
  }

  /** The file an include of `doc` names outside readableRoots, which was not read (the include is then unresolved). */
  skippedInclude(doc: Doc, inc: DocInclude): string | undefined {
    return this.readableRoots ? this.skippedFor.get(`${doc.uri}\u0000${inc.start}`) : undefined;
  }
}
