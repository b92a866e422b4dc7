// The math-aware tokenizer: the one implementation used by the server, by BM25 and by the
// exporter that writes training data for Python (which only ever sees ids), so training and
// inference cannot disagree. Macros are expanded first; math units (commands, letters, digits,
// symbols) map to `$`-prefixed tokens; text words map to word pieces (greedy longest match).
import { scanLatex, type RawToken } from './latexScanner.js';
import { expandMacros, readMacroDefinitions, type MacroTable } from './macroExpansion.js';
import { Vocabulary, UNK_ID, MUNK_ID, MCMD_ID, TCMD_ID } from './vocabulary.js';

export interface EncodeOptions {
  /** Stop after this many tokens (the scan stops too: long proofs cost only their prefix). */
  maxTokens?: number;
  /** Macros known from elsewhere (the document's preamble); definitions in the text are read too. */
  macros?: MacroTable;
}

/** The vocabulary string of a raw unit (before word-piece splitting of text words). */
export function unitString(t: RawToken): string {
  return t.kind === 'math' ? `$${t.text}` : t.text;
}

/** Raw units after macro expansion (used by the vocabulary builder and by tests). */
export function rawUnits(text: string, opts: EncodeOptions = {}, sink?: (t: RawToken) => boolean | void): RawToken[] {
  const expanded = prepare(text, opts.macros);
  const out: RawToken[] = [];
  scanLatex(expanded, sink ?? ((t) => { out.push(t); }));
  return out;
}

function prepare(text: string, macros?: MacroTable): string {
  if (!text.includes('\\')) return text;
  const defs = /\\(?:(?:re)?newcommand|providecommand|def|DeclareMathOperator)/.test(text)
    ? readMacroDefinitions(text, new Map(macros ?? []))
    : { macros: macros ?? new Map(), text };
  return defs.macros.size ? expandMacros(defs.text, defs.macros) : defs.text;
}

export class MathTokenizer {
  private readonly pieceCache = new Map<string, number[]>();

  constructor(readonly vocab: Vocabulary) {}

  static load(vocabFile: string): MathTokenizer {
    return new MathTokenizer(Vocabulary.load(vocabFile));
  }

  encode(text: string, opts: EncodeOptions = {}): number[] {
    const max = opts.maxTokens ?? Infinity;
    const ids: number[] = [];
    scanLatex(prepare(text, opts.macros), (t) => {
      if (t.kind === 'text' && t.type === 'word') { for (const id of this.wordPieces(t.text)) ids.push(id); }
      else ids.push(this.unitId(t));
      return ids.length < max;
    });
    if (ids.length > max) ids.length = max;
    return ids;
  }

  /** Token strings (for debugging and golden tests). */
  tokens(text: string, opts: EncodeOptions = {}): string[] {
    return this.encode(text, opts).map((id) => this.vocab.tokens[id]);
  }

  private unitId(t: RawToken): number {
    const id = this.vocab.id(unitString(t));
    if (id !== undefined) return id;
    if (t.kind === 'math') return t.type === 'cmd' || t.type === 'env' ? MCMD_ID : MUNK_ID;
    return t.type === 'cmd' || t.type === 'env' ? TCMD_ID : UNK_ID;
  }

  /** WordPiece: whole word if known, else greedy longest known prefix, then `##` pieces. */
  wordPieces(word: string): number[] {
    const hit = this.pieceCache.get(word);
    if (hit) return hit;
    const whole = this.vocab.id(word);
    let out: number[];
    if (whole !== undefined) out = [whole];
    else {
      out = [];
      const chars = Array.from(word.length > 40 ? word.slice(0, 40) : word);
      let i = 0;
      while (i < chars.length) {
        let j = chars.length;
        let id: number | undefined;
        for (; j > i; j--) {
          const piece = (i === 0 ? '' : '##') + chars.slice(i, j).join('');
          id = this.vocab.id(piece);
          if (id !== undefined) break;
        }
        if (id === undefined) { out.push(UNK_ID); i++; } else { out.push(id); i = j; }
      }
    }
    if (this.pieceCache.size > 50_000) this.pieceCache.clear();
    this.pieceCache.set(word, out);
    return out;
  }
}
