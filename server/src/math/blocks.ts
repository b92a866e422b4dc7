// The display-math blocks of a document, as plain data for the checker (which may run in a
// worker thread): body text, row spans relative to the body, and the prose just before the
// display (for domain statements like "for x > 0"). The key identifies a block by content,
// so unchanged blocks keep their results across edits.
import type { Doc, Workspace } from '../project/workspace.js';
import { hashText } from './latexText.js';
import { contextSignature } from './verdict.js';
import type { MacroDef } from './macros.js';
import type { Span } from './steps.js';
import type { BlockFacts } from '../syntax/facts.js';

export interface BlockInput {
  key: string;
  /** Absolute offset of `text` in the document. */
  start: number;
  text: string;
  rows: Span[];
  context: string;
}

const CONTEXT_CHARS = 300;

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
    const rows = e.rows.map((r) => ({ start: r.start - e.bodyStart, end: Math.min(r.end, e.bodyEnd) - e.bodyStart }));
    const key = hashText(`${body}\u0000${rows.map((r) => `${r.start}-${r.end}`).join(',')}\u0000${contextSignature(context)}`);
    out.push({ key, start: e.bodyStart, text: body, rows, context });
  }
  perBlock.set(facts, out);
  return out;
}

/**
 * The display-math blocks of a document. Work is done once per model block (whose facts are
 * shared by content), so a keystroke costs a walk over the blocks, not a rescan of the math.
 */
export function mathBlocks(doc: Doc, macroSig = ''): BlockInput[] {
  const text = doc.text;
  const out: BlockInput[] = [];
  for (const b of doc.blocks()) {
    if (b.facts.envs.length === 0) continue;
    for (const m of blockMath(() => text.slice(b.start, b.end), b.facts)) {
      out.push({ ...m, key: macroSig ? `${m.key}:${macroSig}` : m.key, start: m.start + b.start });
    }
  }
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
