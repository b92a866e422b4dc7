// What the block analyser extracts from one block. All offsets are relative to the block
// start, so a block's facts stay valid when text before it changes (only the block's start
// moves). Facts are plain data: they are cached by block content and shared between
// documents with identical blocks.

export interface Span { start: number; end: number }

export interface EnvFact extends Span {
  name: string;
  /** End of `\begin{name}` (and of the optional argument, if any). */
  bodyStart: number;
  /** Start of `\end{name}`, or the block end when unclosed. */
  bodyEnd: number;
  /** Inner span of an optional argument directly after `\begin{name}`. */
  opt?: Span;
  /** Index of the enclosing environment in the same block, or -1. */
  parent: number;
  closed: boolean;
  /** Present on display-math environments (`equation`, `align`, `\[`, `$$`, ...). */
  rows?: RowFact[];
}

export interface RowFact extends Span {
  /** Row carries `\notag`/`\nonumber`. */
  notag: boolean;
}

export interface LabelFact extends Span {
  name: string;
  /** Start of the `\label` command. */
  cmdStart: number;
  /** Innermost enclosing environment (index into envs) or -1. */
  env: number;
  /** Nearest enclosing display-math environment, and the row within it, or -1. */
  mathEnv: number;
  row: number;
}

export interface RefFact extends Span {
  cmd: string;
  name: string;
  cmdStart: number;
  cmdEnd: number;
}

export interface CiteFact extends Span {
  cmd: string;
  key: string;
}

/**
 * `package`: `\usepackage`, `\RequirePackage`, `\documentclass`, `\LoadClass` (path with its
 * `.sty`/`.cls` extension); only a file in the project itself is followed, as a macro source.
 */
export type IncludeKind = 'input' | 'include' | 'subfile' | 'import' | 'external' | 'bibliography' | 'package';

export interface IncludeFact extends Span {
  cmd: string;
  kind: IncludeKind;
  path: string;
  /** `\externaldocument[prefix]{file}`: labels of the file are visible with this prefix. */
  prefix?: string;
  /** `\import{dir}{file}`: directory argument. */
  dir?: string;
  /** Read only if the file exists (`\InputIfFileExists`, inside `\IfFileExists`): its absence is expected. */
  guarded?: boolean;
}

export interface MacroFact extends Span {
  cmd: string;
  name: string;
  nargs: number;
  optDefault?: string;
  /** xparse: the argument specification as written (`s o m`, `O{x} m`). */
  spec?: string;
  body: string;
  /** Set when the body defines a theorem environment (`\newtheorem{#1}...`). */
  theoremWrapper?: { envArg: number; titleArg?: number; sharedArg?: number };
}

export interface TheoremDefFact extends Span {
  cmd: string;
  /** Environment name; undefined for `\theoremstyle`. */
  env?: string;
  title?: string;
  /** Counter shared with another environment (`\newtheorem{a}[b]{..}`). */
  shared?: string;
  /** Counter numbered within (`\newtheorem{a}{..}[section]`). */
  parent?: string;
  starred: boolean;
  style?: string;
}

export interface SectionFact extends Span {
  cmd: string;
  level: number;
  title: string;
  starred: boolean;
}

export interface ProblemFact extends Span {
  code: 'unclosed-environment' | 'unmatched-end';
  message: string;
  /** The environment's name (`\\[` and `$$` for display math). */
  env: string;
  /**
   * unclosed-environment: 'block-end' when the block ended with it open (its `\end` may
   * follow in a later block: a sectioning command inside it splits blocks), 'outer' when an
   * enclosing environment ended first.
   */
  at?: 'block-end' | 'outer';
  /**
   * The pairing cannot be known from the text: the `\begin` or `\end` sits inside a
   * conditional branch (`\ifx … \else … \fi`) or a macro's brace argument.
   */
  uncertain?: boolean;
}

export interface MagicFact extends Span {
  key: string;
  value: string;
}

export interface BlockFacts {
  /** Spans of every definition (`\newcommand`, `\def`, `\newenvironment`, `\let`, …): text in them is no use of anything. */
  definitions: Span[];
  /** `\newenvironment{name}[n][default]{begin}{end}`: name, arguments, and the begin code as `body`. */
  envDefs: MacroFact[];
  envs: EnvFact[];
  labels: LabelFact[];
  refs: RefFact[];
  cites: CiteFact[];
  includes: IncludeFact[];
  macros: MacroFact[];
  theoremDefs: TheoremDefFact[];
  sections: SectionFact[];
  problems: ProblemFact[];
  magic: MagicFact[];
  hasDocumentClass: boolean;
  hasBeginDocument: boolean;
}

/**
 * A literal dollar sign of Markdown prose in the LaTeX the model reads (model/markdownDocument.ts):
 * one UTF-16 unit, so offsets hold, that no LaTeX reader takes for a math delimiter; renderers
 * show it as "$".
 */
export const TEXT_DOLLAR = '\uFF04';
