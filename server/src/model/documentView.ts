// The document-level view: block facts turned into absolute offsets, built lazily once per
// document version. LaTeX and Markdown documents both produce it, so every feature works on
// either kind.
import { TextBuffer } from './textBuffer.js';
import type { Position, Range } from 'vscode-languageserver-types';
import type {
  BlockFacts, CiteFact, EnvFact, IncludeFact, LabelFact, MacroFact, MagicFact, ProblemFact, RefFact,
  SectionFact, Span, TheoremDefFact,
} from '../syntax/facts.js';

export type DocumentKind = 'latex' | 'markdown';

/** A piece of the document whose facts were computed with offsets relative to `start`. */
export interface Block { start: number; end: number; facts: BlockFacts }

/** Environments keep the fact shape; offsets are absolute and `parent` is document-wide. */
export type DocEnv = EnvFact;

export type DocLabel = Omit<LabelFact, 'env' | 'mathEnv'> & { env: number; mathEnv: number };
export type DocRef = RefFact;
export type DocSection = SectionFact;
export type DocInclude = IncludeFact;
export type DocMacro = MacroFact;
export type DocTheoremDef = TheoremDefFact;
export type DocCite = CiteFact;
export type DocProblem = ProblemFact;
export type DocMagic = MagicFact;

/** Index of the block containing `offset` (binary search over block starts). */
export function blockIndexAt(blocks: readonly Block[], offset: number): number {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (blocks[mid].start <= offset) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/** Views that gather one kind of fact from every block, offsets made absolute. */
const COLLECTED = {
  cites: (f: BlockFacts) => f.cites,
  includes: (f: BlockFacts) => f.includes,
  macros: (f: BlockFacts) => f.macros,
  envDefs: (f: BlockFacts) => f.envDefs,
  theoremDefs: (f: BlockFacts) => f.theoremDefs,
  sections: (f: BlockFacts) => f.sections,
  allProblems: (f: BlockFacts) => f.problems,
  magic: (f: BlockFacts) => f.magic,
};
type Collected<K extends keyof typeof COLLECTED> = ReturnType<typeof COLLECTED[K]>[number];

/**
 * The views `warm` builds, in order (a later one may read an earlier one): what registering a
 * document reads (its labels, macros, theorem definitions, includes, magic comments) and what
 * its first requests read.
 */
const SLICED_VIEWS = ['labels', 'labelMap', 'envs', 'refs', 'cites', 'includes', 'macros', 'envDefs', 'theoremDefs', 'sections', 'magic'] as const;
type SlicedView = typeof SLICED_VIEWS[number];
const BLOCKS_PER_PAUSE = 64;
const LABELS_PER_PAUSE = 1024;

function shift<T extends Span>(f: T, base: number): T {
  return base === 0 ? f : { ...f, start: f.start + base, end: f.end + base };
}

export abstract class DocumentView {
  abstract readonly kind: DocumentKind;
  protected buffer: TextBuffer;
  private memo = new Map<string, unknown>();

  constructor(readonly uri: string, text: string, version: number, languageId: string) {
    this.buffer = new TextBuffer(text, version, languageId);
  }

  get text(): string { return this.buffer.text; }
  /**
   * The text block facts were read from, offset for offset the same as `text`: LaTeX is read as
   * written; a Markdown note has what is not LaTeX blanked (block-quote `>` markers, code, HTML,
   * front matter). Features that read math or statement bodies at fact offsets read this.
   */
  get latexText(): string { return this.text; }
  get version(): number { return this.buffer.version; }
  get languageId(): string { return this.buffer.languageId; }

  /** The blocks of this version, in order, covering the text. */
  abstract blocks(): readonly Block[];

  protected invalidate(): void {
    this.memo.clear();
    this.building.clear();
  }

  /** Takes the text, version and views of `other`, a document built apart (`warm`) to stand in for this one. */
  protected takeOver(other: DocumentView): void {
    this.buffer = other.buffer;
    this.memo = other.memo;
    this.building = other.building;
  }

  private cached<T>(key: string, compute: () => T): T {
    let v = this.memo.get(key) as T | undefined;
    if (v === undefined) { v = compute(); this.memo.set(key, v); }
    return v;
  }

  // The views a large document's first requests read (line offsets, environments, labels,
  // references) can be built a slice at a time, before the document is registered: one of
  // them, built at once, holds the server for a good part of a second at tens of megabytes.
  // Asked for before it is done, a view is finished at once from where its build stopped.

  /** Views being built in slices: the build, resumable. */
  private building = new Map<string, Iterator<void, unknown>>();

  private sliced<T>(key: SlicedView | 'allProblems', steps: () => Generator<void, T>): T {
    return this.buildView(key, steps, Infinity)!;
  }

  /**
   * Goes on building view `key` (from where its build stopped, else from `steps()`) until it is
   * done, then keeps it; undefined when `deadline` (a `performance.now()` time) passed first.
   */
  private buildView<T>(key: string, steps: () => Iterator<void, T>, deadline: number): T | undefined {
    const have = this.memo.get(key) as T | undefined;
    if (have !== undefined) return have;
    const it = (this.building.get(key) as Iterator<void, T> | undefined) ?? steps();
    for (;;) {
      const r = it.next();
      if (r.done) {
        this.building.delete(key);
        this.memo.set(key, r.value);
        return r.value;
      }
      if (deadline !== Infinity && performance.now() > deadline) {
        this.building.set(key, it);
        return undefined;
      }
    }
  }

  /**
   * Builds the views of SLICED_VIEWS, line offsets first, until `deadline` (a `performance.now()`
   * time); true once all are built. A document of tens of megabytes is warmed this way in turns.
   */
  warm(deadline: number): boolean {
    if (!this.buffer.buildLines(deadline)) return false;
    return SLICED_VIEWS.every((key) => this.buildView(key, () => this.viewSteps(key), deadline) !== undefined);
  }

  private viewSteps(key: SlicedView): Generator<void, unknown> {
    switch (key) {
      case 'envs': return this.envSteps();
      case 'labels': return this.labelSteps();
      case 'labelMap': return this.labelMapSteps();
      case 'refs': return this.refSteps();
      default: return this.collectSteps(key);
    }
  }

  /** Runs `each` over the blocks in order, pausing every BLOCKS_PER_PAUSE blocks. */
  private *overBlocks<T>(each: (b: Block, out: T[]) => void): Generator<void, T[]> {
    const out: T[] = [];
    const blocks = this.blocks();
    for (let i = 0; i < blocks.length; i++) {
      each(blocks[i], out);
      if (i % BLOCKS_PER_PAUSE === BLOCKS_PER_PAUSE - 1) yield;
    }
    return out;
  }

  positionAt(offset: number): Position { return this.buffer.positionAt(offset); }
  offsetAt(position: Position): number { return this.buffer.offsetAt(position); }
  range(start: number, end: number): Range { return { start: this.positionAt(start), end: this.positionAt(end) }; }
  lineCount(): number { return this.buffer.lineCount; }

  private collect<K extends keyof typeof COLLECTED>(key: K): Collected<K>[] {
    return this.sliced(key, () => this.collectSteps(key));
  }

  private collectSteps<K extends keyof typeof COLLECTED>(key: K): Generator<void, Collected<K>[]> {
    const pick = COLLECTED[key] as (f: BlockFacts) => readonly Collected<K>[];
    return this.overBlocks<Collected<K>>((b, out) => { for (const f of pick(b.facts)) out.push(shift(f, b.start)); });
  }

  /** References; `cmdStart`/`cmdEnd` (the command) are made absolute like the name's span. */
  refs(): DocRef[] { return this.sliced('refs', () => this.refSteps()); }

  private refSteps(): Generator<void, DocRef[]> {
    return this.overBlocks<DocRef>((b, out) => {
      for (const r of b.facts.refs) {
        out.push(b.start === 0 ? r : { ...r, start: r.start + b.start, end: r.end + b.start, cmdStart: r.cmdStart + b.start, cmdEnd: r.cmdEnd + b.start });
      }
    });
  }

  cites(): DocCite[] { return this.collect('cites'); }
  includes(): DocInclude[] { return this.collect('includes'); }
  macros(): DocMacro[] { return this.collect('macros'); }
  /** Environment definitions (`\newenvironment`): `body` is the begin code. */
  envDefs(): DocMacro[] { return this.collect('envDefs'); }
  theoremDefs(): DocTheoremDef[] { return this.collect('theoremDefs'); }
  sections(): DocSection[] { return this.collect('sections'); }
  /**
   * Structural problems whose pairing is certain. A block ends where a sectioning command
   * stands, even inside an environment (`\section` in a beamer frame, in `\begin{small}`, in an
   * optional argument): an environment left open at a block's end and a later `\end` of the
   * same name that matched nothing are one pair, not two problems. Problems the analyser
   * marked uncertain (inside a conditional branch or a macro's argument) are left out.
   */
  problems(): DocProblem[] {
    return this.cached('problems', () => pairAcrossBlocks(this.collect('allProblems')));
  }
  magic(): DocMagic[] { return this.collect('magic'); }

  hasDocumentClass(): boolean { return this.cached('dc', () => this.blocks().some((b) => b.facts.hasDocumentClass)); }
  hasBeginDocument(): boolean { return this.cached('bd', () => this.blocks().some((b) => b.facts.hasBeginDocument)); }

  /** Environments with absolute offsets; `parent` indices are document-wide. */
  envs(): DocEnv[] { return this.sliced('envs', () => this.envSteps()); }

  private envSteps(): Generator<void, DocEnv[]> {
    return this.overBlocks<DocEnv>((b, out) => {
      const base = out.length;
      for (const e of b.facts.envs) {
        const d: DocEnv = {
          name: e.name, start: e.start + b.start, end: e.end + b.start, bodyStart: e.bodyStart + b.start,
          bodyEnd: e.bodyEnd + b.start, parent: e.parent < 0 ? -1 : e.parent + base, closed: e.closed,
        };
        if (e.opt) d.opt = shift(e.opt, b.start);
        if (e.rows) d.rows = e.rows.map((r) => shift(r, b.start));
        out.push(d);
      }
    });
  }

  /** Labels with document-wide env indices (matching envs()). */
  labels(): DocLabel[] { return this.sliced('labels', () => this.labelSteps()); }

  private labelSteps(): Generator<void, DocLabel[]> {
    let envBase = 0;
    return this.overBlocks<DocLabel>((b, out) => {
      for (const l of b.facts.labels) {
        out.push({
          ...l, start: l.start + b.start, end: l.end + b.start, cmdStart: l.cmdStart + b.start,
          env: l.env < 0 ? -1 : l.env + envBase, mathEnv: l.mathEnv < 0 ? -1 : l.mathEnv + envBase,
        });
      }
      envBase += b.facts.envs.length;
    });
  }

  /** Label name -> its definitions in this document. */
  labelMap(): Map<string, DocLabel[]> { return this.sliced('labelMap', () => this.labelMapSteps()); }

  private *labelMapSteps(): Generator<void, Map<string, DocLabel[]>> {
    const m = new Map<string, DocLabel[]>();
    const labels = this.labels();
    for (let i = 0; i < labels.length; i++) {
      const l = labels[i];
      const list = m.get(l.name);
      if (list) list.push(l); else m.set(l.name, [l]);
      if (i % LABELS_PER_PAUSE === LABELS_PER_PAUSE - 1) yield;
    }
    return m;
  }

  /** Index of the block containing `offset`. */
  blockIndexAt(offset: number): number {
    return blockIndexAt(this.blocks(), offset);
  }

  /** Innermost environment (index into envs()) containing `offset`, or -1. */
  envAt(offset: number): number {
    const envs = this.envs();
    let best = -1;
    for (let i = 0; i < envs.length; i++) {
      const e = envs[i];
      if (e.start > offset) break;
      if (offset < e.end || (!e.closed && offset <= e.end)) best = i;
    }
    return best;
  }

  /** Sections in order; the section containing `offset` is the last one starting before it. */
  sectionAt(offset: number): DocSection | undefined {
    let found: DocSection | undefined;
    for (const s of this.sections()) { if (s.start <= offset) found = s; else break; }
    return found;
  }
}

/** See DocumentView#problems. */
function pairAcrossBlocks(all: readonly DocProblem[]): DocProblem[] {
  const out: DocProblem[] = [];
  const open: DocProblem[] = [];
  for (const p of all) {
    if (p.code === 'unclosed-environment' && p.at === 'block-end') { open.push(p); continue; }
    if (p.code === 'unmatched-end') {
      let k = open.length - 1;
      while (k >= 0 && open[k].env !== p.env) k--;
      if (k >= 0) { open.splice(k, 1); continue; }
    }
    if (!p.uncertain) out.push(p);
  }
  for (const p of open) if (!p.uncertain) out.push(p);
  return out.sort((a, b) => a.start - b.start);
}
