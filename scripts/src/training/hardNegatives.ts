// Hard negatives for contrastive training: candidates a query's words match (BM25) that are not
// its answers. In-batch negatives are random texts of the same source, told apart by topic
// alone; a lexically close non-answer is the kind of candidate retrieval actually confuses.
// Only the top few are drawn from, and the first `skip` ranks are passed over: the best lexical
// matches of a premise-selection query are often unlabelled answers.
import { Bm25Index } from 'mathsense-server/api/embeddings';
import { topK } from 'mathsense-server/api/util';

export interface NegativeQuery { ids: readonly number[]; exclude: ReadonlySet<number> }

/** For each query, up to `depth` pool indices ranked by BM25 after the first `skip`, excluded ones left out. */
export function bm25Negatives(pool: ReadonlyArray<readonly number[]>, queries: NegativeQuery[], depth = 20, skip = 2): number[][] {
  const bm = new Bm25Index();
  for (const d of pool) bm.add(d);
  return queries.map((q) => {
    const s = bm.scores(q.ids);
    const matched: number[] = [];
    for (let i = 0; i < s.length; i++) if (s[i] > 0 && !q.exclude.has(i)) matched.push(i);
    return topK(s, depth + skip, matched).slice(skip);
  });
}
