// Builds the index's display equations (equationsFormat.ts in the server): extracts them from
// the ProofWiki entries, analyses (worker threads, with a feature cache), deduplicates, embeds with
// the formula encoder when there is one, and writes the files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { EmbeddingCache, embedThroughCache, EncoderSession, FORMULA_ENCODER_DIR, loadEncoderFiles } from 'mathsense-server/api/embeddings';
import { analyserSignature, FEATURES_VERSION, formulaEncoderInput, type EquationFeatures, TokenTable, quantise, type IndexEntry, EQUATION_FILES, EQUATIONS_LAYOUT, type EquationsHeader, type KeysFile, proofWikiEquations, analyseMany } from 'mathsense-server/api/index';

/** Same equation on more pages than this: only the first pages keep it (statements come first). */
const MAX_COPIES = 3;
/** Fewer canonical tokens than this: too small to be worth finding (`x = 0`). */
const MIN_TOKENS = 4;

export interface EquationSourceEntry { id: number; kind: IndexEntry['kind']; source: string; text: string }

/**
 * Extracts, analyses, deduplicates and embeds the equations of the ProofWiki entries, and
 * writes the files into `dir`. Returns the header section (undefined when there are none).
 */
export async function buildIndexEquations(o: {
  dir: string; entries: EquationSourceEntry[]; modelsDir?: string; noVectors?: boolean; cacheDir?: string | null; threads?: number;
  progress?: (phase: string, done: number, total: number) => void; log?: (m: string) => void;
}): Promise<EquationsHeader | undefined> {
  const t0 = performance.now();
  const progress = o.progress ?? (() => {});
  const log = o.log ?? (() => {});
  // ---- extract
  const found: Array<{ e: number; latex: string }> = [];
  for (const en of o.entries) {
    if (en.source !== 'proofwiki' || (en.kind !== 'statement' && en.kind !== 'proof')) continue;
    for (const latex of new Set(proofWikiEquations(en.text))) found.push({ e: en.id, latex });
  }
  if (found.length === 0) return undefined;
  // ---- analyse each distinct text once (worker threads; features of earlier builds from the cache)
  const distinct = [...new Set(found.map((x) => x.latex))];
  const cache = o.cacheDir === null || o.cacheDir === undefined ? undefined : new FeatureCache(o.cacheDir);
  const feats = new Map<string, EquationFeatures>();
  const todo: string[] = [];
  for (const latex of distinct) {
    const f = cache?.get(latex);
    if (f) feats.set(latex, f); else todo.push(latex);
  }
  log(`equations: analysing ${todo.length} formulas (${distinct.length - todo.length} from the cache)`);
  progress('analysing equations', 0, todo.length);
  const fresh = await analyseMany(todo, { threads: o.threads, progress: (d, t) => progress('analysing equations', d, t), log });
  todo.forEach((latex, i) => { feats.set(latex, fresh[i]); cache?.set(latex, fresh[i]); });
  cache?.flush();
  // ---- keep: not trivial, at most MAX_COPIES pages per canonical text
  const copies = new Map<string, number>();
  const kept = found.filter((x) => {
    const f = feats.get(x.latex)!;
    if (f.tokens.length < MIN_TOKENS) return false;
    const n = copies.get(f.canonical) ?? 0;
    copies.set(f.canonical, n + 1);
    return n < MAX_COPIES;
  });
  const count = kept.length;
  // ---- vectors (formula encoder, when present)
  let dim = 0;
  let modelVersion = '';
  let scales = new Float32Array(0);
  let matrix = new Int8Array(0);
  let hasModel = false;
  try { loadEncoderFiles(o.modelsDir, { model: FORMULA_ENCODER_DIR, verifyHash: false }); hasModel = true; } catch (e) { log(`equations: no formula encoder (${(e as Error).message}): fingerprints and structure only`); }
  if (hasModel && !o.noVectors) {
    const enc = await EncoderSession.load(o.modelsDir, { model: FORMULA_ENCODER_DIR, accelerator: 'cpu', threads: 2 });
    modelVersion = enc.info.version;
    dim = enc.info.dim;
    const cache = o.cacheDir === null ? undefined : new EmbeddingCache(modelVersion, dim, o.cacheDir);
    // sorted by length, so batches are of similar length: little padding to compute
    const texts = [...new Set(kept.map((x) => feats.get(x.latex)!.canonical))].sort((a, b) => a.length - b.length);
    const inputs = texts.map(formulaEncoderInput);
    const vs = await embedThroughCache(cache, inputs, (part) => enc.embedTexts(part.map((i) => inputs[i])), (s, todo) => {
      if (s === 0) log(`equations: embedding ${todo} formulas (${texts.length - todo} from the cache)`);
      if (s % 1280 === 0 && s < todo) progress('embedding equations', s, todo);
    });
    const vec = new Map(texts.map((t, i) => [t, vs[i]]));
    await enc.release();
    scales = new Float32Array(count);
    matrix = new Int8Array(count * dim);
    kept.forEach((x, i) => quantise(vec.get(feats.get(x.latex)!.canonical)!, i, matrix, scales, dim));
  }
  // ---- write
  const lines = kept.map((x) => Buffer.from(JSON.stringify({ e: x.e, latex: x.latex }) + '\n', 'utf8'));
  const offsets = new Uint32Array(count + 1);
  lines.forEach((b, i) => { offsets[i + 1] = offsets[i] + b.length; });
  const table = new TokenTable();
  const codes = kept.map((x) => table.codes(feats.get(x.latex)!.tokens, true));
  const tokIds = kept.map((x) => Uint16Array.from(feats.get(x.latex)!.tokens, (t) => table.id(t, true)!));
  const tOff = new Uint32Array(count + 1);
  tokIds.forEach((t, i) => { tOff[i + 1] = tOff[i] + t.length; });
  // bigram postings: a query touches only the equations that share a bigram with it
  const df = new Map<number, number>();
  for (const c of codes) for (const x of c) df.set(x, (df.get(x) ?? 0) + 1);
  const codeKeys = Uint32Array.from(df.keys()).sort();
  const postOff = new Uint32Array(codeKeys.length + 1);
  codeKeys.forEach((k, i) => { postOff[i + 1] = postOff[i] + df.get(k)!; });
  const slot = new Map<number, number>();
  codeKeys.forEach((k, i) => slot.set(k, postOff[i]));
  const postings = new Uint32Array(postOff[codeKeys.length]);
  codes.forEach((c, id) => { for (const x of c) { const at = slot.get(x)!; postings[at] = id; slot.set(x, at + 1); } });
  const perEq = Uint32Array.from(codes, (c) => c.length);
  const allTokens = new Uint16Array(tOff[count] + (tOff[count] % 2)); // 4-byte aligned after it
  tokIds.forEach((t, i) => allTokens.set(t, tOff[i]));
  const keys: KeysFile = { tokens: table.list, bigrams: codeKeys.length, difference: [], sides: [], identity: [] };
  kept.forEach((x, i) => {
    const f = feats.get(x.latex)!;
    keys.difference.push(f.difference ?? null);
    keys.sides.push(f.sides.map((s) => [s.key, s.weight]));
    if (f.identity) keys.identity.push(i);
  });
  const bufs: Record<keyof typeof EQUATION_FILES, Buffer> = {
    lines: Buffer.concat(lines),
    offsets: Buffer.from(offsets.buffer),
    data: Buffer.concat([Buffer.from(Uint32Array.from(kept, (x) => x.e).buffer), Buffer.from(tOff.buffer), Buffer.from(perEq.buffer), Buffer.from(codeKeys.buffer), Buffer.from(postOff.buffer), Buffer.from(postings.buffer), Buffer.from(allTokens.buffer), Buffer.from(scales.buffer), Buffer.from(matrix.buffer)]),
    keys: Buffer.from(JSON.stringify(keys)),
  };
  const files = {} as EquationsHeader['files'];
  for (const k of Object.keys(EQUATION_FILES) as Array<keyof typeof EQUATION_FILES>) {
    fs.writeFileSync(path.join(o.dir, EQUATION_FILES[k]), bufs[k]);
    files[k] = { name: EQUATION_FILES[k], bytes: bufs[k].length };
  }
  const withFp = kept.filter((x) => { const f = feats.get(x.latex)!; return !!f.difference || f.sides.length > 0; }).length;
  const buildMs = Math.round(performance.now() - t0);
  log(`equations: ${found.length} display equations found, ${distinct.length} distinct, ${count} kept (${withFp} with a fingerprint), ${dim ? `${dim}-dim vectors` : 'no vectors'}, ${(buildMs / 1000).toFixed(1)} s`);
  return { layout: EQUATIONS_LAYOUT, count, dim, modelVersion, featuresVersion: FEATURES_VERSION, files, buildMs, stats: { found: found.length, distinct: distinct.length, kept: count, withFingerprint: withFp } };
}

