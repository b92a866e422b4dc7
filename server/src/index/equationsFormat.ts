// The files of the bundled index's display equations (ProofWiki theorem statements and proofs),
// written by the index build next to the entries and searched with the workspace's equations:
//
//   equations.ndjson   one {e: entry id, latex} per line (read when shown)
//   equations.idx      Uint32[count + 1] byte offsets of the lines
//   equations.bin      Uint32[count] entry ids, Uint32[count + 1] token offsets, Uint32[count]
//                      distinct bigrams per equation, Uint32[K] bigram codes (sorted), Uint32[K + 1]
//                      posting offsets, Uint32[P] postings (equation ids per code, ascending),
//                      Uint16[T] canonical token ids (padded to 4 bytes), Float32[count] vector
//                      scales, Int8[count * dim] vectors
//   equations.keys.json  {tokens: token table, bigrams: K, difference: (key|null)[], sides: [[key, weight]][], identity: ids}
//
// Each equation keeps its page through the entry (title, URL, licence line). Vectors are the
// formula encoder's (dim 0 when the index was built without it).
export const EQUATION_FILES = { lines: 'equations.ndjson', offsets: 'equations.idx', data: 'equations.bin', keys: 'equations.keys.json' } as const;

/** Layout of the equation files; an index with another one is rebuilt, not misread. */
export const EQUATIONS_LAYOUT = 2;

export interface EquationsHeader {
  /** EQUATIONS_LAYOUT of the build (absent: layout 1, before bigram postings). */
  layout?: number;
  count: number;
  /** Formula-encoder vector size; 0 when built without the model. */
  dim: number;
  /** Formula-encoder version of the vectors ('' without). */
  modelVersion: string;
  featuresVersion: number;
  files: Record<keyof typeof EQUATION_FILES, { name: string; bytes: number }>;
  buildMs: number;
  stats: Record<string, number>;
}

export interface KeysFile { tokens: string[]; bigrams: number; difference: Array<string | null>; sides: Array<Array<[string, number]>>; identity: number[] }
