// What the language server needs from the index: settings, a lazy asynchronous load (never on
// the request path: until it is ready, index features contribute nothing and other features are
// unaffected), the tokenizer for queries, and query vectors. Encoder inference never runs on
// the server thread: a query's vector is taken from a small cache filled by the embedding worker
// (statements of open documents are prefetched); a hover that finds no vector yet is answered
// with BM25 alone and asks the worker for the vector, so the next hover is hybrid.
import { readSetting } from '../ext/settings.js';
import { preparePhrases } from './termPhrases.js';
import { MathTokenizer } from '../embeddings/tokenizer.js';
import { findModelsDir, loadEncoderFiles } from '../embeddings/modelFiles.js';
import type { EmbeddingService } from '../embeddings/embeddingService.js';
import { IndexError } from './format.js';
import { defaultIndexDir } from './paths.js';
import { packageRoot } from '../util/packageRoot.js';
import { ensureUnpacked } from '../util/packedFiles.js';
import { LoadedIndex, type Hit, type Query } from './store.js';
import { IndexEquations } from './equationStore.js';
import { candidateProofs, candidateProofSteps, prepareCitations, prepareDisambiguation, QUERY_TOKENS, type Result } from './retrieval.js';
import { prepareNames } from './namedResults.js';
import { usableRankers } from './referenceRanker.js';
import { usableTermRanker } from './termRanker.js';
import { indexProofRanker } from './indexHubs.js';
import { loadRelevance, withRelevance, type RelevanceModel, type RelevanceTask } from './relevance.js';
import type { IndexStatus } from '../ext/protocol.js';
import { drain, drainInTurns, SLICE_MS, turn } from '../util/turns.js';

export interface IndexSettings { path?: string; sources?: string[] }

/** Quiet time (no index request) before background precomputation runs. */
const IDLE_MS = 150;
/**
 * Quiet time after the last edit before background work runs: keystrokes come every 100-300 ms
 * while someone types, and each needs the cores for its own diagnostics (on 2 cores the
 * encoder and the precomputation would otherwise share them with every keystroke).
 */
const TYPING_IDLE_MS = 400;

/** From the `mathsense` settings object: `index.path`, `index.sources`. */
export function indexSettings(raw: unknown): IndexSettings {
  const p = readSetting(raw, 'index.path').trim();
  const s = readSetting(raw, 'index.sources');
  return { path: p || undefined, sources: s.length ? [...s] : undefined };
}


/** Candidate proofs a hover reads (grouped there by the result they prove): what the background precomputes. */
export const HOVER_PROOFS = 10;

/** How a text is keyed for its vector and candidate proofs: its first 4000 characters (the encoder reads fewer tokens). */
const queryKey = (text: string) => (text.length > 4000 ? text.slice(0, 4000) : text);

/** Workspace texts whose token ids are kept (completion ranks thousands of statements). */
export const TOKEN_CACHE_TEXTS = 20_000;

export class ServerIndex {
  private index: LoadedIndex | undefined;
  private eqs: IndexEquations | undefined;
  private eqsLoading: Promise<IndexEquations | undefined> | undefined;
  private tok: MathTokenizer | undefined;
  private loading: Promise<void> | undefined;
  private failure: string | undefined;
  private dir = '';
  private readonly vectors = new Map<string, Float32Array>();
  private readonly wanted = new Set<string>();
  /** Embedded texts whose candidate proofs are computed when requests pause. */
  private precompute: string[] = [];
  /** Ends the pump's wait for a pause when a vector is asked for. */
  private wake?: () => void;
  private semantic: boolean | undefined;
  /** Whether an index suggestion fits at all (relevance.ts); undefined: none usable, suggestions shown as ranked. */
  private relevanceModel: RelevanceModel | undefined;
  private relevanceProblem: string | undefined;
  private embedQueue: string[] = [];
  private embedRunning = false;

  constructor(
    private readonly log: (m: string) => void,
    private readonly settings: () => IndexSettings & { modelsPath?: string },
    private readonly embeddings: () => Promise<EmbeddingService | undefined>,
    /** Called when what `status()` reports changes (loaded, failed, semantic ranking decided). */
    private readonly changed: () => void = () => {},
  ) {}