/**
 * Features of earlier builds, by text, in one append-only file per analyser signature
 * (`equations-<signature>.ndjson` in the embedding cache folder): a rebuild analyses only new texts.
 */
class FeatureCache {
  private readonly file: string;
  private readonly mem = new Map<string, EquationFeatures>();
  private pending: string[] = [];

  constructor(dir: string) {
    this.file = path.join(dir, `equations-${analyserSignature()}.ndjson`);
    try {
      fs.mkdirSync(dir, { recursive: true });
      if (!fs.existsSync(this.file)) return;
      for (const line of fs.readFileSync(this.file, 'utf8').split('\n')) {
        if (!line) continue;
        try { const r = JSON.parse(line) as { h: string; f: EquationFeatures }; this.mem.set(r.h, r.f); } catch { /* a torn last line */ }
      }
    } catch {
      this.mem.clear(); // unreadable: it is only a cache
    }
  }

  private key(latex: string): string { return createHash('sha1').update(latex).digest('base64'); }
  get(latex: string): EquationFeatures | undefined { return this.mem.get(this.key(latex)); }
  set(latex: string, f: EquationFeatures): void { this.pending.push(JSON.stringify({ h: this.key(latex), f })); }

  flush(): void {
    if (!this.pending.length) return;
    try { fs.appendFileSync(this.file, this.pending.join('\n') + '\n'); } catch { /* read-only: no cache */ }
    this.pending = [];
  }
}
