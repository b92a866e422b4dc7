// A large document's blocks, built a slice at a time: the server answers requests between
// slices while a newly opened large file is read, instead of waiting for all of it. The
// blocks are those LatexDocument builds at once (the scan resumes at a boundary, where the
// splitter's state is empty), and they go to LatexDocument when done.
import { scanBoundaries } from '../syntax/blockSplitter.js';
import { sharedBlockCache, type BlockCache } from '../syntax/blockCache.js';
import type { Block } from './documentView.js';

/** Documents at least this long are built in slices; smaller ones are built at once, in about a keystroke's time. */
export const SLICED_OPEN_CHARS = 500_000;
/** Blocks built between two looks at the clock. */
const BLOCKS_PER_LOOK = 16;

export class SlicedBuild {
  private readonly built: Block[] = [];
  /** Start of the block the scan is in. */
  private from = 0;
  private done = false;

  constructor(readonly text: string, private readonly cache: BlockCache = sharedBlockCache) {}

  /** Builds blocks until `deadline` (a `performance.now()` time); true once every block is built. */
  step(deadline: number): boolean {
    if (this.done) return true;
    const { text } = this;
    let n = 0;
    let stopped = false;
    scanBoundaries(text, this.from, (p) => {
      this.built.push({ start: this.from, end: p, facts: this.cache.get(text.slice(this.from, p)) });
      this.from = p;
      if (++n % BLOCKS_PER_LOOK === 0 && performance.now() > deadline) { stopped = true; return false; }
      return true;
    });
    if (stopped) return false;
    this.built.push({ start: this.from, end: text.length, facts: this.cache.get(text.slice(this.from)) });
    this.done = true;
    return true;
  }

  /** Share of the text built so far, 0–1. */
  progress(): number {
    return this.text.length ? this.from / this.text.length : 1;
  }

  /** The blocks, once `step` returned true. */
  blocks(): Block[] {
    if (!this.done) throw new Error('SlicedBuild.blocks() before the build is done');
    return this.built;
  }
}
