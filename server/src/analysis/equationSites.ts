// The display equations of a document, as plain data for the related-equations search: every
// display-math environment (equation, align, gather, multline, `$$`, `\[ \]`, starred forms,
// `$$` nodes of Markdown notes) and every labelled row of a multi-row environment, with its
// LaTeX text and label. Sites are extracted once per model block (keyed by the block's shared,
// immutable facts), so a keystroke re-extracts only the edited block; a document's list is
// rebuilt from the per-block lists when its block list changes.
import type { Block } from '../model/documentView.js';
import type { Doc } from '../project/workspace.js';
import { blankComments } from '../math/latexText.js';
import type { BlockFacts } from '../syntax/facts.js';
import { drain } from '../util/turns.js';

export interface EquationSite {
  /** Span shown and navigated to: the environment, or the row (absolute offsets in a DocEquation). */
  start: number;
  end: number;
  /** The math of the site: the environment body or the row, comments blanked. */
  latex: string;
  /** `\label` of the equation (single-row environments) or of the row. */
  label?: string;
  env: string;
  /** Row index within a multi-row environment (row sites only). */
  row?: number;
}

/** A site with absolute offsets and its document; `rel` is the block-relative site (shared, stable across edits elsewhere). */
export interface DocEquation extends EquationSite { doc: Doc; line: number; rel: EquationSite }

/** Longer displays are not equations one looks up (tables, long computations): skipped. */
export const MAX_EQUATION_CHARS = 3000;
/** Diagrams and arrays of cells are display math but not equations. */
const NOT_AN_EQUATION = /\\(xymatrix|begin\s*\{\s*(tikzcd|tikzpicture|CD|xy)\s*\})|\\(ar|arrow)\s*\[/;

const perBlock = new WeakMap<BlockFacts, readonly EquationSite[]>();

/** Sites of one model block, offsets relative to the block. */
export function blockEquations(getText: () => string, facts: BlockFacts): readonly EquationSite[] {
  let out = perBlock.get(facts);
  if (out) return out;
  const text = getText();
  const sites: EquationSite[] = [];
  const envs = facts.envs;
  envs.forEach((e, i) => {
    if (!e.rows) return;
    if (e.parent >= 0 && envs[e.parent].rows) return; // nested display math: the outer one covers it
    const body = blankComments(text.slice(e.bodyStart, e.bodyEnd));
    if (!body.trim() || body.length > MAX_EQUATION_CHARS || NOT_AN_EQUATION.test(body)) return;
    const labels = facts.labels.filter((l) => l.mathEnv === i);
    const multi = e.rows.length > 1;
    sites.push({ start: e.start, end: e.end, latex: body, env: e.name, ...(!multi && labels[0] ? { label: labels[0].name } : {}) });
    if (!multi) return;
    for (const l of labels) {
      const r = e.rows[l.row];
      if (!r || sites.some((s) => s.row === l.row && s.start >= e.start && s.end <= e.end)) continue;
      const raw = text.slice(r.start, Math.min(r.end, e.bodyEnd));
      const lead = raw.length - raw.trimStart().length;
      const rowText = blankComments(raw);
      if (!rowText.trim()) continue;
      sites.push({ start: r.start + lead, end: r.start + raw.trimEnd().length, latex: rowText, label: l.name, env: e.name, row: l.row });
    }
  });
  out = sites;
  perBlock.set(facts, out);
  return out;
}

/** Sites per block list (one per document version), built so far: `next` is the first block not read. */
const perBlockList = new WeakMap<readonly Block[], { out: DocEquation[]; next: number }>();
/** Blocks between pauses of `documentEquationSteps`. */
const BLOCKS_PER_PAUSE = 256;

/** Sites of a document (absolute offsets), memoised per block list (one per document version). */
export function documentEquations(doc: Doc): DocEquation[] {
  return drain(documentEquationSteps(doc));
}

/**
 * `documentEquations`, pausing (`yield`) now and then; what it read is kept, so that another
 * caller (or the next steps) goes on from there: a large document's sites are read in slices.
 */
export function* documentEquationSteps(doc: Doc): Generator<void, DocEquation[]> {
  const blocks = doc.blocks();
  let st = perBlockList.get(blocks);
  if (!st) { st = { out: [], next: 0 }; perBlockList.set(blocks, st); }
  while (st.next < blocks.length) {
    const b = blocks[st.next];
    if (b.facts.envs.length) {
      const rel = blockEquations(() => doc.latexText.slice(b.start, b.end), b.facts);
      for (const s of rel) {
        const start = s.start + b.start;
        st.out.push({ ...s, start, end: s.end + b.start, doc, line: doc.positionAt(start).line, rel: s });
      }
    }
    // counted once its sites are in: a build left at a pause goes on with the next block
    if (++st.next % BLOCKS_PER_PAUSE === 0) yield;
  }
  return st.out;
}

/** The site under `offset`: the innermost (a labelled row before its environment). */
export function equationAt(doc: Doc, offset: number): DocEquation | undefined {
  let best: DocEquation | undefined;
  for (const s of documentEquations(doc)) {
    if (s.start <= offset && offset <= s.end && (!best || s.end - s.start < best.end - best.start)) best = s;
  }
  return best;
}
