// The display-math blocks of a document, as plain data for the checker (which may run in a
// worker thread): body text, row spans relative to the body, and the prose just before the
// display (for domain statements like "for x > 0"). The key identifies a block by content,
// so unchanged blocks keep their results across edits.
import type { Doc, Workspace } from '../project/workspace.js';
import { hashText } from './latexText.js';
import { contextSignature, hypotheses } from './verdict.js';
import { readSetting, settingKey, type Setting } from './setting.js';
import { expandMacros, macroTable, type MacroDef, type MacroTable } from './macros.js';
import type { Span } from './steps.js';
import type { BlockFacts } from '../syntax/facts.js';
import { SECTION_CONTAINERS } from '../syntax/lexer.js';
import type { Block } from '../model/documentView.js';

export interface BlockInput {
  key: string;
  /** The display environment (`align*`, `equation`, `\\[`): it says how `&` columns pair up. */
  env?: string;
  /** Absolute offset of `text` in the document. */
  start: number;
  text: string;
  rows: Span[];
  context: string;
  /**
   * What the setting of the display (its own statement, example, proof with the statement it
   * proves, or list item; in running text the paragraph) says of its letters (setting.ts): the
   * near context alone misses "Let R be a ring in which x^3 = x" thirty lines up.
   */
  setting?: Setting;
  /**
   * A value the sentence after the display states for its result ("so the sum is $3/2$"): its
   * LaTeX, where it is (relative to `text`, past its end), and whether it is stated as rounded.
   */
  closing?: Closing;
}

export interface Closing {
  text: string;
  start: number;
  end: number;
  approx: boolean;
  /** A `% mathsense-ignore-step` comment is on its line. */
  ignored: boolean;
}

/**
 * A sentence that gives the display's result a value: it starts with a consequence ("so",
 * "thus", "this gives", …) and says the result is a number (`is $14$`, `equals $\\frac{3}{2}$`,
 * `is about $0.76$`). The number is the first math of the sentence.
 */
const CLOSING_SENTENCE = /^\s*[,.]?\s*(?:and\s+)?(?:so|thus|hence|therefore|that is|i\.e\.,?|this gives|which gives|which|giving|we get|we obtain|we find)\b([^$]{0,80}?)\b(?:is|equals|are|to be|=)\s*(about|approximately|roughly|around|exactly)?\s*\$([^$]{1,40})\$/i;
/**
 * What the sentence says has that value: the display's result ("the sum", "the answer", "it"),
 * not a letter of it ("so x is 2" after an equation in x).
 */
const RESULT_WORDS = /^\s*(?:(?:it|this|that)\s*|.*\b(?:sum|total|answer|value|result|product|integral|mean|average|area|volume|probability|expectation|limit|difference|quotient|length|distance|remainder|number|count|determinant|derivative)s?\b[^$]*)?$/i;
/** A number as printed: an integer, a decimal, a fraction of integers, with a sign. */
const PRINTED_NUMBER = /^\s*(?:=|\\approx)?\s*-?\s*(?:\d+(?:\.\d+)?|\\[dt]?frac\s*\{\s*\d+\s*\}\s*\{\s*\d+\s*\}|\d+\s*\/\s*\d+)\s*$/;

/** The value the sentence at `from` states for the display ending there, if it states one. */
function closingValue(text: string, from: number): Omit<Closing, 'start' | 'end'> & { at: number; length: number } | undefined {
  const sentence = nextSentence(text, from);
  const m = CLOSING_SENTENCE.exec(sentence);
  if (!m || !PRINTED_NUMBER.test(m[3]) || !RESULT_WORDS.test(m[1]) || /(?<![A-Za-z])(?!a\b)[A-Za-z](?![A-Za-z])/.test(m[1])) return undefined;
  const value = m[3].replace(/^\s*(=|\\approx)\s*/, '');
  const at = from + m.index + m[0].length - 1 - m[3].length;
  const lineEnd = text.indexOf('\n', at);
  const line = text.slice(text.lastIndexOf('\n', at) + 1, lineEnd < 0 ? text.length : lineEnd);
  return { text: value, at, length: m[3].length, approx: !!m[2] && m[2].toLowerCase() !== 'exactly' || /\\approx/.test(m[3]), ignored: /%[^\n]*mathsense-ignore-step/.test(line) };
}

const CONTEXT_CHARS = 300;
/** How far after a display its next sentence is read. */
const AFTER_CHARS = 200;

