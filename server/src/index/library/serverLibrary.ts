// The author's library in a running server: the folders the `mathsense.library` setting names
// (per workspace folder) and those recorded with `mathsense library add`, each loaded from its
// store and brought up to date in the background (incremental by paper hash, with progress), one
// folder at a time. Searching reads what is loaded and never waits for indexing; a folder whose
// store is missing or unreadable is indexed, and says why until then.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MathTokenizer } from '../../embeddings/tokenizer.js';
import { displayEntry, type LibraryEntry, type LibraryKind } from './papers.js';
import { LanceLibrary } from './lanceStore.js';
import { defaultStoreDir, indexLibrary, LoadedLibrary, type DisplayAnalyser, type IndexReport, type LibraryEncoder, type LibraryEquations, type LibraryHit, type PaperRecord } from './libraryStore.js';
import type { LibraryFolderStatus } from '../../ext/protocol.js';
import { QUERY_TOKENS } from '../retrieval.js';
import { registeredFolders, writeRegistry } from './registry.js';

export interface LibraryProgress { report(message: string, percentage?: number): void; done(): void }

export interface LibraryHooks {
  log(msg: string): void;
  /** The tokenizer of the models folder (the one the bundled index's tokens come from). */
  tokenizer(): MathTokenizer | undefined;
  /** The statement encoder, when it can run (undefined: keyword search only). */
  encoder(): Promise<LibraryEncoder | undefined>;
  /** Where display equations are analysed (the server's equation worker; this thread when absent). */
  analyse?: DisplayAnalyser;
  progress(title: string, message: string): Promise<LibraryProgress | undefined>;
  /** A folder was loaded, indexed or dropped (status and lenses may read differently). */
  changed(): void;
  /** Where a folder's store lives (tests name their own). */
  storeDir?: (folder: string) => string;
  /** The user's recorded folders (tests give their own, and add/remove then leave the user's list alone). */
  recorded?: () => string[];
}

interface FolderState {
  folder: string;
  lib?: LoadedLibrary;
  /** A scaled store (`lancedb:` + its path or URI in the setting): read, never indexed, by the editor. */
  scaled?: { uri: string; lance?: LanceLibrary };
  problem?: string;
  indexing: boolean;
}

export type FolderHit = LibraryHit & { folder: string };

/** The setting's prefix naming a scaled store a group shares (built with `mathsense library index --backend lancedb`). */
export const SCALED_PREFIX = 'lancedb:';
/** Searches of scaled stores kept per query (their answers come after the request that asked). */
const SCALED_CACHE = 500;

export class ServerLibrary {
  private readonly states = new Map<string, FolderState>();
  /** Indexing runs one folder at a time, in the order asked. */
  private queue: Promise<unknown> = Promise.resolve();
  private encoderVersion: string | undefined;
  /** The folders of the user's recorded list (read at each sync, add and remove): every document reads them. */
  private recorded: string[] = [];

  constructor(private readonly hooks: LibraryHooks) {}

  private store(folder: string): string {
    return (this.hooks.storeDir ?? defaultStoreDir)(folder);
  }

  /**
   * The folders to serve (absolute): new ones are loaded from their stores and re-indexed in the
   * background (a paper unchanged since is not read again); ones no longer named are dropped
   * from memory, their stores kept.
   */
  sync(folders: readonly string[]): void {
    this.recorded = (this.hooks.recorded?.() ?? registeredFolders()).map((f) => path.resolve(f));
    const want = new Set([...folders.map((f) => (f.startsWith(SCALED_PREFIX) ? f : path.resolve(f))), ...this.recorded]);
    let dropped = false;
    for (const f of [...this.states.keys()]) if (!want.has(f)) { this.states.delete(f); dropped = true; }
    for (const f of want) {
      if (this.states.has(f)) continue;
      if (f.startsWith(SCALED_PREFIX)) { this.openScaled(f); continue; }
      const st: FolderState = { folder: f, indexing: false };
      this.states.set(f, st);
      this.load(st);
      void this.index(f);
    }
    if (dropped) this.hooks.changed();
  }

  /** A scaled store is opened (it is built and indexed again from the command line, by whoever keeps it). */
  private openScaled(name: string): void {
    const st: FolderState = { folder: name, indexing: true, scaled: { uri: name.slice(SCALED_PREFIX.length) } };
    this.states.set(name, st);
    void LanceLibrary.open(st.scaled!.uri).then((got) => {
      if (got instanceof LanceLibrary) st.scaled!.lance = got; else st.problem = got.problem;
      st.indexing = false;
      this.hooks.log(`library ${name}: ${got instanceof LanceLibrary ? `scaled store of ${got.paperCount} papers` : got.problem}`);
      this.hooks.changed();
    });
  }

