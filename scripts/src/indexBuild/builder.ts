// The index build (`npm run index:build`): reads the sources, recovers ProofWiki references,
// maps PS-ProofWiki statements onto ProofWiki pages, tokenizes (BM25 postings) and embeds (the
// encoder, batches of 64, with an on-disk embedding cache so a rebuild only embeds new texts),
// and writes the files of format.ts into a temporary folder that then replaces the index atomically.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EncoderSession, EmbeddingCache, embedThroughCache, MathTokenizer, loadEncoderFiles, findModelsDir } from 'mathsense-server/api/embeddings';
import { loadPsProofWiki } from '../data/psProofwiki.js';
import { textKey } from '../data/splits.js';
import { ENTRY_KINDS, FILES, INDEX_CONTENT_VERSION, INDEX_FORMAT, INDEX_FORMAT_VERSION, headerPath, quantise, type EntryKind, type IndexEntry, type IndexHeader, type IndexSource, recoverReferences, titleTable, type TermRankerModel, loadReferenceRankers, FIRST_TERM_ID, LoadedIndex, loadProofRanker, QUERY_TOKENS, writeNames, writeDigest } from 'mathsense-server/api/index';
import { readMathD2, readPlanetMath, readProofWiki, readStacks, SOURCES, type RawEntry, type SourceId } from './sources.js';
import { buildIndexEquations } from './equations.js';
import { trainTermRanker } from '../rankers/termFit.js';
import { computeHubsInWorkers, hubBackground, PROOF_HUBS_FILE, STATEMENT_HUBS_FILE, writeHubs } from './hubs.js';

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  modelsDir?: string;
  sources: SourceId[];
  /** Per-source cap (tests); undefined: everything. */
  slice?: number;
  /** Skip the encoders (BM25-only index; equations without vectors). */
  noVectors?: boolean;
  /** Skip the display equations (related equations search only the workspace). */
  noEquations?: boolean;
  /** Embedding cache folder; null disables it. */
  cacheDir?: string | null;
  /** ProofWiki's notation macros written out in what the tokenizer reads (sources.ts#readProofWiki); default true. */
  expandProofWikiMacros?: boolean;
  progress?: (phase: string, done: number, total: number) => void;
  log?: (msg: string) => void;
}

export interface BuildResult { header: IndexHeader; dir: string; bytes: number }

const MAX_BM25_TOKENS = 512;
const EXCERPT: Record<EntryKind, number> = { statement: 700, proof: 500, definition: 700 };

function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.lastIndexOf(' ', max);
  if (cut < max / 2) cut = max;
  // never end inside inline math
  if ((text.slice(0, cut).match(/(?<!\\)\$/g) ?? []).length % 2 === 1) cut = text.lastIndexOf('$', cut - 1);
  return text.slice(0, Math.max(cut, 0)).trimEnd() + ' …';
}