/** The sentence after a display (up to a full stop, a blank line or AFTER_CHARS). */
function nextSentence(text: string, from: number): string {
  const window = text.slice(from, from + AFTER_CHARS);
  // it ends with the paragraph, the statement, or the next display
  const blank = window.search(/\n\s*\n|\\(?:begin|end)\s*\{|\\\[|\$\$/);
  const part = blank >= 0 ? window.slice(0, blank) : window;
  const stop = part.search(/[.;](?:\s|$)/);
  return stop >= 0 ? part.slice(0, stop + 1) : part;
}
const SETTING_CHARS = 3000;

/** Display-math blocks of one model block, offsets relative to it; keyed by its (shared, immutable) facts. */
const perBlock = new WeakMap<BlockFacts, BlockInput[]>();

function blockMath(getText: () => string, facts: BlockFacts): BlockInput[] {
  let out = perBlock.get(facts);
  if (out) return out;
  out = [];
  const text = getText();
  const envs = facts.envs;
  for (const e of envs) {
    if (!e.rows) continue;
    if (e.parent >= 0 && envs[e.parent].rows) continue; // nested display math: the outer one covers it
    const body = text.slice(e.bodyStart, e.bodyEnd);
    if (!/[=<>]|\\(le|ge|leq|geq|neq|ne|equiv|lt|gt|approx)\b/.test(body)) continue;
    // the prose before the display (within the block) matters only through what it says about
    // domains; both it and the setting end where the display's own statement, example or proof
    // (with the statement it proves) begins: "let G be a group" above an example about cosines
    // says nothing of that example
    const from = scopeStart(envs, e, text);
    const settingText = text.slice(from >= 0 ? from : Math.max(0, e.start - SETTING_CHARS), e.start);
    // relations stated nearby are hypotheses of its steps: in the sentence after the display
    // ("noting that $p = 1 - q$") and earlier in its own statement or example ("where $q = 1 - p$")
    const stated = [...hypotheses(nextSentence(text, e.end)), ...hypotheses(settingText)].map((h) => `$${h}$`).join(' ');
    const context = `${text.slice(Math.max(0, from, e.start - CONTEXT_CHARS), e.start)}\n${stated}`;
    const setting = readSetting(settingText);
    const rows = e.rows.map((r) => ({ start: r.start - e.bodyStart, end: Math.min(r.end, e.bodyEnd) - e.bodyStart }));
    const c = closingValue(text, e.end);
    const closing = c && { text: c.text, start: c.at - e.bodyStart, end: c.at + c.length - e.bodyStart, approx: c.approx, ignored: c.ignored };
    const key = hashText(`${body}\u0000${rows.map((r) => `${r.start}-${r.end}`).join(',')}\u0000${contextSignature(context)}\u0000${settingKey(setting)}\u0000${e.name}\u0000${closing ? JSON.stringify(closing) : ''}`);
    out.push({ key, env: e.name, start: e.bodyStart, text: body, rows, context, ...(settingKey(setting) ? { setting } : {}), ...(closing && { closing }) });
  }
  perBlock.set(facts, out);
  return out;
}

/** Proofs and solutions, by their names and the usual short forms (`pf`, `sol`, `soln`, `ans`). */
const PROOF_ENVS = /proof|solution|answer|^(?:pf|sol|soln|solu|ans)\*?$/i;
const LIST_ENVS = /^(itemize|enumerate|description|list|compactitem|compactenum|inparaenum|asparaenum|tasks|steps)\*?$/;
const LAYOUT_ENVS = /^(center|flushleft|flushright|minipage|quote|quotation|verse|small|footnotesize|scriptsize|large|Large|normalsize|figure|table|wrapfigure|tabular|tabularx|array|multicols|mdframed|framed|tcolorbox|boxedminipage|adjustbox|subequations|landscape|block|alertblock|exampleblock|column|columns)\*?$/;

/**
 * Where the setting of display `e` begins: the environment around it (a theorem, an example,
 * an exercise), or for a proof the statement right before it; -1 when it stands in running text.
 */
function scopeStart(envs: BlockFacts['envs'], e: BlockFacts['envs'][number], text: string): number {
  let p = e.parent;
  // display math and layout (a figure, a centred box, a minipage) are no setting of their own
  while (p >= 0 && (envs[p].rows || LAYOUT_ENVS.test(envs[p].name))) p = envs[p].parent;
  if (p < 0) return -1;
  const scope = envs[p];
  // in a list, the item the display belongs to
  if (LIST_ENVS.test(scope.name)) {
    const item = text.lastIndexOf('\\item', e.start);
    return item >= scope.bodyStart ? item : scope.start;
  }
  if (!PROOF_ENVS.test(scope.name)) return scope.start;
  // a solution written inside its exercise (`\begin{problem} Let G be a group … \begin{sol}`): the exercise
  const outer = scope.parent >= 0 ? envs[scope.parent].name : undefined;
  if (outer !== undefined && !LIST_ENVS.test(outer) && !LAYOUT_ENVS.test(outer) && !SECTION_CONTAINERS.has(outer)) return envs[scope.parent].start;
  // the statement it proves: an environment of the same level ending just before it, else the
  // text before the proof since the last environment (`\paragraph{Exercise 4.2.5} Let R be a ring …`)
  let before: BlockFacts['envs'][number] | undefined;
  for (const x of envs) if (x.parent === scope.parent && !x.rows && x.end <= scope.start) before = x;
  if (before && scope.start - before.end < 200) return before.start;
  return Math.max(before ? before.end : 0, scope.start - SETTING_CHARS);
}

/** Relative items of a model block keyed for one macro signature, per (shared, immutable) facts. */
const keyedPerFacts = new WeakMap<BlockFacts, { sig: string; items: readonly BlockInput[] }>();
/**
 * The reading per block list (the model makes a new list on every edit): what was read, and the next block to
 * read; done when that is past the last. A reading past its deadline goes on from there.
 */
const readings = new WeakMap<readonly Block[], { sig: string; next: number; out: BlockInput[]; items: Map<Block, readonly BlockInput[]> }>();
/** The previous answer per document: blocks that did not move keep their items. */
const previous = new WeakMap<Doc, { blocks: readonly Block[]; sig: string; items: Map<Block, readonly BlockInput[]> }>();

/**
 * The display-math blocks of a document. Work is done once per model block (whose facts are
 * shared by content and immutable): a publish without an edit returns the last answer, and
 * after an edit the blocks the model kept in place keep their items, moved blocks get shifted
 * copies of their cached items, and blocks without math are skipped. Callers must not modify
 * the returned array or its items.
 */
export function mathBlocks(doc: Doc, macroSig = ''): BlockInput[] {
  return mathBlocksBy(doc, macroSig, Infinity)!;
}

/**
 * `mathBlocks`, or undefined when `deadline` (a `performance.now()` time) passed before every
 * block was read. What was read is kept (per block facts), so the next call goes on from there:
 * the server reads a large document in slices between requests.
 */
export function mathBlocksBy(doc: Doc, macroSig: string, deadline: number): BlockInput[] | undefined {
  const blocks = doc.blocks();
  // the next call goes on from the block this one stopped at: going over the blocks read
  // already, slice after slice, would make the reading of a large document quadratic
  let st = readings.get(blocks);
  if (st && st.sig === macroSig && st.next === blocks.length) return st.out;
  const prev = previous.get(doc);
  const reuse = prev && prev.sig === macroSig ? prev.items : undefined;
  if (!st || st.sig !== macroSig) {
    st = { sig: macroSig, next: 0, out: [], items: new Map() };
    readings.set(blocks, st);
  }
  let read = 0;
  for (; st.next < blocks.length; st.next++) {
    const b = blocks[st.next];
    if (b.facts.envs.length === 0) continue;
    let mine = reuse?.get(b);
    if (!mine) {
      let keyed = keyedPerFacts.get(b.facts);
      if (!keyed || keyed.sig !== macroSig) {
        // at least one block per call, so slices always make progress
        if (read++ > 0 && performance.now() > deadline) return undefined;
        const rel = blockMath(() => doc.latexText.slice(b.start, b.end), b.facts);
        keyed = { sig: macroSig, items: macroSig ? rel.map((m) => ({ ...m, key: `${m.key}:${macroSig}` })) : rel };
        keyedPerFacts.set(b.facts, keyed);
      }
      if (keyed.items.length === 0) continue;
      mine = keyed.items.map((m) => ({ ...m, start: m.start + b.start }));
    }
    st.items.set(b, mine);
    for (const m of mine) st.out.push(m);
  }
  previous.set(doc, { blocks, sig: macroSig, items: st.items });
  return st.out;
}

/** Macro definitions visible from a document: those of every document compiled with it. */
export function scopeMacros(ws: Workspace, doc: Doc): MacroDef[] {
  const out: MacroDef[] = [];
  for (const d of ws.scope(doc)) {
    for (const m of d.macros()) {
      if (m.theoremWrapper) continue;
      out.push({ name: m.name, nargs: m.nargs, optDefault: m.optDefault, body: m.body, cmd: m.cmd });
    }
  }
  return out;
}

/**
 * LaTeX as a typesetter without the project's preamble can show it: the macros in scope of each
 * document written out (unchanged where that runs away); each document's table is made once
 * per writer.
 */
export function macroWriter(ws: Workspace): (doc: Doc, latex: string) => string {
  const tables = new Map<Doc, MacroTable>();
  return (doc, latex) => {
    if (!latex.includes('\\')) return latex;
    let t = tables.get(doc);
    if (!t) { t = macroTable(scopeMacros(ws, doc), false); tables.set(doc, t); }
    return expandMacros(latex, t) ?? latex;
  };
}

export function macroSignature(defs: readonly MacroDef[]): string {
  return hashText(defs.map((d) => `${d.cmd}\u0001${d.name}\u0001${d.nargs}\u0001${d.optDefault ?? ''}\u0001${d.body}`).join('\u0002'));
}
