// Builds the vocabulary from a training corpus: frequent math units and text commands as
// whole tokens, frequent words whole, and word pieces (prefixes and `##` continuations) that
// cover the remaining words. Deterministic: ties break by string order.
import { rawUnits, unitString, SPECIAL_TOKENS, Vocabulary } from 'mathsense-server/api/embeddings';

export interface VocabBuildOptions {
  size: number;
  minUnitCount?: number;
  minWordCount?: number;
  pieceBudget?: number;
}

export class VocabCounter {
  readonly units = new Map<string, number>(); // math units, text commands/envs/symbols
  readonly words = new Map<string, number>();

  add(text: string): void {
    rawUnits(text, {}, (t) => {
      const m = t.kind === 'text' && t.type === 'word' ? this.words : this.units;
      const k = t.kind === 'text' && t.type === 'word' ? (t.text.length > 40 ? t.text.slice(0, 40) : t.text) : unitString(t);
      m.set(k, (m.get(k) ?? 0) + 1);
    });
  }
}

const byCount = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export function buildVocabulary(c: VocabCounter, o: VocabBuildOptions): Vocabulary {
  const minUnit = o.minUnitCount ?? 20;
  const minWord = o.minWordCount ?? 3;
  const pieceBudget = o.pieceBudget ?? 2000;
  const tokens: string[] = [...SPECIAL_TOKENS];
  const seen = new Set(tokens);
  const push = (t: string) => { if (!seen.has(t)) { seen.add(t); tokens.push(t); } };

  for (const [u] of [...c.units].filter(([, n]) => n >= minUnit).sort(byCount)) push(u);
  // base characters so every word of these scripts can be spelled in pieces
  const chars = new Map<string, number>();
  for (const [w, n] of c.words) for (const ch of w) chars.set(ch, (chars.get(ch) ?? 0) + n);
  for (const [ch] of [...chars].filter(([, n]) => n >= minUnit).sort(byCount)) { push(ch); push(`##${ch}`); }

  const wordBudget = o.size - tokens.length - pieceBudget;
  const words = [...c.words].filter(([, n]) => n >= minWord).sort(byCount);
  const kept = words.slice(0, Math.max(0, wordBudget));
  for (const [w] of kept) push(w);

  const pieces = new Map<string, number>();
  const add = (p: string, n: number) => { if (!seen.has(p)) pieces.set(p, (pieces.get(p) ?? 0) + n); };
  for (const [w, n] of c.words) {
    if (seen.has(w)) continue;
    const cs = Array.from(w);
    for (let k = 2; k <= Math.min(8, cs.length); k++) add(cs.slice(0, k).join(''), n);
    for (let i = 1; i < cs.length; i++) for (let k = 2; k <= 6 && i + k <= cs.length; k++) add(`##${cs.slice(i, i + k).join('')}`, n);
  }
  for (const [p] of [...pieces].sort(byCount).slice(0, Math.max(0, o.size - tokens.length))) push(p);
  return new Vocabulary(tokens);
}
