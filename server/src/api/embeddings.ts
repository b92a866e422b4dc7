// The server's declared API for the offline package (scripts/), through package.json exports:
// the tokenizer, the encoder and its caches, BM25 and text preparation.
export { Bm25Index } from '../embeddings/bm25.js';
export { EmbeddingCache, embedThroughCache } from '../embeddings/embeddingCache.js';
export { EncoderSession, GPU_MIN_BATCH } from '../embeddings/encoderSession.js';
export { scanLatex } from '../embeddings/latexScanner.js';
export { type MacroTable, readMacroDefinitions } from '../embeddings/macroExpansion.js';
export { findModelsDir, FORMULA_ENCODER_DIR, loadEncoderFiles } from '../embeddings/modelFiles.js';
export { MathTokenizer, rawUnits, unitString } from '../embeddings/tokenizer.js';
export { SPECIAL_TOKENS, Vocabulary } from '../embeddings/vocabulary.js';