  /** Starts loading (once per index path); resolves when loaded or failed. */
  load(): Promise<void> {
    let dir = defaultIndexDir(this.settings().path);
    if (this.loading && dir === this.dir) return this.loading;
    this.dir = dir;
    this.index = undefined;
    this.eqs = undefined;
    this.eqsLoading = undefined;
    this.failure = undefined;
    this.semantic = undefined;
    this.relevanceModel = undefined;
    this.relevanceProblem = undefined;
    this.loading = (async () => {
      try {
        // an installed extension's index may still be packed (util/packedFiles.ts); a read-only
        // install reads it from the unpacked mirror
        await ensureUnpacked(packageRoot(), (m) => this.log(`index: ${m}`));
        if (this.dir === dir) this.dir = dir = defaultIndexDir(this.settings().path);
        const files = loadEncoderFiles(findModelsDir(this.settings().modelsPath), { verifyHash: false });
        const tok = MathTokenizer.load(files.vocabPath);
        const idx = await LoadedIndex.loadAsync(dir);
        if (idx.header.vocabHash !== tok.vocab.hash) throw new IndexError(`index ${dir} was built with another tokenizer (${idx.header.vocabHash}, the model's is ${tok.vocab.hash}): rebuild it with \`npm run index:build\``);
        const rel = loadRelevance(findModelsDir(this.settings().modelsPath), idx.header.modelVersion);
        this.relevanceModel = rel.model;
        this.relevanceProblem = rel.problem && `no relevance model, index suggestions are shown as ranked without abstaining: ${rel.problem}`;
        if (this.relevanceProblem) this.log(`index: ${this.relevanceProblem}`);
        this.tok = tok;
        this.index = idx;
        this.log(`index: ${idx.count} entries from ${idx.header.sources.map((s) => s.name).join(', ')} loaded in ${Math.round(idx.loadMs)} ms (${dir})`);
        if (idx.digestProblem) this.log(`index: ${idx.digestProblem}`);
        // the first term hover, named search and "results to cite" should not pay for reading
        // every entry's title and citations: the tables are prepared one after another, in slices
        // a few milliseconds apart, not only while requests pause (a client that asks without
        // pause, a busy editor or the fuzz test, would otherwise meet them unbuilt and wait for a
        // whole one); a request waits behind one slice at most
        const slices = () => this.steady();
        const citations = usableRankers(idx.header.referenceRankers);
        if (!citations) this.log(`index: no usable reference rankers in ${dir}: results to cite use direct match + votes (rebuild the index to include models/reference-ranker)`);
        void (async () => {
          const problem = await prepareNames(idx, slices).catch((e: Error) => `result names not prepared: ${e.message}`);
          if (problem) this.log(`index: ${problem}`);
          await prepareDisambiguation(idx, tok, slices).catch((e: Error) => this.log(`index: term titles not prepared: ${e.message}`));
          await preparePhrases(idx, slices).catch((e: Error) => this.log(`index: title phrases not prepared: ${e.message}`));
          if (citations) await prepareCitations(idx, tok, slices).catch((e: Error) => this.log(`index: citation counts not prepared: ${e.message}`));
        })();
        // whether the encoder's vectors match the index's is known as soon as both are loaded,
        // not at the first query: the status reports it from then on
        void this.decideSemantic(idx);
        if (!usableTermRanker(idx.header.termRanker)) this.log(`index: no usable term ranker in ${dir}: term hovers rank definitions by title BM25 and text (rebuild the index with \`npm run index:build\`)`);
        // the proof ranker's hub scores (176 KB) are read now, not on the first theorem hover
        const proofs = indexProofRanker(idx);
        if ('problem' in proofs) this.log(`index: candidate proofs ranked by BM25+encoder alone, results to cite vote by the direct match's neighbours: ${proofs.problem}`);
        else if (proofs.statementProblem) this.log(`index: results to cite vote by the direct match's neighbours: ${proofs.statementProblem}`);
        // one search now compiles the scoring loops, so the user's first hover is not the one
        // that waits for the JIT (the first search takes ~3x a warm one)
        setTimeout(() => { if (this.index === idx) try { candidateProofs(idx, { ids: tok.encode('Let $x$ be a real number such that $x^2 = 1$.') }, { limit: 3 }); } catch { /* reported by real queries */ } }, 20);
      } catch (e) {
        this.failure = (e as Error).message;
        this.log(`index unavailable: ${this.failure}`);
      }
      this.changed();
    })();
    return this.loading;
  }

