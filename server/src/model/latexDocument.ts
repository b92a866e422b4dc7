// A LaTeX document kept as a list of analysed blocks. An edit re-splits only the region it
// touches: scanning restarts at a block shortly before the edit and stops as soon as a boundary
// lines up with an old boundary after the edit, whose blocks are then reused (shifted).
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { TextBuffer } from './textBuffer.js';
import { scanBoundaries } from '../syntax/blockSplitter.js';
import { sharedBlockCache, type BlockCache } from '../syntax/blockCache.js';
import { MAX_DEFINITION } from '../syntax/lexer.js';
import { DocumentView, blockIndexAt, type Block } from './documentView.js';
import { SlicedBuild } from './slicedBuild.js';

export interface EditStats {
  /** Blocks whose text was (re)analysed or fetched from the cache. */
  reanalysed: number;
  /** Blocks reused unchanged from the previous version. */
  reused: number;
  /**
   * Whether the replaced or new blocks hold labels, or project-level facts (includes,
   * theorem/macro definitions, magic comments, \documentclass). When neither, indexes
   * built from those facts need no update.
   */
  touchedLabels: boolean;
  touchedProject: boolean;
  /** Label names in the replaced blocks and in the new blocks (when touchedLabels). */
  removedLabels: string[];
  addedLabels: string[];
  /** Set when a change replaced the whole text (no block diff available). */
  fullReplace?: boolean;
}

function labelNames(blocks: readonly Block[]): string[] {
  const out: string[] = [];
  for (const b of blocks) for (const l of b.facts.labels) out.push(l.name);
  return out;
}

function hasLabels(b: Block): boolean {
  return b.facts.labels.length > 0;
}

function hasProjectFacts(b: Block): boolean {
  const f = b.facts;
  return f.includes.length > 0 || f.theoremDefs.length > 0 || f.macros.length > 0 || f.magic.length > 0 || f.hasDocumentClass;
}

/** Whether the text before `pos` ends with a blank line (a paragraph-break boundary). */
function startsAfterBlankLine(text: string, pos: number): boolean {
  let i = pos - 1;
  if (i < 0 || text.charCodeAt(i) !== 10) return false;
  i--;
  while (i >= 0) {
    const c = text.charCodeAt(i);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && c !== 13) return false;
    i--;
  }
  return true;
}

const DEFINITION_START = /\\(?:(?:re)?newcommand|providecommand|DeclareRobustCommand|(?:re)?newenvironment|[egx]?def|(?:New|Renew|Provide|Declare)Document(?:Command|Environment)|(?:re)?newrobustcmd|DeclareMathOperator)(?![A-Za-z@])/g;

/**
 * The earliest offset whose scan may look past `pos`: the first definition command within
 * MAX_DEFINITION characters before it (its arguments may run over blank lines), else `pos`.
 */
function definitionReach(text: string, pos: number): number {
  const from = Math.max(0, pos - MAX_DEFINITION);
  DEFINITION_START.lastIndex = 0;
  const m = DEFINITION_START.exec(text.slice(from, pos));
  return m ? from + m.index : pos;
}

/** Copies a substring so it does not pin the whole document text in memory. */
function detach(s: string): string {
  return (' ' + s).slice(1);
}

export class LatexDocument extends DocumentView {
  readonly kind = 'latex' as const;
  private blockList: Block[];
  lastEdit: EditStats = { reanalysed: 0, reused: 0, touchedLabels: true, touchedProject: true, removedLabels: [], addedLabels: [] };

  /** `built`: the blocks of `text` built already (model/slicedBuild.ts), else they are built now. */
  constructor(uri: string, text: string, version = 0, languageId = 'latex', private readonly cache: BlockCache = sharedBlockCache, built?: Block[]) {
    super(uri, text, version, languageId);
    this.blockList = built ? this.adopt(built) : this.buildAll(text);
    // line offsets now, not on the first keystroke (a document built in slices has them built in slices too)
    if (!built) void this.buffer.lineCount;
  }

  blocks(): readonly Block[] { return this.blockList; }

  /** Every block at once: the build a large document gets in slices (model/slicedBuild.ts), in one step. */
  private buildAll(text: string): Block[] {
    const build = new SlicedBuild(text, this.cache);
    build.step(Infinity);
    return this.adopt(build.blocks());
  }

  private adopt(built: Block[]): Block[] {
    this.lastEdit = { reanalysed: built.length, reused: 0, touchedLabels: true, touchedProject: true, removedLabels: [], addedLabels: [] };
    return built;
  }

  /**
   * Becomes `other`: the same document built apart, with its views warmed (a large document the
   * editor opened, session/slicedOpens.ts), so that what refers to this object sees the new text.
   */
  replaceWith(other: LatexDocument): void {
    this.takeOver(other);
    this.blockList = this.adopt(other.blockList);
  }

