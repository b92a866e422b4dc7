// CLI commands on the index: `mathsense index info`, `mathsense search`, `mathsense
// disambiguate` (the index is built offline: scripts/src/bin/index.ts). JSON shapes (kept stable for checks):
//   search:       [{title, url, kind, score, source, licence, excerpt, match?}] and, for workspace
//                 results (--in DIR), {title, kind, score, source: "workspace", file, line,
//                 label (null when none), excerpt} (url: null); results whose title names the
//                 query (match: "title") first, then all by score, workspace and index on one scale
//   disambiguate: [{title, url, score, term, licence}], best first
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EncoderSession } from '../embeddings/encoderSession.js';
import { findModelsDir } from '../embeddings/modelFiles.js';
import { MathTokenizer } from '../embeddings/tokenizer.js';
import { Workspace, type Doc } from '../project/workspace.js';
import { findDocumentFiles, uriToPath } from '../project/files.js';
import { proofTarget, statements } from '../analysis/structure.js';
import { expandProofWikiMacros } from '../syntax/proofwikiMacros.js';
import { latexToPlain } from '../analysis/render.js';
import { provable } from '../project/theorems.js';
import { ENTRY_KINDS, IndexError, type EntryKind } from '../index/format.js';
import { defaultIndexDir } from '../index/paths.js';
import { candidateProofs, disambiguate, QUERY_TOKENS, search, type Result } from '../index/retrieval.js';
import { LoadedIndex, type Query } from '../index/store.js';
import { isNameQuery } from '../index/namedResults.js';
import { EmbeddingCache, embedThroughCache } from '../embeddings/embeddingCache.js';
import { userCacheDir } from '../util/cacheDir.js';
import { displayPath, markFormulas, parseLimit } from './options.js';
import { progressBar } from './progress.js';

type Out = (s: string) => void;
interface Io { out: Out; err: Out }

export const INDEX_USAGE = `  index info [--index DIR] [--json]     show what the index holds
  search --kind statement|proof|definition [--in DIR] [--limit N] [--index DIR] [--json] "<text>"
                                        ranked results from the index (and DIR's documents)
  search --kind equation [--in DIR] [--limit N] [--index DIR] [--models DIR] [--json] "<latex>"
                                        related equations in DIR's documents and the index
  disambiguate --term "<term>" --context "<text>" [--index DIR] [--limit N] [--json]
                                        the term's ProofWiki definitions ranked for the context
                                        (exit 3 when the term is not an ambiguous term of the index)
`;

/** `--flag`s, `--name value` or `--name=value` options and the rest, or what is wrong with them. */
export function parseOptions(args: string[], flags: string[], valued: string[]): { opts: Record<string, string | boolean>; rest: string[]; bad?: string } {
  const opts: Record<string, string | boolean> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (valued.includes(name)) {
      const v = eq > 0 && a.startsWith('--') ? a.slice(eq + 1) : args[++i];
      if (v === undefined) return { opts, rest, bad: `${name} needs a value` };
      opts[name.slice(2)] = v;
    } else if (flags.includes(a)) opts[a.slice(2)] = true;
    else if (a.startsWith('--')) return { opts, rest, bad: `unknown option ${a}` };
    else rest.push(a);
  }
  return { opts, rest };
}

/** How the index is built: the offline package's entry (scripts/src/bin/index.ts), from the repository. */
export const INDEX_BUILD_COMMAND = 'npm run index:build';

