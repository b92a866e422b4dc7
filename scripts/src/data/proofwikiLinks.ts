// Which ProofWiki theorems a proof uses. The rendered pages keep a link's text and drop its
// target, but a ProofWiki link's text is the linked page's title ("By Sum of Infinite Geometric
// Sequence"), so a title spelled out in a proof is a citation of that page. Checked against
// the PS-ProofWiki train premises of the pages they map onto (premises come from the same
// links, but not every link is a premise): recall 75 %, precision 35 %, where the index's cue
// phrases (index/references.ts, "By …:", "From …,") find 37 % at 40 %. The encoder's training
// pairs use these links; the index keeps its cue phrases, because these links in its citation
// votes lowered PS-ProofWiki test references through the index from 22.4 to 20.9 mAP.
import type { ProofWikiTheorem } from './proofwiki.js';
import { textKey } from './splits.js';

const words = (s: string): string[] => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim().split(' ').filter(Boolean);

/**
 * Finds titles (two words or more) spelled out in a text; at each word the longest title wins.
 * One-word titles ("Pythagoras") are too often ordinary words in a proof to count.
 */
export class TitleMentions<T> {
  private readonly byTitle = new Map<string, T>();
  // the longest title starting with each word: most words start none and are passed at once
  private readonly longest = new Map<string, number>();

  constructor(titles: Iterable<[string, T]>) {
    for (const [title, target] of titles) {
      const w = words(title);
      if (w.length < 2) continue;
      // titles equal as words (one pair in the scrape: "…ODE/y'' - y = 0" and "…/y'' + y = 0"):
      // the later one is linked, as in the export the committed encoder was trained on
      this.byTitle.set(w.join(' '), target);
      this.longest.set(w[0], Math.max(this.longest.get(w[0]) ?? 0, w.length));
    }
  }

  /** The targets whose titles `text` spells out, in order of first mention, `self` left out. */
  find(text: string, self?: T): T[] {
    const found = new Set<T>();
    const w = words(text);
    for (let i = 0; i < w.length; i++) {
      for (let n = Math.min(this.longest.get(w[i]) ?? 0, w.length - i); n >= 2; n--) {
        const hit = this.byTitle.get(w.slice(i, i + n).join(' '));
        if (hit !== undefined) { if (hit !== self) found.add(hit); break; }
      }
    }
    return [...found];
  }
}

/** For each theorem of `citing` (default: all), the theorems its proofs name. Keyed by `base`. */
export function proofWikiCitations(theorems: ProofWikiTheorem[], citing = theorems): Map<string, ProofWikiTheorem[]> {
  const mentions = new TitleMentions(theorems.map((t): [string, ProofWikiTheorem] => [t.base, t]));
  return new Map(citing.map((t) => [t.base, [...new Set(t.proofs.flatMap((p) => mentions.find(p, t)))]]));
}

/**
 * For each of `held`, the index of the text most like it by word set (Jaccard, at least
 * `threshold`), or -1. Exact text keys miss near copies: PS-ProofWiki statements are ProofWiki
 * theorems re-rendered, and a third of them match no page exactly. Only pairs sharing a word
 * among the rarest few of each set can reach the threshold (prefix filtering), so common words
 * are never scanned.
 */
export function nearestCopies(texts: string[], held: string[], threshold: number): number[] {
  const df = new Map<string, number>();
  const sets = (xs: string[]) => xs.map((x) => { const s = [...new Set(words(x))]; for (const w of s) df.set(w, (df.get(w) ?? 0) + 1); return s; });
  const textSets = sets(texts);
  const heldSets = sets(held);
  const rarestFirst = (s: string[]) => s.sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
  const prefix = (s: string[]) => s.slice(0, s.length - Math.ceil(threshold * s.length) + 1);
  const postings = new Map<string, number[]>();
  textSets.forEach((s, i) => { for (const w of prefix(rarestFirst(s))) { let p = postings.get(w); if (!p) postings.set(w, p = []); p.push(i); } });
  const textLookup = textSets.map((s) => new Set(s));
  return heldSets.map((s) => {
    let best = -1;
    let bestJ = threshold;
    const seen = new Set<number>();
    for (const w of prefix(rarestFirst(s))) {
      for (const i of postings.get(w) ?? []) {
        if (seen.has(i)) continue;
        seen.add(i);
        let shared = 0;
        for (const x of s) if (textLookup[i].has(x)) shared++;
        const j = shared / (s.length + textSets[i].length - shared);
        if (j >= bestJ) { best = i; bestJ = j; }
      }
    }
    return best;
  });
}

/**
 * The ProofWiki theorems outside the hash test split that the encoder never trains on because
 * they are PS-ProofWiki dev/test statements (their proofs spell out the premise links those
 * splits evaluate): the pages whose text equals one, and the page most like each of the others
 * (word-set Jaccard >= 0.4). The exporter leaves them out; the proof ranker is fitted on them,
 * being statement–proof pairs the encoder has not seen.
 */
export function psHeldOutCopies(theorems: ProofWikiTheorem[], psHeld: Array<{ text: string }>): Set<ProofWikiTheorem> {
  const keys = new Set(psHeld.map((q) => textKey(q.text)));
  const exact = theorems.filter((t) => !t.heldOut && keys.has(textKey(t.statement)));
  const rest = theorems.filter((t) => !t.heldOut && !keys.has(textKey(t.statement)));
  const near = nearestCopies(rest.map((t) => t.statement), psHeld.map((q) => q.text), 0.4).filter((i) => i >= 0).map((i) => rest[i]);
  return new Set([...exact, ...near]);
}
