// Statements of open documents are embedded in the background, so hovers on them are hybrid at
// once: shortly after an open or edit (every document opened or edited meanwhile, not only the
// last one), or, when the index has not finished loading yet (the file the editor was launched
// with is opened before it has), as soon as it has. With them, what the first `\ref{` ranking
// of their project reads is prepared.
import type { Doc, Workspace } from '../project/workspace.js';
import { bodyText, statements } from '../analysis/structure.js';
import type { ServerIndex } from '../index/serverIndex.js';
import { warmRefRanking } from '../features/index/refRanking.js';
import type { Guard } from '../util/guard.js';

const PREFETCH_DELAY_MS = 500;
/** Statements of one document asked for at most (a huge file must not flood the encoder's queue). */
const MAX_STATEMENTS = 300;

export class StatementPrefetch {
  private timer: NodeJS.Timeout | undefined;
  /** Documents prefetched when the timer fires. */
  private readonly docs = new Set<string>();
  /** Documents whose prefetch waits for the index to finish loading. */
  private readonly afterLoad = new Set<string>();
  private waitingForIndex = false;
  private stopped = false;

  constructor(private readonly ws: Workspace, private readonly index: ServerIndex, private readonly guard: Guard, private readonly log: (msg: string) => void) {}

  schedule(doc: Doc): void {
    if (this.stopped) return;
    this.docs.add(doc.uri);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const uris = [...this.docs];
      this.docs.clear();
      for (const uri of uris) this.guard('prefetch', undefined, () => this.prefetch(uri));
    }, PREFETCH_DELAY_MS);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.docs.clear();
    this.afterLoad.clear();
  }

  private prefetch(uri: string): void {
    const doc = this.ws.get(uri);
    if (!doc || !this.ws.isOpen(doc) || this.stopped) return;
    if (!this.index.get()) {
      this.afterLoad.add(uri);
      this.whenLoaded();
      return;
    }
    const texts = statements(this.ws, doc).slice(0, MAX_STATEMENTS).map((st) => bodyText(doc, st.env)).filter((t) => t.length >= 10);
    this.index.want(texts);
    void warmRefRanking(this.ws, doc, this.index).catch((e: Error) => this.log(`\\ref ranking not prepared: ${e.message}`));
  }

  /** Runs the prefetches that found the index still loading once it is ready (dropped if it is unavailable). */
  private whenLoaded(): void {
    if (this.waitingForIndex) return;
    this.waitingForIndex = true;
    void this.index.load().then(() => {
      this.waitingForIndex = false;
      const state = this.index.status().state;
      // the index path changed while it loaded: wait for the new one
      if (state === 'loading') { this.whenLoaded(); return; }
      const uris = [...this.afterLoad];
      this.afterLoad.clear();
      if (state !== 'ready') return;
      for (const uri of uris) this.guard('prefetch', undefined, () => this.prefetch(uri));
    });
  }
}