export async function indexCommand(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'info') {
    const p = parseOptions(rest, ['--json'], ['--index']);
    if (p.bad) { io.err(`mathsense index info: ${p.bad}\n`); return 2; }
    try {
      const idx = LoadedIndex.load(defaultIndexDir(p.opts.index as string | undefined));
      const h = idx.header;
      const eq = h.equations ? { count: h.equations.count, bytes: Object.values(h.equations.files).reduce((n, f) => n + f.bytes, 0), formulaEncoder: h.equations.modelVersion || null, buildMs: h.equations.buildMs, stats: h.equations.stats } : null;
      const info = { path: idx.dir, entries: h.count, bytes: idx.bytes, loadMs: Math.round(idx.loadMs), modelVersion: h.modelVersion, builtAt: h.builtAt, buildMs: h.buildMs, kinds: h.stats.perKind, sources: h.sources, stats: h.stats, equations: eq, licence: h.licence };
      io.out(p.opts.json ? JSON.stringify(info, null, 2) + '\n' : `${info.path}: ${h.count} entries (${(idx.bytes / 1e6).toFixed(1)} MB), loaded in ${info.loadMs} ms, model ${h.modelVersion || 'none (BM25 only)'}\n${h.sources.map((s) => `  ${s.name}: ${s.entries} entries, ${s.licence} — ${s.attribution}`).join('\n')}\n  ${JSON.stringify(h.stats)}\n${eq ? `  equations: ${eq.count} (${(eq.bytes / 1e6).toFixed(1)} MB), formula encoder ${eq.formulaEncoder ?? 'none (fingerprints and structure only)'}\n` : '  equations: none (rebuild with `npm run index:build` for related equations from ProofWiki)\n'}`);
      return 0;
    } catch (e) {
      io.err(`mathsense index info: ${(e as Error).message}\n`);
      return 1;
    }
  }
  if (sub === 'build') { io.err(`mathsense index build: the index is built by the offline package: ${INDEX_BUILD_COMMAND} (npm run setup does)\n`); return 2; }
  io.err(`mathsense index: expected 'info'\n${INDEX_USAGE}`);
  return 2;
}

/** Loads the index and a query encoder (the encoder only when the index has vectors from the same model). */
async function open(indexDir: string | undefined, io: Io, cmd: string): Promise<{ index: LoadedIndex; tok: MathTokenizer; embed: (texts: string[], progress?: Progress) => Promise<Array<Float32Array | undefined>>; close: () => Promise<void> } | undefined> {
  let index: LoadedIndex;
  try {
    index = LoadedIndex.load(defaultIndexDir(indexDir));
  } catch (e) {
    io.err(`mathsense ${cmd}: ${(e as Error).message}\n`);
    return undefined;
  }
  let enc: EncoderSession | undefined;
  if (index.header.modelVersion) {
    try {
      enc = await EncoderSession.load(findModelsDir(), { accelerator: 'cpu', threads: 2 });
      if (enc.info.version !== index.header.modelVersion) {
        io.err(`mathsense ${cmd}: the index was built with encoder ${index.header.modelVersion}, the model is ${enc.info.version}: BM25 only (rebuild with \`npm run index:build\`)\n`);
        await enc.release(); enc = undefined;
      }
    } catch (e) {
      io.err(`mathsense ${cmd}: encoder unavailable (${(e as Error).message}): BM25 only\n`);
    }
  }
  let cache: EmbeddingCache | undefined;
  const tok = enc?.tokenizer ?? MathTokenizer.load(path.join(findModelsDir() ?? '', 'tokenizer', 'vocab.json'));
  if (tok.vocab.hash !== index.header.vocabHash) { io.err(`mathsense ${cmd}: ${new IndexError('the index was built with another tokenizer: rebuild it with `npm run index:build`').message}\n`); return undefined; }
  return {
    index, tok,
    // vectors cached on disk as in the server: searching the same folder again embeds only what changed
    embed: async (texts, progress) => {
      if (!enc) return texts.map(() => undefined);
      cache ??= new EmbeddingCache(enc.info.version, enc.info.dim, userCacheDir());
      const e = enc;
      const out = await embedThroughCache(cache, texts, (part) => e.embedTexts(part.map((i) => texts[i])), progress && texts.length > 256 ? (done, todo) => progress('embedding workspace texts', done, todo) : undefined);
      cache.flush();
      if (progress && texts.length > 256) progress('done', 1, 1);
      return out;
    },
    close: async () => { await enc?.release(); },
  };
}