export async function buildIndex(o: BuildOptions): Promise<BuildResult> {
  const t0 = performance.now();
  const log = o.log ?? (() => {});
  const progress = o.progress ?? (() => {});
  const modelsDir = o.modelsDir ?? findModelsDir();
  const files = loadEncoderFiles(modelsDir, { verifyHash: !o.noVectors });
  const tok = MathTokenizer.load(files.vocabPath);

  // ---- read the sources
  const raw: RawEntry[] = [];
  const expandProofWikiMacros = o.expandProofWikiMacros ?? true;
  const readers: Record<SourceId, () => RawEntry[]> = {
    proofwiki: () => readProofWiki(o.dataDir, { ...o, expandProofWikiMacros }), mathd2: () => readMathD2(o.dataDir, o),
    planetmath: () => readPlanetMath(o.dataDir, o), stacks: () => readStacks(o.dataDir, o),
  };
  for (const s of o.sources) {
    progress(`reading ${s}`, 0, 1);
    const part = readers[s]();
    log(`${s}: ${part.length} entries`);
    raw.push(...part);
  }
  // ids: grouped by kind (statement, proof, definition), source order kept inside a kind
  const ordered = ENTRY_KINDS.flatMap((k) => raw.filter((r) => r.kind === k));
  const idOf = new Map(ordered.map((r, i) => [r.key, i]));
  const kinds = {} as Record<EntryKind, [number, number]>;
  let at = 0;
  for (const k of ENTRY_KINDS) { const n = ordered.filter((r) => r.kind === k).length; kinds[k] = [at, at + n]; at += n; }
  const usedSources = o.sources.map((s) => s);
  const entries: IndexEntry[] = ordered.map((r, id) => ({
    id, kind: r.kind, source: usedSources.indexOf(r.source), title: r.title, url: r.url, licence: r.licence,
    text: excerpt(r.text, EXCERPT[r.kind]),
    ...(r.term ? { term: r.term } : {}), ...(r.categories?.length ? { categories: r.categories } : {}),
    ...(r.authors?.length ? { authors: r.authors } : {}), ...(r.heldOut ? { heldOut: true } : {}),
  }));
  ordered.forEach((r, id) => {
    if (!r.statementKey) return;
    const s = idOf.get(r.statementKey);
    if (s === undefined) return;
    entries[id].statement = s;
    (entries[s].proofs ??= []).push(id);
  });

  // ---- ProofWiki references recovered from proof phrases
  const titles = titleTable(ordered.flatMap((r, id) => (r.pageTitle ? [[r.pageTitle, id] as [string, number]] : [])));
  let phrases = 0, proofsWithRefs = 0;
  ordered.forEach((r, id) => {
    if (r.kind !== 'proof' || r.source !== 'proofwiki') return;
    const refs = recoverReferences(r.text, titles, entries[id].statement);
    phrases += refs.length;
    if (refs.length) { proofsWithRefs++; entries[id].refs = refs.map((x) => x.target); }
  });
  log(`references: ${phrases} links recovered in ${proofsWithRefs} ProofWiki proofs`);
  // Stacks proofs: their \ref's, resolved to indexed results (those outside a slice are dropped)
  ordered.forEach((r, id) => {
    if (!r.refKeys?.length) return;
    const refs = [...new Set(r.refKeys.flatMap((k) => { const t = idOf.get(k); return t === undefined || t === entries[id].statement ? [] : [t]; }))];
    if (refs.length) entries[id].refs = refs;
  });

  // ---- PS-ProofWiki statements mapped onto ProofWiki pages by text (premises: train split only)
  let ps: { statements: number; matched: number; rate: number; premiseLinks: number } | undefined;
  if (o.sources.includes('proofwiki') && fs.existsSync(path.join(o.dataDir, 'ps-proofwiki', 'output'))) {
    const psData = loadPsProofWiki(o.dataDir);
    const byKey = new Map<string, number>();
    ordered.forEach((r, id) => { if (r.kind === 'statement' && r.source === 'proofwiki') { const k = textKey(r.text); if (k.length >= 20 && !byKey.has(k)) byKey.set(k, id); } });
    const map = mapPsStatements(psData.texts, byKey);
    let links = 0;
    for (const q of psData.train) {
      const s = map.get(q.id);
      if (s === undefined) continue;
      const prem = q.premises.map((p) => map.get(p)).filter((x): x is number => x !== undefined && x !== s);
      if (prem.length) { entries[s].premises = [...new Set(prem)]; links += prem.length; }
    }
    ps = { statements: psData.texts.size, matched: map.size, rate: Math.round((map.size / psData.texts.size) * 1000) / 10, premiseLinks: links };
    log(`PS-ProofWiki: ${map.size}/${psData.texts.size} statements mapped onto ProofWiki pages (${ps.rate} %), ${links} premise links (train split)`);
  }

  // ---- tokens, postings
  const V = tok.vocab.tokens.length;
  const ids: number[][] = new Array(ordered.length);
  const lengths = new Uint16Array(ordered.length);
  const avg: Record<EntryKind, number> = { statement: 0, proof: 0, definition: 0 };
  const df = new Uint32Array(V);
  for (let i = 0; i < ordered.length; i++) {
    if (i % 2000 === 0) progress('tokenizing', i, ordered.length);
    const r = ordered[i];
    ids[i] = tok.encode(r.tokenText ?? r.text, { maxTokens: MAX_BM25_TOKENS, macros: r.macros });
    lengths[i] = ids[i].length;
    avg[r.kind] += ids[i].length;
    for (const t of new Set(ids[i])) if (t >= FIRST_TERM_ID) df[t]++;
  }
  for (const k of ENTRY_KINDS) avg[k] = kinds[k][1] > kinds[k][0] ? avg[k] / (kinds[k][1] - kinds[k][0]) : 0;
  const termOffsets = new Uint32Array(V + 1);
  for (let t = 0; t < V; t++) termOffsets[t + 1] = termOffsets[t] + df[t];
  const P = termOffsets[V];
  const docs = new Uint32Array(P), tfs = new Uint16Array(P);
  const fill = termOffsets.slice(0, V);
  for (let i = 0; i < ordered.length; i++) {
    const tf = new Map<number, number>();
    for (const t of ids[i]) if (t >= FIRST_TERM_ID) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) { docs[fill[t]] = i; tfs[fill[t]] = Math.min(n, 65535); fill[t]++; }
  }

  // ---- embeddings
  let modelVersion = '';
  // the disambiguation ranker, fitted on MathD2's train split (seconds; absent data: none), with
  // the encoder's cosine when there are vectors
  let termRanker: TermRankerModel | undefined;
  const fitTermRanker = async (enc?: EncoderSession): Promise<void> => {
    if (!usedSources.includes('mathd2')) return;
    try {
      termRanker = await trainTermRanker(o.dataDir, tok, enc && { embed: (texts) => enc.embedTexts(texts), version: enc.info.version });
      const c = termRanker.cosine;
      log(`term ranker: train accuracy ${(termRanker.trainAccuracy * 100).toFixed(1)}% on ${termRanker.groups} definitions${c ? `; with the encoder's cosine ${(c.accuracy * 100).toFixed(1)}% (without ${(c.accuracyWithout * 100).toFixed(1)}%) on ${c.groups} it never trained on` : ''}`);
    } catch (e) {
      log(`term ranker not fitted${enc ? ' with the encoder (trying title features alone)' : ''}: ${(e as Error).message}`);
      if (enc) await fitTermRanker();
    }
  };
  let dim = files.config.dim;
  const matrix = new Int8Array(ordered.length * dim);
  const scales = new Float32Array(ordered.length);
  if (!o.noVectors) {
    const enc = await EncoderSession.load(modelsDir, { accelerator: 'cpu', threads: 2 });
    modelVersion = enc.info.version;
    dim = enc.info.dim;
    const cache = o.cacheDir === null ? undefined : new EmbeddingCache(modelVersion, dim, o.cacheDir);
    const max = files.config.maxTokens;
    const input = (i: number): number[] => {
      const r = ordered[i];
      const x = r.embedText !== undefined ? tok.encode(r.embedText, { maxTokens: max }) : ids[i].slice(0, max);
      return x.length ? x : enc.encode('');
    };
    const vectors = await embedThroughCache(cache, ordered.map((r) => `${r.macros ? 'macros\u0000' : ''}${r.embedText ?? r.tokenText ?? r.text}`), (part) => enc.embedIds(part.map(input)), (s, todo) => {
      if (s === 0) log(`embedding ${todo} texts (${ordered.length - todo} from the cache)`);
      progress('embedding', s, todo);
    }, (i) => (ordered[i].embedText !== undefined ? input(i).length : Math.min(max, ids[i].length)));
    vectors.forEach((v, i) => quantise(v, i, matrix, scales, dim));
    await fitTermRanker(enc);
    await enc.release();
  } else await fitTermRanker();

  // ---- write (into a temporary folder, then swap)
  progress('writing', 0, 1);
  const tmp = `${o.outDir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const lines = entries.map((e) => Buffer.from(JSON.stringify(e) + '\n', 'utf8'));
  const offsets = new Uint32Array(entries.length + 1);
  lines.forEach((b, i) => { offsets[i + 1] = offsets[i] + b.length; });
  const bufs = {
    entries: Buffer.concat(lines),
    offsets: Buffer.from(offsets.buffer),
    vectors: Buffer.concat([Buffer.from(scales.buffer), Buffer.from(matrix.buffer)]),
    bm25: Buffer.concat([Buffer.from(termOffsets.buffer), Buffer.from(docs.buffer), Buffer.from(tfs.buffer), Buffer.from(lengths.buffer)]),
  };
  for (const k of Object.keys(bufs) as Array<keyof typeof bufs>) fs.writeFileSync(path.join(tmp, FILES[k]), bufs[k]);
  // ---- display equations of the ProofWiki statements and proofs (related equations)
  const equations = o.noEquations ? undefined : await buildIndexEquations({
    dir: tmp, entries: ordered.map((r, id) => ({ id, kind: r.kind, source: r.source, text: r.text })),
    modelsDir, noVectors: o.noVectors, cacheDir: o.cacheDir, progress, log,
  });
  // the results-to-cite rankers, fitted by `npm run train:rankers` (absent: parameter-free fusion)
  const { rankers: referenceRankers, problem } = loadReferenceRankers(modelsDir);
  if (problem) log(`reference rankers not included: ${problem}`);
  const terms: Record<string, number[]> = {};
  ordered.forEach((r, id) => {
    if (r.kind !== 'definition') return;
    for (const t of new Set([r.term, ...(r.alsoTerms ?? [])])) if (t) (terms[t.toLowerCase()] ??= []).push(id);
  });
  const sources: IndexSource[] = usedSources.map((s) => ({ ...SOURCES[s], entries: entries.filter((e) => usedSources[e.source] === s).length }));
  let bytes = Object.values(bufs).reduce((n, b) => n + b.length, 0) + Object.values(equations?.files ?? {}).reduce((n, f) => n + f.bytes, 0);
  const header: IndexHeader = {
    format: INDEX_FORMAT, formatVersion: INDEX_FORMAT_VERSION, contentVersion: INDEX_CONTENT_VERSION, proofwikiMacrosExpanded: expandProofWikiMacros, modelVersion, vocabHash: tok.vocab.hash, vocabSize: V, dim,
    count: entries.length, kinds, avgLength: avg, sources,
    licence: 'Entries keep their own licence and source URL. ProofWiki and PlanetMath content: CC BY-SA 3.0 (show the source URL wherever an entry is shown); Stacks project: GNU FDL 1.2. This index is a derived work of that content and is distributed under the same terms.',
    builtAt: new Date().toISOString(), buildMs: 0, terms, ...(equations ? { equations } : {}), ...(termRanker ? { termRanker } : {}), ...(referenceRankers ? { referenceRankers } : {}),
    files: {
      entries: { name: FILES.entries, bytes: bufs.entries.length }, offsets: { name: FILES.offsets, bytes: bufs.offsets.length },
      vectors: { name: FILES.vectors, bytes: bufs.vectors.length }, bm25: { name: FILES.bm25, bytes: bufs.bm25.length },
    },
    stats: {
      perKind: Object.fromEntries(ENTRY_KINDS.map((k) => [k, kinds[k][1] - kinds[k][0]])),
      references: { links: phrases, proofsWithRefs },
      ...(ps ? { psProofWiki: ps } : {}),
      slice: o.slice ?? null,
    },
  };
  fs.writeFileSync(headerPath(tmp), JSON.stringify(header, null, 1));
  // every title and what each statement cites, and the titles keyed by name: read by the server,
  // which would otherwise parse every entry and key 45k titles itself
  {
    const built = LoadedIndex.load(tmp);
    header.digest = writeDigest(tmp, built);
    header.names = writeNames(tmp, built);
    built.close();
    bytes += header.digest.bytes + header.names.bytes;
  }
  // the candidate-proof ranker, fitted by `npm run train:rankers`, and its proofs' hub scores
  // (needs vectors: the ranker reads the encoder's cosine)
  const { ranker: proofRanker, problem: proofProblem } = o.noVectors ? { problem: 'built without vectors' } : loadProofRanker(modelsDir);
  if (proofRanker) {
    const built = LoadedIndex.load(tmp);
    const background = hubBackground(built, proofRanker.background);
    const tokens = (id: number) => ids[id].slice(0, QUERY_TOKENS);
    progress('hub scores', 0, 1);
    const { proof: hubs, statement: stHubs } = await computeHubsInWorkers(tmp, built, background, tokens);
    built.close();
    header.proofRanker = { ...proofRanker, hubs: { ...writeHubs(tmp, PROOF_HUBS_FILE, hubs), background: background.length }, statementHubs: writeHubs(tmp, STATEMENT_HUBS_FILE, stHubs) };
    bytes += header.proofRanker.hubs.bytes + header.proofRanker.statementHubs!.bytes;
    log(`proof ranker: hub scores of ${hubs.length / 2} proofs and ${stHubs.length / 2} statements against ${background.length} statements`);
  } else log(`proof ranker not included: ${proofProblem}`);
  header.buildMs = Math.round(performance.now() - t0);
  fs.writeFileSync(headerPath(tmp), JSON.stringify(header, null, 1));
  fs.rmSync(o.outDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(o.outDir), { recursive: true });
  fs.renameSync(tmp, o.outDir);
  progress('done', 1, 1);
  return { header, dir: o.outDir, bytes };
}

/**
 * PS-ProofWiki uuid -> ProofWiki statement entry: the normalised text prefix (splits.ts#textKey)
 * first, then a shorter prefix when it is unambiguous.
 */
export function mapPsStatements(texts: Map<string, string>, byKey: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  const byShort = new Map<string, number | -1>();
  for (const [k, id] of byKey) { const s = k.slice(0, 60); byShort.set(s, byShort.has(s) ? -1 : id); }
  for (const [uuid, text] of texts) {
    const k = textKey(text);
    if (k.length < 20) continue;
    let id = byKey.get(k);
    if (id === undefined && k.length >= 60) { const s = byShort.get(k.slice(0, 60)); if (s !== undefined && s >= 0) id = s; }
    if (id !== undefined) out.set(uuid, id);
  }
  return out;
}
