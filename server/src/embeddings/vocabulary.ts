// The token inventory shared by the server, BM25 and the training exporter. Ids are positions
// in `tokens`; the first ids are fixed special tokens. Namespaces keep math apart from text:
// math units start with `$` (`$x`, `$\frac`, `$+`), text words are plain lower-case strings,
// word pieces that continue a word start with `##`, text commands with `\`.
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', '[MUNK]', '[MCMD]', '[TCMD]'] as const;
export const PAD_ID = 0;
export const UNK_ID = 1;
/** Unknown math character / unknown math command / unknown text command. */
export const MUNK_ID = 5;
export const MCMD_ID = 6;
export const TCMD_ID = 7;

export interface VocabularyFile {
  format: 'mathsense-vocab';
  version: number;
  tokens: string[];
}

export class Vocabulary {
  private readonly ids = new Map<string, number>();
  /** Short content hash: models record it so a vocab/model mismatch is detected at load. */
  readonly hash: string;

  constructor(readonly tokens: readonly string[]) {
    tokens.forEach((t, i) => { if (!this.ids.has(t)) this.ids.set(t, i); });
    SPECIAL_TOKENS.forEach((t, i) => { if (tokens[i] !== t) throw new Error(`vocabulary: id ${i} must be ${t}, found ${tokens[i]}`); });
    this.hash = createHash('sha256').update(tokens.join('\n')).digest('hex').slice(0, 16);
  }

  get size(): number { return this.tokens.length; }
  id(token: string): number | undefined { return this.ids.get(token); }
  has(token: string): boolean { return this.ids.has(token); }

  static load(file: string): Vocabulary {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as VocabularyFile;
    if (raw.format !== 'mathsense-vocab' || !Array.isArray(raw.tokens)) throw new Error(`${file} is not a MathSense vocabulary`);
    return new Vocabulary(raw.tokens);
  }

  save(file: string): void {
    const body: VocabularyFile = { format: 'mathsense-vocab', version: 1, tokens: [...this.tokens] };
    // one token per line keeps diffs of the committed file readable
    fs.writeFileSync(file, `{"format":"mathsense-vocab","version":${body.version},"tokens":[\n${body.tokens.map((t) => JSON.stringify(t)).join(',\n')}\n]}\n`);
  }
}