  /** Replaces the whole text (`built`: its blocks, built already). */
  setText(text: string, version: number, built?: Block[]): void {
    this.buffer = new TextBuffer(text, version, this.languageId);
    this.blockList = built ? this.adopt(built) : this.buildAll(text);
    this.invalidate();
  }

  /** Applies LSP content changes in order (incremental or full). */
  applyChanges(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    let touchedLabels = false;
    let touchedProject = false;
    let reanalysed = 0;
    let full = false;
    const removedLabels: string[] = [];
    const addedLabels: string[] = [];
    for (const change of changes) {
      if (!('range' in change) || !change.range) {
        this.setText(change.text, version);
        full = true;
      } else {
        // a reversed range is applied as its ordered form (as TextBuffer#update does)
        const a = this.buffer.offsetAt(change.range.start);
        const b = this.buffer.offsetAt(change.range.end);
        const start = Math.min(a, b);
        const oldEnd = Math.max(a, b);
        this.buffer.update([change], version);
        this.applyEdit(start, oldEnd, change.text.length);
      }
      touchedLabels ||= this.lastEdit.touchedLabels;
      touchedProject ||= this.lastEdit.touchedProject;
      reanalysed += this.lastEdit.reanalysed;
      removedLabels.push(...this.lastEdit.removedLabels);
      addedLabels.push(...this.lastEdit.addedLabels);
    }
    // a full replacement has no block diff: the label index must be rebuilt (empty lists + touched)
    this.lastEdit = {
      reanalysed, reused: this.blockList.length - reanalysed, touchedLabels: touchedLabels || full, touchedProject: touchedProject || full,
      removedLabels: full ? [] : removedLabels, addedLabels: full ? [] : addedLabels,
    };
    if (full) this.lastEdit.fullReplace = true;
    // version bumps even for an empty change list
    if (this.buffer.version !== version) this.buffer.update([], version);
    this.invalidate();
  }

  /**
   * Re-splits after the text (already updated) replaced old [start, oldEnd) with
   * `insertedLength` characters.
   */
  private applyEdit(start: number, oldEnd: number, insertedLength: number): void {
    const text = this.text;
    const old = this.blockList;
    const delta = insertedLength - (oldEnd - start);
    const newEnd = start + insertedLength;
    // first affected block: the one containing `start`, minus one (an edit at a block's
    // head can merge it with its predecessor, e.g. deleting the blank line between them)
    let first = blockIndexAt(old, start);
    if (first > 0) first--;
    // the splitter looks ahead at most to the next blank line, except over a definition's
    // arguments (which may hold blank lines, up to MAX_DEFINITION characters): restarting after
    // a blank line at least that far before the edit is exact; blocks that begin at a
    // sectioning command may depend on the one before
    const reach = definitionReach(text, start);
    while (first > 0 && (!startsAfterBlankLine(text, old[first].start) || old[first].start > reach)) first--;
    const scanFrom = old[first].start;
    // candidate resync points: old block starts at or after the edit's old end
    let j = first + 1;
    while (j < old.length && old[j].start < oldEnd) j++;
    const newStarts: number[] = [scanFrom];
    let resync = -1;
    scanBoundaries(text, scanFrom, (p) => {
      newStarts.push(p);
      if (p < newEnd) return true;
      while (j < old.length && old[j].start + delta < p) j++;
      if (j < old.length && old[j].start + delta === p) { resync = j; return false; }
      return true;
    });
    const blocks: Block[] = old.slice(0, first);
    const lastNew = resync >= 0 ? newStarts.length - 1 : newStarts.length;
    let reanalysed = 0;
    for (let k = 0; k < lastNew; k++) {
      const s = newStarts[k];
      const e = k + 1 < newStarts.length ? newStarts[k + 1] : text.length;
      blocks.push({ start: s, end: e, facts: this.cache.get(detach(text.slice(s, e))) });
      reanalysed++;
    }
    if (resync >= 0) {
      for (let k = resync; k < old.length; k++) {
        const b = old[k];
        blocks.push(delta === 0 ? b : { start: b.start + delta, end: b.end + delta, facts: b.facts });
      }
    }
    if (blocks.length === 0) blocks.push({ start: 0, end: 0, facts: this.cache.get('') });
    const removed = old.slice(first, resync >= 0 ? resync : old.length);
    const added = blocks.slice(first, first + reanalysed);
    this.blockList = blocks;
    this.lastEdit = {
      reanalysed, reused: blocks.length - reanalysed,
      touchedLabels: removed.some(hasLabels) || added.some(hasLabels),
      touchedProject: removed.some(hasProjectFacts) || added.some(hasProjectFacts),
      removedLabels: labelNames(removed),
      addedLabels: labelNames(added),
    };
  }
}
