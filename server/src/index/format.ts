// The on-disk index (build/index/): a small JSON header, entry metadata as NDJSON with a byte
// offset table (entries are parsed only when shown), an Int8 embedding matrix with one Float32
// scale per row, and BM25 postings over the math-aware tokenizer's ids. Everything but the
// header is read as typed-array views on one Buffer per file, so loading is a few file reads.
//
//   index.json      IndexHeader
//   entries.ndjson  one IndexEntry per line, in id order (entries grouped by kind)
//   entries.idx     Uint32[count + 1] byte offsets of the lines
//   vectors.bin     Float32[count] scales, then Int8[count * dim] (row i ≈ scale[i] * int8 row)
//   bm25.bin        Uint32[vocab + 1] term offsets, Uint32[P] doc ids (ascending per term),
//                   Uint16[P] term frequencies, Uint16[count] document lengths (tokens)
//   equations.*     optional: display equations of the ProofWiki entries (equationStore.ts)
//   digest.json     optional: every entry's title and what each statement cites (store.ts)
//   names.json      optional: entry titles keyed by the names people write for them (namedResults.ts)
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EquationsHeader } from './equationsFormat.js';
import type { TermRankerModel } from './termRanker.js';
import type { ReferenceRankers } from './referenceRanker.js';
import type { IndexProofRanker } from './proofRanker.js';

export const INDEX_FORMAT = 'mathsense-index';
export const INDEX_FORMAT_VERSION = 1;
/**
 * What the builder extracts (titles, equations, texts), bumped when that changes without the
 * format changing, so `npm run setup` rebuilds an index whose entries an older build wrote.
 * 2: PlanetMath titles completed, equation numbering prefixes stripped, accents as letters.
 * 3: ProofWiki's notation macros written out in what BM25 and the encoder read.
 * 4: result names keyed (names.json), titles and citations digested (digest.json) at build time.
 */
export const INDEX_CONTENT_VERSION = 4;

export type EntryKind = 'statement' | 'proof' | 'definition';
export const ENTRY_KINDS: EntryKind[] = ['statement', 'proof', 'definition'];

export interface IndexSource {
  id: string; // proofwiki | mathd2 | planetmath | stacks
  name: string;
  licence: string;
  attribution: string;
  home: string;
  entries: number;
}

export interface IndexHeader {
  format: typeof INDEX_FORMAT;
  formatVersion: number;
  /** INDEX_CONTENT_VERSION of the build (absent before version 2). */
  contentVersion?: number;
  /**
   * ProofWiki's notation macros (`\map`, `\paren`, …) were written out in standard LaTeX in the
   * text BM25 and the encoder read, so a query in the author's LaTeX meets them in the same words.
   */
  proofwikiMacrosExpanded?: boolean;
  /** Encoder version (hash of the .onnx) the vectors were made with; '' when built without vectors. */
  modelVersion: string;
  /** Vocabulary hash of the tokenizer the BM25 postings were made with. */
  vocabHash: string;
  vocabSize: number;
  dim: number;
  count: number;
  /** [start, end) of each kind's contiguous id range. */
  kinds: Record<EntryKind, [number, number]>;
  /** Average BM25 document length per kind. */
  avgLength: Record<EntryKind, number>;
  sources: IndexSource[];
  licence: string;
  builtAt: string;
  buildMs: number;
  /** Lower-cased ambiguous term -> definition entry ids (MathD2 disambiguation groups). */
  terms: Record<string, number[]>;
  /** Sizes checked on load (a truncated file is a corrupt index). */
  files: Record<'entries' | 'offsets' | 'vectors' | 'bm25', { name: string; bytes: number }>;
  stats: Record<string, unknown>;
  /** Display equations of the ProofWiki entries (absent in indexes built without them). */
  equations?: EquationsHeader;
  /** The term-disambiguation ranker fitted at build time (termRanker.ts); absent: BM25+encoder. */
  termRanker?: TermRankerModel;
  /** The results-to-cite rankers (referenceRanker.ts) copied from models/ at build; absent: direct match + votes. */
  referenceRankers?: ReferenceRankers;
  /** The candidate-proof ranker copied from models/ at build, with its hub file (indexHubs.ts); absent: BM25+encoder. */
  proofRanker?: IndexProofRanker;
  /** Every entry's title and what each statement cites (store.ts IndexDigest); absent: read from the entries. */
  digest?: { name: string; bytes: number };
  /** Titles keyed by name at build time (namedResults.ts), with the version of the keys; absent: keyed at run time. */
  names?: { name: string; bytes: number; version: number };
}

export interface IndexEntry {
  id: number;
  kind: EntryKind;
  /** Index into header.sources. */
  source: number;
  title: string;
  url: string;
  licence: string;
  /** Start of the text (LaTeX kept), for excerpts. */
  text: string;
  /** proof -> its statement entry. */
  statement?: number;
  /** statement -> its proof entries. */
  proofs?: number[];
  /** proof -> statement entries it names ("By Sum of Infinite Geometric Sequence:"; Stacks: its \ref's). */
  refs?: number[];
  /** statement -> premises from PS-ProofWiki (train split). */
  premises?: number[];
  term?: string;
  categories?: string[];
  authors?: string[];
  heldOut?: boolean;
}

export class IndexError extends Error {
  override name = 'IndexError';
}

export const FILES = { entries: 'entries.ndjson', offsets: 'entries.idx', vectors: 'vectors.bin', bm25: 'bm25.bin' } as const;

export function headerPath(dir: string): string {
  return path.join(dir, 'index.json');
}

/** Reads and checks the header; throws IndexError saying what to do. */
export function readHeader(dir: string): IndexHeader {
  const hp = headerPath(dir);
  if (!fs.existsSync(hp)) throw new IndexError(`no index at ${dir}: run \`npm run index:build\` (npm run setup does) or set mathsense.index.path`);
  let h: IndexHeader;
  try {
    h = JSON.parse(fs.readFileSync(hp, 'utf8'));
  } catch (e) {
    throw new IndexError(`index header ${hp} is corrupt (${(e as Error).message}); rebuild it with \`npm run index:build\``);
  }
  if (h?.format !== INDEX_FORMAT) throw new IndexError(`${hp} is not a MathSense index`);
  if (h.formatVersion !== INDEX_FORMAT_VERSION) throw new IndexError(`index ${dir} has format ${h.formatVersion}, this MathSense reads ${INDEX_FORMAT_VERSION}: rebuild it with \`npm run index:build\``);
  return h;
}

/** Row `i` of an Int8 matrix with one Float32 scale per row (the layout of every vector file). */
export function quantise(v: Float32Array, i: number, matrix: Int8Array, scales: Float32Array, dim: number): void {
  let m = 0;
  for (let j = 0; j < dim; j++) m = Math.max(m, Math.abs(v[j]));
  const s = m / 127 || 1;
  scales[i] = s;
  for (let j = 0; j < dim; j++) matrix[i * dim + j] = Math.round(v[j] / s);
}

/** A typed array over part of a file read into a Buffer (copied when the offset is not aligned). */
export function view<T>(buf: Buffer, ctor: { new (b: ArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number }, byteOffset: number, n: number): T {
  const abs = buf.byteOffset + byteOffset;
  if (abs % ctor.BYTES_PER_ELEMENT === 0) return new ctor(buf.buffer as ArrayBuffer, abs, n);
  const copy = new Uint8Array(n * ctor.BYTES_PER_ELEMENT);
  copy.set(buf.subarray(byteOffset, byteOffset + copy.length));
  return new ctor(copy.buffer, 0, n);
}