  /** A request came (any, not only the index's): background precomputation waits for a pause. */
  noteRequest(): void {
    this.lastUse = performance.now();
  }

  private running = 0;

  /** A request that answers over several turns of the event loop (a lens list): no background work until it is done. */
  async during<T>(work: Promise<T>): Promise<T> {
    this.running++;
    this.noteRequest();
    try {
      return await work;
    } finally {
      this.running--;
      this.noteRequest();
    }
  }

  /** The loaded index, or undefined (still loading, missing or corrupt). Never blocks. */
  get(): { index: LoadedIndex; tok: MathTokenizer; sources?: ReadonlySet<string> } | undefined {
    this.noteRequest();
    return this.current();
  }

  private lastUse = 0;
  private lastEdit = -Infinity;

  /** A document was edited: background work pauses while the user types. */
  noteEdit(): void {
    this.lastEdit = performance.now();
  }

  /**
   * Resolves once no index request has come for IDLE_MS and no edit for TYPING_IDLE_MS (at
   * least one timer tick later): where background work on the server thread waits, so a burst
   * of requests or keystrokes never queues behind it. `requests: false` waits for typing only
   * (the embedding of texts a hover has just asked for should not wait for hovers to stop).
   */
  /** For background work of other modules on the server thread: resolves in a pause (see idle). */
  whenIdle(): Promise<void> {
    return this.idle();
  }

  /**
   * Background work on the index (its preparation after loading, the warm-ups) waits for this
   * too: the session passes the project read, which it would otherwise slow down on the same
   * thread, for work that no request needs before the project is read.
   */
  waitFor(gate: () => Promise<void>): void {
    this.gate = gate;
  }
  private gate: () => Promise<void> = async () => {};

  /**
   * Between slices of the index's own preparation: after the gate, a slice's length of time and
   * then a turn of the event loop, so that under a stream of requests it takes half the thread at most.
   */
  private async steady(): Promise<void> {
    await this.gate();
    await new Promise((r) => setTimeout(r, SLICE_MS));
    await turn();
  }

  private async idle(requests = true): Promise<void> {
    await this.gate();
    const wait = () => Math.max(requests ? (this.running ? IDLE_MS : IDLE_MS - (performance.now() - this.lastUse)) : 0, TYPING_IDLE_MS - (performance.now() - this.lastEdit));
    do await new Promise((r) => setTimeout(r, Math.max(10, wait())));
    while (wait() > 0);
    // then one turn through the event loop's poll: Node runs every timer that came due while it ran
    // timers, so two background chains that wait on timers shorter than their work would pass the
    // turn between them and never let a request in
    await turn();
  }

  private current(): { index: LoadedIndex; tok: MathTokenizer; sources?: ReadonlySet<string> } | undefined {
    if (!this.loading || defaultIndexDir(this.settings().path) !== this.dir) void this.load();
    if (!this.index || !this.tok) return undefined;
    const s = this.settings().sources;
    return { index: this.index, tok: this.tok, sources: s ? new Set(s) : undefined };
  }

  /** The index's display equations, when loaded (never blocks). */
  equations(): IndexEquations | undefined {
    return this.get() ? this.eqs : undefined;
  }

  /**
   * Loads the display equations (related equations) on first use, not with the index: ~30 MB
   * that a session without equation searches never needs. A problem with them leaves the rest
   * of the index usable. Resolves with undefined when there are none.
   */
  loadEquations(): Promise<IndexEquations | undefined> {
    if (this.eqsLoading) return this.eqsLoading;
    const loading = this.loading;
    if (!loading) { void this.load(); return Promise.resolve(undefined); }
    return (this.eqsLoading = loading.then(async () => {
      const idx = this.index;
      if (!idx?.header.equations) return undefined;
      const t0 = performance.now();
      try {
        const eqs = await IndexEquations.loadAsync(idx.dir, idx.header.equations);
        if (this.index === idx) this.eqs = eqs;
        this.log(`index: ${eqs.size} equations loaded in ${Math.round(performance.now() - t0)} ms`);
        return eqs;
      } catch (e) {
        this.log(`index equations unavailable: ${(e as Error).message}`);
        return undefined;
      }
    }));
  }

