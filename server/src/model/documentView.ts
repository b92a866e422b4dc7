// The document-level view: block facts turned into absolute offsets, built lazily once per
// document version. LaTeX and Markdown documents both produce it, so every feature works on
// either kind.
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, Range } from 'vscode-languageserver';
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

function shift<T extends Span>(f: T, base: number): T {
  return base === 0 ? f : { ...f, start: f.start + base, end: f.end + base };
}

export abstract class DocumentView {
  abstract readonly kind: DocumentKind;
  protected textDocument: TextDocument;
  private memo = new Map<string, unknown>();

  constructor(readonly uri: string, text: string, version: number, languageId: string) {
    this.textDocument = TextDocument.create(uri, languageId, version, text);
  }

  get text(): string { return this.textDocument.getText(); }
  /**
   * The text block facts were read from, offset for offset the same as `text`: LaTeX is read as
   * written; a Markdown note has what is not LaTeX blanked (block-quote `>` markers, code, HTML,
   * front matter). Features that read math or statement bodies at fact offsets read this.
   */
  get latexText(): string { return this.text; }
  get version(): number { return this.textDocument.version; }
  get languageId(): string { return this.textDocument.languageId; }

  /** The blocks of this version, in order, covering the text. */
  abstract blocks(): readonly Block[];

  protected invalidate(): void { this.memo.clear(); }

  private cached<T>(key: string, compute: () => T): T {
    let v = this.memo.get(key) as T | undefined;
    if (v === undefined) { v = compute(); this.memo.set(key, v); }
    return v;
  }

  positionAt(offset: number): Position { return this.textDocument.positionAt(offset); }
  offsetAt(position: Position): number { return this.textDocument.offsetAt(position); }
  range(start: number, end: number): Range { return { start: this.positionAt(start), end: this.positionAt(end) }; }
  lineCount(): number { return this.textDocument.lineCount; }

  private collect<T extends Span>(key: string, pick: (f: BlockFacts) => readonly T[]): T[] {
    return this.cached(key, () => {
      const out: T[] = [];
      for (const b of this.blocks()) for (const f of pick(b.facts)) out.push(shift(f, b.start));
      return out;
    });
  }

  /** References; `cmdStart`/`cmdEnd` (the command) are made absolute like the name's span. */
  refs(): DocRef[] {
    return this.cached('refs', () => {
      const out: DocRef[] = [];
      for (const b of this.blocks()) {
        for (const r of b.facts.refs) {
          out.push(b.start === 0 ? r : { ...r, start: r.start + b.start, end: r.end + b.start, cmdStart: r.cmdStart + b.start, cmdEnd: r.cmdEnd + b.start });
        }
      }
      return out;
    });
  }

  cites(): DocCite[] { return this.collect('cites', (f) => f.cites); }
  includes(): DocInclude[] { return this.collect('includes', (f) => f.includes); }
  macros(): DocMacro[] { return this.collect('macros', (f) => f.macros); }
  /** Environment definitions (`\newenvironment`): `body` is the begin code. */
  envDefs(): DocMacro[] { return this.collect('envDefs', (f) => f.envDefs); }
  theoremDefs(): DocTheoremDef[] { return this.collect('theoremDefs', (f) => f.theoremDefs); }
  sections(): DocSection[] { return this.collect('sections', (f) => f.sections); }
  /**
   * Structural problems whose pairing is certain. A block ends where a sectioning command
   * stands, even inside an environment (`\section` in a beamer frame, in `\begin{small}`, in an
   * optional argument): an environment left open at a block's end and a later `\end` of the
   * same name that matched nothing are one pair, not two problems. Problems the analyser
   * marked uncertain (inside a conditional branch or a macro's argument) are left out.
   */
  problems(): DocProblem[] {
    return this.cached('problems', () => pairAcrossBlocks(this.collect('allProblems', (f) => f.problems)));
  }
  magic(): DocMagic[] { return this.collect('magic', (f) => f.magic); }

  hasDocumentClass(): boolean { return this.cached('dc', () => this.blocks().some((b) => b.facts.hasDocumentClass)); }
  hasBeginDocument(): boolean { return this.cached('bd', () => this.blocks().some((b) => b.facts.hasBeginDocument)); }

  /** Environments with absolute offsets; `parent` indices are document-wide. */
  envs(): DocEnv[] {
    return this.cached('envs', () => {
      const out: DocEnv[] = [];
      for (const b of this.blocks()) {
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
      }
      return out;
    });
  }

  /** Labels with document-wide env indices (matching envs()). */
  labels(): DocLabel[] {
    return this.cached('labels', () => {
      const out: DocLabel[] = [];
      let envBase = 0;
      for (const b of this.blocks()) {
        for (const l of b.facts.labels) {
          out.push({
            ...l, start: l.start + b.start, end: l.end + b.start, cmdStart: l.cmdStart + b.start,
            env: l.env < 0 ? -1 : l.env + envBase, mathEnv: l.mathEnv < 0 ? -1 : l.mathEnv + envBase,
          });
        }
        envBase += b.facts.envs.length;
      }
      return out;
    });
  }

  /** Label name -> its definitions in this document. */
  labelMap(): Map<string, DocLabel[]> {
    return this.cached('labelMap', () => {
      const m = new Map<string, DocLabel[]>();
      for (const l of this.labels()) {
        const list = m.get(l.name);
        if (list) list.push(l); else m.set(l.name, [l]);
      }
      return m;
    });
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
