// Reference recovery in ProofWiki proofs. The scraped text lost its link targets, but proofs
// name the results they use in set phrases — "By Sum of Infinite Geometric Sequence:",
// "From Definition of Convergent Sequence, …", "Applying Cauchy's Theorem:" — whose words are
// the linked page's title. A cue at the start of a sentence or line opens a phrase, which ends
// at `:` `,` `.` `$` or the line end; the phrase (or each part of "X and Y") is looked up among
// the page titles, case-insensitively, "the" and "the definition of" forms included. Only exact
// title matches link, so precision is high and recall is what the phrases allow.
export interface TitleTable {
  /** Normalised title -> target (an index entry id). */
  lookup(normalised: string): number | undefined;
}

export function normaliseTitle(t: string): string {
  return t.toLowerCase().replace(/[’`]/g, "'").replace(/\s+/g, ' ').replace(/^the /, '').trim();
}

export function titleTable(titles: Iterable<[string, number]>): TitleTable {
  const m = new Map<string, number>();
  for (const [t, id] of titles) {
    const n = normaliseTitle(t);
    if (n.length >= 4 && !m.has(n)) m.set(n, id);
  }
  return { lookup: (n) => m.get(n) };
}

const CUE = /(?:^|\n|[.;]\s+|:\s+)(?:(?:and |thus |hence |then |so |therefore |now |but |it follows )?(?:by|from|using|applying|with|via|invoking))\s+(?:an? application of |application of |the result |the )?([^:,.;$\n()]{3,90}?)\s*(?=[:,.;$\n(]|\s+(?:we|it|that|this|there|and so|applied|gives|yields)\b)/gi;

export interface RecoveredRef { phrase: string; target: number; at: number }

/** The titles a proof names through cue phrases, in order of first mention. */
export function recoverReferences(text: string, titles: TitleTable, self?: number): RecoveredRef[] {
  const out: RecoveredRef[] = [];
  const seen = new Set<number>();
  CUE.lastIndex = 0;
  for (let m = CUE.exec(text); m; m = CUE.exec(text)) {
    const phrase = m[1].trim();
    const tries = [phrase, ...phrase.split(/\s+and\s+/i)];
    for (const p of tries) {
      const n = normaliseTitle(p);
      const def = /^(?:the )?definitions? of (.+)$/.exec(n);
      const cands = def ? [`definition:${def[1]}`, def[1]] : [n, `definition:${n}`];
      for (const c of cands) {
        const target = titles.lookup(c);
        if (target === undefined || target === self || seen.has(target)) continue;
        seen.add(target);
        out.push({ phrase: p, target, at: m.index });
        break;
      }
      if (p === phrase && out.length && out[out.length - 1].at === m.index) break; // the whole phrase linked
    }
  }
  return out;
}