  private load(st: FolderState): void {
    const got = fs.existsSync(this.store(st.folder)) ? LoadedLibrary.load(this.store(st.folder)) : { problem: 'not indexed yet' };
    if (got instanceof LoadedLibrary) { st.lib = got; st.problem = undefined; } else st.problem = got.problem;
  }

  /** Indexes a folder (queued behind any running), with progress; then searches read its new store. */
  index(folder: string): Promise<IndexReport | { problem: string }> {
    if (folder.startsWith(SCALED_PREFIX)) return Promise.resolve({ problem: `${folder} is a scaled store: build it with \`mathsense library index DIR --backend lancedb --store ${folder.slice(SCALED_PREFIX.length)}\`` });
    const f = path.resolve(folder);
    const st = this.states.get(f) ?? { folder: f, indexing: false };
    if (!this.states.has(f)) this.states.set(f, st);
    // queued counts as indexing: what is searched may change shortly
    st.indexing = true;
    const run = this.queue.then(() => this.indexNow(st));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async indexNow(st: FolderState): Promise<IndexReport | { problem: string }> {
    if (!fs.existsSync(st.folder) || !fs.statSync(st.folder).isDirectory()) {
      st.problem = `no such folder: ${st.folder}`;
      st.indexing = false;
      this.hooks.changed();
      return { problem: st.problem };
    }
    const tok = this.hooks.tokenizer();
    if (!tok) { st.problem = 'the tokenizer is not available (models folder missing)'; st.indexing = false; this.hooks.changed(); return { problem: st.problem }; }
    this.hooks.changed();
    const progress = await this.hooks.progress('MathSense: indexing library', path.basename(st.folder));
    try {
      const encoder = await this.hooks.encoder();
      if (encoder) this.encoderVersion = encoder.version;
      const report = await indexLibrary(st.folder, this.store(st.folder), tok, encoder, (done, total, paper) => progress?.report(`${done}/${total} ${paper}`, Math.round((done / Math.max(1, total)) * 100)), this.hooks.analyse);
      this.load(st);
      this.hooks.log(`library ${st.folder}: ${report.papers} papers, ${report.entries} entries (${report.added} added, ${report.changed} changed, ${report.removed} removed, ${report.kept} unchanged) in ${report.seconds} s${encoder ? '' : ', keyword search only'}`);
      for (const u of report.unreadable) this.hooks.log(`library ${st.folder}: could not read ${u}`);
      return report;
    } catch (e) {
      st.problem = `indexing failed: ${(e as Error).message}`;
      this.hooks.log(`library ${st.folder}: ${st.problem}`);
      return { problem: st.problem };
    } finally {
      st.indexing = false;
      progress?.done();
      this.hooks.changed();
    }
  }

  /** Records a folder in the user's list (every document reads it) and indexes it. */
  add(folder: string): Promise<IndexReport | { problem: string }> {
    const f = path.resolve(folder);
    if (!this.hooks.recorded) writeRegistry([...registeredFolders(), f]);
    if (!this.recorded.includes(f)) this.recorded.push(f);
    return this.index(f);
  }

  /** Drops a folder from the user's list and from memory, and deletes its store. */
  remove(folder: string): boolean {
    const f = path.resolve(folder);
    if (!this.hooks.recorded) writeRegistry(registeredFolders().filter((x) => path.resolve(x) !== f));
    this.recorded = this.recorded.filter((x) => x !== f);
    const had = this.states.delete(f);
    fs.rmSync(this.store(f), { recursive: true, force: true });
    this.hooks.changed();
    return had;
  }

  /** The folders a document reads: those its settings name and the recorded ones (every folder served when `folders` is absent). */
  private served(folders?: readonly string[]): FolderState[] {
    const only = folders && new Set([...folders.map((f) => (f.startsWith(SCALED_PREFIX) ? f : path.resolve(f))), ...this.recorded]);
    return [...this.states.values()].filter((s) => !only || only.has(s.folder));
  }

  /** Whether any of `folders` (all when absent) has a loaded library or an open scaled store. */
  has(folders?: readonly string[]): boolean {
    return this.served(folders).some((s) => (s.lib && s.lib.size > 0) || s.scaled?.lance);
  }

  /**
   * The best `limit` entries of the given kinds over the loaded libraries of `folders`, by each
   * library's fused score (BM25 + cosine when the query's vector is of the libraries' encoder).
   */
  search(q: { ids: readonly number[]; vec?: Float32Array; text?: string }, opts: { kinds?: readonly LibraryKind[]; limit?: number; folders?: readonly string[] } = {}): FolderHit[] {
    const limit = opts.limit ?? 10;
    const served = this.served(opts.folders);
    return [
      ...served.flatMap(({ folder, lib }) => (lib ? lib.search({ ids: q.ids, vec: q.vec, encoder: this.encoderVersion ?? lib.manifest.encoder }, { limit, kinds: opts.kinds }).map((h) => ({ ...h, folder })) : [])),
      ...this.scaledHits(q, opts.kinds, limit, served),
    ].sort((a, b) => b.score - a.score).slice(0, limit);
  }

  private readonly scaledCache = new Map<string, FolderHit[]>();
  private readonly scaledAsked = new Set<string>();

  /**
   * A scaled store's hits for the query as last searched; the first time, none, and the search
   * runs in the background (a later request reads it), as a statement's vector does for the index.
   * Proofs are not read from a scaled store (the statement a proof proves is another query).
   */
  private scaledHits(q: { vec?: Float32Array; text?: string }, kinds: readonly LibraryKind[] | undefined, limit: number, served: readonly FolderState[]): FolderHit[] {
    if (!q.text) return [];
    const out: FolderHit[] = [];
    for (const st of served) {
      const lance = st.scaled?.lance;
      if (!lance) continue;
      const ks = (kinds ?? ['statement', 'definition', 'equation']).filter((k) => k !== 'proof');
      const key = `${st.folder}\0${ks.join(',')}\0${limit}\0${q.vec ? 1 : 0}\0${q.text}`;
      const got = this.scaledCache.get(key);
      if (got) { out.push(...got); continue; }
      if (this.scaledAsked.has(key)) continue;
      this.scaledAsked.add(key);
      void lance.search({ text: q.text, vec: q.vec }, { limit, kinds: ks }).then((hits) => {
        if (this.scaledCache.size > SCALED_CACHE) { this.scaledCache.clear(); this.scaledAsked.clear(); }
        this.scaledCache.set(key, hits.map((h) => ({ ...h, folder: st.folder })));
      }, (e: Error) => this.hooks.log(`library ${st.folder}: search failed: ${e.message}`));
    }
    return out;
  }

  /** A query of tokens alone (no bundled index to make one with its vector). */
  lexicalQuery(text: string): { ids: number[]; text: string } | undefined {
    const tok = this.hooks.tokenizer();
    return tok ? { ids: tok.encode(text, { maxTokens: QUERY_TOKENS }), text } : undefined;
  }

  /** The displays of the loaded libraries of `folders` (every folder served when absent), for the related-equations search. */
  equations(folders?: readonly string[]): Array<{ folder: string; equations: LibraryEquations }> {
    return this.served(folders).flatMap((s) => (s.lib ? [{ folder: s.folder, equations: s.lib.equations() }] : []));
  }

  /** The statement a proof hit proves. */
  statementOf(hit: FolderHit) {
    return this.states.get(hit.folder)?.lib?.statementOf(hit.paper, hit.entry);
  }

  /** An entry of a paper by its place (file and line), to cite it (from a scaled store: as last searched). */
  entryAt(folder: string, paperId: string, file: string, line: number) {
    const same = (it: { paper: PaperRecord; entry: LibraryEntry }) => it.paper.id === paperId && it.entry.file === file && it.entry.line === line;
    if (folder.startsWith(SCALED_PREFIX)) {
      for (const hits of this.scaledCache.values()) { const h = hits.find((x) => x.folder === folder && same(x)); if (h) return { paper: h.paper, entry: h.entry }; }
      return undefined;
    }
    const lib = this.states.get(path.resolve(folder))?.lib;
    const found = lib?.items.find(same);
    if (found || !lib) return found;
    // an unlabelled display (the related-equations search lists every display)
    const d = lib.equations().displays.find((x) => x.paper.id === paperId && x.display.file === file && x.display.line === line);
    return d && { paper: d.paper, entry: displayEntry(d.display) };
  }

  status(): LibraryFolderStatus[] {
    return [...this.states.values()].map((s) => ({
      folder: s.folder,
      state: s.indexing ? 'indexing' : s.lib || s.scaled?.lance ? 'ready' : 'unavailable',
      papers: s.lib?.manifest.papers.length ?? s.scaled?.lance?.paperCount ?? 0,
      entries: s.lib?.size ?? 0,
      vectors: (!!s.lib && s.lib.manifest.dim > 0) || !!s.scaled?.lance,
      ...(s.problem && !s.lib ? { problem: s.problem } : {}),
    }));
  }
}