  /** Tokens now; the vector when the worker has produced it (asked for otherwise). */
  query(text: string): Query | undefined {
    const got = this.current(); // callers on the request path have called get()
    if (!got) return undefined;
    const key = queryKey(text);
    const vec = this.vectors.get(key);
    // asked on the request path: ahead of the prefetched statements of opened files
    if (!vec) this.want([key], true);
    return { ids: got.tok.encode(key, { maxTokens: QUERY_TOKENS }), vec, text: key };
  }

  /**
   * Whether query vectors are coming: the encoder matches the index, or that is not decided yet
   * (false without an encoder or with another model's index: BM25 is all there will be).
   */
  get expectsVectors(): boolean {
    return this.semantic !== false;
  }

  private readonly tokenCache = new Map<string, number[]>();
  private readonly memos = new Map<string, unknown>();

  /**
   * One value per slot, kept between requests until `fits(previous)` says it no longer fits:
   * what a ranking builds over its candidates alone (BM25 over their texts, their citers).
   */
  memo<T>(slot: string, fits: (previous: T) => boolean, build: () => T): T {
    const previous = this.memos.get(slot) as T | undefined;
    if (previous !== undefined && fits(previous)) return previous;
    const value = build();
    this.memos.set(slot, value);
    return value;
  }
  private readonly proofCache = new Map<string, Result[]>();

  /**
   * Candidate proofs of a statement text, memoised; `semantic` says whether the encoder score
   * was used. When a statement's vector arrives from the worker its candidates are computed
   * there and then (off the request path), so hovers mostly read this cache.
   */
  /** `name`: the statement's title (`\begin{theorem}[Heine--Borel]`): indexed results it names come first. */
  candidateProofs(text: string, limit = HOVER_PROOFS, background = false, name?: string): { results: Result[]; semantic: boolean } | undefined {
    return drain(this.candidateProofSteps(text, limit, background, name));
  }

  /** `candidateProofs`, pausing (`yield`) within its searches: the background precompute's, a slice at a time. */
  private *candidateProofSteps(text: string, limit: number, background: boolean, name?: string): Generator<void, { results: Result[]; semantic: boolean } | undefined> {
    const got = background ? this.current() : this.get();
    if (!got) return undefined;
    const key = queryKey(text);
    const vec = this.vectors.get(key);
    const memo = `${limit}\u0000${vec ? 1 : 0}\u0000${[...(got.sources ?? [])].join(',')}\u0000${name ?? ''}\u0000${key}`;
    let results = this.proofCache.get(memo);
    if (!results) {
      const q = this.query(key)!;
      results = this.withRelevance('proof', yield* candidateProofSteps(got.index, q, { limit, sources: got.sources, name }), q);
      if (this.proofCache.size > 2000) this.proofCache.clear();
      this.proofCache.set(memo, results);
    }
    return { results, semantic: !!vec };
  }

  /**
   * `results` (one query's list, best first) with each one's probability of being relevant
   * (`relevance`) and whether it passes the task's threshold (`fits`), under the relevance
   * model; without one, as they are (every result shown).
   */
  withRelevance<T extends Hit>(task: RelevanceTask, results: T[], q: Query): Array<T & { relevance?: number; fits?: boolean }> {
    return withRelevance(this.relevanceModel, task, results, q);
  }

  /** Candidate proofs of `text` made in the background, SLICE_MS at a time with requests answered between slices. */
  private async precomputeProofs(text: string): Promise<void> {
    const idx = this.index;
    // another index meanwhile: its candidates are other ones
    await drainInTurns(this.candidateProofSteps(text, HOVER_PROOFS, true), () => this.index !== idx);
  }

  /** Tokenizer ids of a workspace text (cached: completion ranks thousands of statements). */
  tokens(text: string): number[] {
    let ids = this.tokenCache.get(text);
    if (!ids) {
      ids = this.tok ? this.tok.encode(text, { maxTokens: 256 }) : [];
      if (this.tokenCache.size > TOKEN_CACHE_TEXTS) this.tokenCache.clear();
      this.tokenCache.set(text, ids);
    }
    return ids;
  }

