// Hard negatives for contrastive training: candidates a query's words match (BM25) that are not
// its answers. In-batch negatives are random texts of the same source, told apart by topic
// alone; a lexically close non-answer is the kind of candidate retrieval actually confuses.
// Only the top few are drawn from, and the first `skip` ranks are passed over: the best lexical
// matches of a premise-selection query are often unlabelled answers.
import { Bm25Index } from './bm25.js';

export interface NegativeQuery { ids: readonly number[]; exclude: ReadonlySet<number> }

/** For each query, up to `depth` pool indices ranked by BM25 after the first `skip`, excluded ones left out. */
export function bm25Negatives(pool: ReadonlyArray<readonly number[]>, queries: NegativeQuery[], depth = 20, skip = 2): number[][] {
  const bm = new Bm25Index();
  for (const d of pool) bm.add(d);
  const want = depth + skip;
  return queries.map((q) => {
    const s = bm.scores(q.ids);
    const top: number[] = [];
    for (let i = 0; i < s.length; i++) {
      if (s[i] <= 0 || q.exclude.has(i)) continue;
      if (top.length === want && s[i] <= s[top[want - 1]]) continue;
      let k = Math.min(top.length, want - 1);
      top[k] = i;
      while (k > 0 && s[top[k - 1]] < s[i]) { top[k] = top[k - 1]; top[k - 1] = i; k--; }
    }
    return top.slice(skip);
  });
}
