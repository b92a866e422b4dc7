// The display-math blocks of a document, as plain data for the checker (which may run in a
// worker thread): body text, row spans relative to the body, and the prose just before the
// display (for domain statements like "for x > 0"). The key identifies a block by content,
// so unchanged blocks keep their results across edits.
import type { Doc, Workspace } from '../project/workspace.js';
import { hashText } from './latexText.js';
import { contextSignature, NON_REAL_CONTEXT } from './verdict.js';
import type { MacroDef } from './macros.js';
import type { Span } from './steps.js';
import type { BlockFacts } from '../syntax/facts.js';
import type { Block } from '../model/documentView.js';

export interface BlockInput {
  key: string;
  /** Absolute offset of `text` in the document. */
  start: number;
  text: string;
  rows: Span[];
  context: string;
  /**
   * The setting of the display (the block's text up to SETTING_CHARS before it: the exercise or
   * theorem a proof is about) says the letters are not real numbers: group or ring elements,
   * operators. The checker then decides nothing (the near context alone misses "Let R be a ring
   * in which x^3 = x" thirty lines up).
   */
  nonReal?: boolean;
}

const CONTEXT_CHARS = 300;
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
    if (!/[=<>]|\\(le|ge|leq|geq|neq|ne|equiv|lt|gt)\b/.test(body)) continue;
    // the prose before the display (within the block) matters only through what it says about domains
    const context = text.slice(Math.max(0, e.start - CONTEXT_CHARS), e.start);
    const nonReal = NON_REAL_CONTEXT.test(text.slice(Math.max(0, e.start - SETTING_CHARS), e.start));
    const rows = e.rows.map((r) => ({ start: r.start - e.bodyStart, end: Math.min(r.end, e.bodyEnd) - e.bodyStart }));
    const key = hashText(`${body}\u0000${rows.map((r) => `${r.start}-${r.end}`).join(',')}\u0000${contextSignature(context)}${nonReal ? '\u0000N' : ''}`);
    out.push({ key, start: e.bodyStart, text: body, rows, context, ...(nonReal ? { nonReal } : {}) });
  }
  perBlock.set(facts, out);
  return out;
}

/** Relative items of a model block keyed for one macro signature, per (shared, immutable) facts. */
const keyedPerFacts = new WeakMap<BlockFacts, { sig: string; items: readonly BlockInput[] }>();
/** The last answer per block list (the model makes a new list on every edit). */
const perBlockList = new WeakMap<readonly Block[], { sig: string; out: BlockInput[] }>();
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
  const blocks = doc.blocks();
  const last = perBlockList.get(blocks);
  if (last && last.sig === macroSig) return last.out;
  const prev = previous.get(doc);
  const reuse = prev && prev.sig === macroSig ? prev.items : undefined;
  const items = new Map<Block, readonly BlockInput[]>();
  const out: BlockInput[] = [];
  for (const b of blocks) {
    if (b.facts.envs.length === 0) continue;
    let mine = reuse?.get(b);
    if (!mine) {
      let keyed = keyedPerFacts.get(b.facts);
      if (!keyed || keyed.sig !== macroSig) {
        const rel = blockMath(() => doc.latexText.slice(b.start, b.end), b.facts);
        keyed = { sig: macroSig, items: macroSig ? rel.map((m) => ({ ...m, key: `${m.key}:${macroSig}` })) : rel };
        keyedPerFacts.set(b.facts, keyed);
      }
      if (keyed.items.length === 0) continue;
      mine = keyed.items.map((m) => ({ ...m, start: m.start + b.start }));
    }
    items.set(b, mine);
    for (const m of mine) out.push(m);
  }
  perBlockList.set(blocks, { sig: macroSig, out });
  previous.set(doc, { blocks, sig: macroSig, items });
  return out;
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

export function macroSignature(defs: readonly MacroDef[]): string {
  return hashText(defs.map((d) => `${d.cmd}\u0001${d.name}\u0001${d.nargs}\u0001${d.optDefault ?? ''}\u0001${d.body}`).join('\u0002'));
}