  /** Peeks a vector without asking for it. */
  vector(text: string): Float32Array | undefined {
    return this.vectors.get(queryKey(text));
  }

  /** Asks the embedding worker for these texts' vectors (in the background; `urgent`: before what is queued). */
  want(texts: string[], urgent = false): void {
    if (this.semantic === false) return;
    for (const t of texts) {
      const key = queryKey(t);
      if (this.vectors.has(key)) continue;
      if (this.wanted.has(key)) {
        if (urgent) { const i = this.embedQueue.indexOf(key); if (i > 0) { this.embedQueue.splice(i, 1); this.embedQueue.unshift(key); } }
        continue;
      }
      this.wanted.add(key);
      if (urgent) this.embedQueue.unshift(key); else this.embedQueue.push(key);
    }
    if (this.embedQueue.length) this.wake?.();
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.embedRunning) return;
    this.embedRunning = true;
    try {
      while (this.embedQueue.length || this.precompute.length) {
        if (!this.embedQueue.length) {
          // precompute the hybrid candidate proofs of embedded texts only once requests pause
          // for IDLE_MS, one at a time, each in background slices (a request read meanwhile is
          // answered before the next slice): a hover in a burst of hovers never waits behind
          // background work, and a vector asked for meanwhile (a hover's context) is embedded first
          await Promise.race([this.idle(), new Promise<void>((r) => { this.wake = r; })]);
          this.wake = undefined;
          if (this.embedQueue.length) continue;
          const t = this.precompute.shift();
          if (t !== undefined && this.vectors.has(t)) await this.precomputeProofs(t);
          continue;
        }
        const svc = await this.embeddings();
        const idx = this.index ?? (await this.loading, this.index);
        if (!svc || !idx || !(await this.decideSemantic(idx))) { this.embedQueue = []; this.precompute = []; this.wanted.clear(); return; }
        // the encoder's batch would take a core from the keystrokes of someone typing
        if (performance.now() - this.lastEdit < TYPING_IDLE_MS) await this.idle(false);
        const batch = this.embedQueue.splice(0, 64);
        const vs = await svc.embed(batch).catch(() => undefined);
        batch.forEach((t, i) => { this.wanted.delete(t); if (vs) this.vectors.set(t, vs[i]); });
        if (vs) this.precompute.push(...batch);
        if (this.precompute.length > 5000) this.precompute.splice(0, this.precompute.length - 5000);
        if (this.vectors.size > 20_000) this.vectors.clear();
      }
    } finally {
      this.embedRunning = false;
    }
  }

  /**
   * Whether the encoder's vectors can be compared with `idx`'s (same model version): decided
   * once per index, when both are loaded; false without an encoder.
   */
  private async decideSemantic(idx: LoadedIndex): Promise<boolean> {
    const svc = await this.embeddings().catch(() => undefined);
    if (this.index !== idx) return false;
    const version = svc?.status().modelVersion;
    const semantic = !!svc && version === idx.header.modelVersion;
    if (this.semantic !== semantic) {
      if (!semantic && svc) this.log(`index: encoder ${version} differs from the index's ${idx.header.modelVersion || '(none)'}: BM25 only (rebuild with \`npm run index:build\`)`);
      this.semantic = semantic;
      this.changed();
    }
    return semantic;
  }

  status(): IndexStatus {
    const base = { path: this.dir || defaultIndexDir(this.settings().path) };
    if (this.failure) return { ...base, state: 'unavailable', message: this.failure };
    if (this.index) {
      return { ...base, state: 'ready', entries: this.index.count, equations: this.eqs?.size ?? 0, bytes: this.index.bytes, loadMs: Math.round(this.index.loadMs), modelVersion: this.index.header.modelVersion, semantic: this.semantic, pendingVectors: this.wanted.size, relevance: this.relevanceModel ? { calibrated: true } : { calibrated: false, problem: this.relevanceProblem } };
    }
    return { ...base, state: this.loading ? 'loading' : 'idle' };
  }
}
