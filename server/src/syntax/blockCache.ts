// Block analysis results cached by block content. Identical blocks (an undo, a file opened
// twice, the same boilerplate in many chapters) are analysed once. Bounded by total text
// length so a long editing session cannot grow it without limit.
import type { BlockFacts } from './facts.js';
import { analyseBlock } from './blockAnalyser.js';

/** 53-bit string hash (cyrb53 construction); collisions are negligible at this scale. */
export function hash53(s: string): number {
  let h1 = 0xdeadbeef ^ s.length;
  let h2 = 0x41c6ce57 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

interface Entry { facts: BlockFacts; size: number }

export class BlockCache {
  private readonly map = new Map<string, Entry>();
  private size = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxChars = 64 * 1024 * 1024) {}

  get(text: string): BlockFacts {
    const key = text.length + ':' + hash53(text);
    const hit = this.map.get(key);
    if (hit) {
      this.hits++;
      // refresh LRU position
      this.map.delete(key);
      this.map.set(key, hit);
      return hit.facts;
    }
    this.misses++;
    const facts = analyseBlock(text);
    this.map.set(key, { facts, size: text.length });
    this.size += text.length;
    if (this.size > this.maxChars) this.evict();
    return facts;
  }

  private evict(): void {
    for (const [key, entry] of this.map) {
      if (this.size <= this.maxChars * 0.75) break;
      this.map.delete(key);
      this.size -= entry.size;
    }
  }

  clear(): void {
    this.map.clear();
    this.size = 0;
  }
}

export const sharedBlockCache = new BlockCache();