interface SearchRow { title: string; url: string | null; kind: EntryKind; score: number; source: string; licence?: string; excerpt: string; file?: string; line?: number; label?: string | null; match?: 'title' }

function indexRow(index: LoadedIndex, r: Result): SearchRow {
  const s = index.sourceOf(r.entry);
  return { title: r.entry.title, url: r.entry.url, kind: r.entry.kind, score: r.score, source: s.id, licence: r.entry.licence, excerpt: latexToPlain(expandProofWikiMacros(r.entry.text), 240), ...(r.named ? { match: 'title' as const } : {}) };
}

/**
 * Workspace statements / proofs / definitions of DIR, scored against the query on the index's
 * scale (LoadedIndex#externalScores), so that they merge with the index's results by score.
 */
async function workspaceRows(dir: string, kind: EntryKind, q: Query, index: LoadedIndex, tok: MathTokenizer, embed: (t: string[], progress?: Progress) => Promise<Array<Float32Array | undefined>>, progress: Progress): Promise<SearchRow[]> {
  const ws = new Workspace();
  for (const f of findDocumentFiles(path.resolve(dir))) ws.loadFile(f);
  const items: Array<{ doc: Doc; start: number; text: string; title: string; label?: string }> = [];
  for (const doc of ws.all()) {
    const envs = doc.envs();
    if (kind === 'proof') {
      envs.forEach((e, i) => {
        if (e.name !== 'proof') return;
        const link = proofTarget(ws, doc, i);
        const st = link.statement;
        const lab = st ? st.doc.labels().find((l) => l.start >= st.env.start && l.start <= st.env.end) : undefined;
        items.push({ doc, start: e.start, text: doc.text.slice(e.bodyStart, e.bodyEnd), title: st ? `Proof of ${st.kind?.title ?? 'statement'}${lab ? ` ${lab.name}` : ''}` : 'Proof', label: lab?.name });
      });
    } else {
      for (const st of statements(ws, doc)) {
        const isDef = /definition/i.test(st.kind.title);
        if ((kind === 'definition') !== isDef || (kind === 'statement' && !provable(st.kind))) continue;
        const lab = st.labels[0];
        items.push({ doc, start: st.env.start, text: doc.text.slice(st.env.bodyStart, st.env.bodyEnd), title: `${st.kind.title}${st.title ? ` (${st.title})` : ''}`, label: lab?.name });
      }
    }
  }
  if (items.length === 0) return [];
  const vecs = q.vec ? await embed(items.map((it) => it.text), progress) : undefined;
  const scores = index.externalScores(q, kind, items.map((it) => tok.encode(it.text, { maxTokens: QUERY_TOKENS })), vecs);
  return items.map((it, i) => ({
    title: it.title, url: null, kind, score: Math.round(scores[i] * 1000) / 1000, source: 'workspace',
    file: displayPath(uriToPath(it.doc.uri) ?? it.doc.uri), line: it.doc.positionAt(it.start).line + 1, label: it.label ?? null,
    excerpt: latexToPlain(it.text, 240),
  }));
}

type Progress = (phase: string, done: number, total: number) => void;

