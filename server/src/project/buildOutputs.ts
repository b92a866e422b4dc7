// Files a build writes rather than an author: a version stamp (`\input{gitrev}`), what LaTeX
// and its tools write (`.out`, `.bbl`, exported label lists), a figure exported from its
// drawing (`.pdf_t`, `.pdf_tex`), anything under a build folder (`.lake/build/…`). A source
// checkout does not have them until the build runs, so their absence is information, not a
// problem in the source.
import * as path from 'node:path';

const LATEX_OUTPUT_EXTENSIONS = new Set([
  '.aux', '.out', '.toc', '.lof', '.lot', '.loa', '.lol', '.bbl', '.ind', '.gls', '.glo', '.acr', '.nls',
  '.idx', '.brf', '.thm', '.nav', '.snm', '.vrb', '.labels', '.bcf', '.run.xml', '.xdv',
]);

/** What LaTeX and its runners write beside the sources and an editor may open: logs, outlines, lists. */
const RUN_OUTPUT_EXTENSIONS = new Set(['.log', '.fls', '.fdb_latexmk', '.blg', '.ilg', '.synctex', '.synctex.gz']);

/**
 * Whether a file is one a LaTeX run writes (`main.out`, `main.aux`, `main.log`): never a source of
 * equations, statements or labels, even when an editor opens it as LaTeX.
 */
export function writtenByLatex(file: string): boolean {
  const base = path.basename(file.replace(/\\/g, '/')).toLowerCase();
  const ext = base.endsWith('.synctex.gz') ? '.synctex.gz' : base.endsWith('.run.xml') ? '.run.xml' : path.extname(base);
  return LATEX_OUTPUT_EXTENSIONS.has(ext) || RUN_OUTPUT_EXTENSIONS.has(ext);
}

const FIGURE_EXPORT_EXTENSIONS = new Set(['.pdf_t', '.pstex_t', '.pdf_tex', '.eps_tex', '.svg_tex', '.pstex']);

const BUILD_FOLDERS = new Set(['build', '_build', '.lake', 'out', 'output', '_output', 'auto', '.auctex-auto', 'generated', '_generated', '.cache', 'tmp', '_minted']);

/** Base names of stamps a Makefile or a git hook writes before LaTeX runs. */
const STAMP = /^(?:git[-_]?(?:rev(?:ision)?|info\d*|hash|head(?:info)?|version|describe|commit)|vc|version(?:info)?|revision|build[-_]?(?:info|date|stamp)?|commit(?:[-_]?(?:id|hash))?|svn[-_]?info|hg[-_]?info|timestamp|compile[-_]?date)$/i;

/** `THEFILE`, `FILENAME`: a template's placeholder that a script replaces. */
const PLACEHOLDER = /^[A-Z_]*(?:FILE|NAME|INPUT|PLACEHOLDER)[A-Z_]*$/;

export interface BuildOutput {
  /** Why the build writes it, in words. */
  reason: string;
  /** Whether it may define labels (an exported label list, a generated chapter); a stamp or a figure does not. */
  mayHoldLabels: boolean;
}

/** Whether `file` (as written in an include) is written by the build, and what it may hold; undefined when an author writes it. */
export function buildOutput(file: string): BuildOutput | undefined {
  const norm = file.replace(/\\/g, '/');
  const base = path.posix.basename(norm);
  const ext = path.posix.extname(base).toLowerCase();
  const stem = ext ? base.slice(0, -ext.length) : base;
  if (FIGURE_EXPORT_EXTENSIONS.has(ext)) return { reason: 'a figure exported from its drawing by the build', mayHoldLabels: false };
  if (LATEX_OUTPUT_EXTENSIONS.has(ext)) return { reason: 'a file LaTeX or one of its tools writes', mayHoldLabels: true };
  if (norm.split('/').some((seg) => BUILD_FOLDERS.has(seg))) return { reason: 'it is under a build output folder', mayHoldLabels: true };
  if (STAMP.test(stem)) return { reason: 'a version stamp the build writes', mayHoldLabels: false };
  if (PLACEHOLDER.test(stem)) return { reason: 'a template placeholder a script replaces', mayHoldLabels: false };
  return undefined;
}