export async function searchCommand(args: string[], io: Io): Promise<number> {
  const p = parseOptions(args, ['--json'], ['--kind', '--in', '--limit', '--index']);
  if (p.bad) { io.err(`mathsense search: ${p.bad}\n${INDEX_USAGE}`); return 2; }
  const kind = (p.opts.kind as string | undefined) ?? 'statement';
  if (!ENTRY_KINDS.includes(kind as EntryKind)) { io.err(`mathsense search: --kind must be statement, proof, definition or equation\n`); return 2; }
  const text = p.rest.join(' ').trim();
  if (!text) { io.err(`mathsense search: no query text given\n${INDEX_USAGE}`); return 2; }
  const limit = parseLimit(p.opts.limit, 10, io.err, 'search');
  if (limit === undefined) return 2;
  if (p.opts.in && !fs.existsSync(p.opts.in as string)) { io.err(`mathsense search: no such folder: ${p.opts.in}\n`); return 2; }
  const o = await open(p.opts.index as string | undefined, io, 'search');
  if (!o) return 1;
  try {
    const latex = markFormulas(text);
    const [vec] = await o.embed([latex]);
    const q: Query = { ids: o.tok.encode(latex, { maxTokens: QUERY_TOKENS }), vec };
    // the query may be a result's name ("Fermat's little theorem"): titles that name it come first
    const hits = kind === 'proof' ? candidateProofs(o.index, q, { limit, name: text }) : search(o.index, q, kind as EntryKind, { limit, name: text, nameOnly: isNameQuery(text) });
    let rows: SearchRow[] = hits.map((r) => indexRow(o.index, r));
    if (p.opts.in) {
      const ws = await workspaceRows(p.opts.in as string, kind as EntryKind, q, o.index, o.tok, o.embed, progressBar(io.err, !!process.stderr.isTTY));
      // named index results keep their place at the top; everything else merges by score
      const named = rows.filter((r) => r.match === 'title');
      rows = [...named, ...[...ws, ...rows.filter((r) => r.match !== 'title')].sort((a, b) => b.score - a.score)].slice(0, limit);
    }
    if (p.opts.json) io.out(JSON.stringify(rows, null, 2) + '\n');
    else if (rows.length === 0) io.out('no results\n');
    else for (const [i, r] of rows.entries()) {
      io.out(`${String(i + 1).padStart(2)}. ${r.match === 'title' ? ' named' : r.score.toFixed(3)}  ${r.title}${r.match === 'title' ? '  [its title names the query]' : ''}\n    ${r.url ?? `${r.file}:${r.line}${r.label ? ` \\ref{${r.label}}` : ''}`}${r.licence ? `  (${r.licence})` : ''}\n    ${r.excerpt}\n`);
    }
    return 0;
  } finally {
    await o.close();
  }
}

export async function disambiguateCommand(args: string[], io: Io): Promise<number> {
  const p = parseOptions(args, ['--json'], ['--term', '--context', '--index', '--limit']);
  if (p.bad) { io.err(`mathsense disambiguate: ${p.bad}\n${INDEX_USAGE}`); return 2; }
  const term = (p.opts.term as string | undefined)?.trim();
  const context = ((p.opts.context as string | undefined) ?? p.rest.join(' ')).trim();
  if (!term) { io.err(`mathsense disambiguate: --term is required\n${INDEX_USAGE}`); return 2; }
  const limit = parseLimit(p.opts.limit, Number.MAX_SAFE_INTEGER, io.err, 'disambiguate');
  if (limit === undefined) return 2;
  const o = await open(p.opts.index as string | undefined, io, 'disambiguate');
  if (!o) return 1;
  try {
    const [vec] = await o.embed([context || term]);
    const q: Query = { ids: o.tok.encode(context || term, { maxTokens: QUERY_TOKENS }), vec, text: context || term };
    const res = disambiguate(o.index, o.tok, term, q, { limit });
    if (res.length === 0) {
      // a script must tell "unknown term" from an answer: its own exit code (1 is a missing index)
      if (p.opts.json) io.out('[]\n'); else io.out(`“${term}” is not an ambiguous term of the index (no ProofWiki disambiguation page)\n`);
      return 3;
    }
    const rows = res.map((r) => ({ title: r.entry.title, url: r.entry.url, score: r.score, term: r.entry.term, licence: r.entry.licence }));
    if (p.opts.json) io.out(JSON.stringify(rows, null, 2) + '\n');
    else for (const [i, r] of rows.entries()) io.out(`${String(i + 1).padStart(2)}. ${r.score.toFixed(3)}  ${r.title}\n    ${r.url}  (${r.licence})\n`);
    return 0;
  } finally {
    await o.close();
  }
}
