// `mathsense library add|index|search|info|remove`: the author's library of papers (issue 41) from
// the command line. A library is a folder of LaTeX sources; its index lives in the user's cache
// (index/library/libraryStore.ts) unless `--store` names a folder. `add` records the folder in
// the user's list (`$XDG_CONFIG_HOME/mathsense/library.json`) and indexes it; `search` and
// `info` read the folders of `--library`, else the list.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EncoderSession } from '../embeddings/encoderSession.js';
import { findModelsDir } from '../embeddings/modelFiles.js';
import { MathTokenizer } from '../embeddings/tokenizer.js';
import { defaultStoreDir, indexLibrary, LoadedLibrary, readManifest, type LibraryHit } from '../index/library/libraryStore.js';
import type { LibraryKind } from '../index/library/papers.js';
import { latexToPlain } from '../analysis/render.js';
import { parseBibtex, type BibEntry } from '../project/bibliography.js';
import { bibtexFor, citation, entryPlace, matchingBibEntry, newKey, resultName } from '../index/library/citeLibraryResult.js';
import { progressBar } from './progress.js';
import { registeredFolders, writeRegistry } from '../index/library/registry.js';
import { LanceLibrary, syncLanceStore } from '../index/library/lanceStore.js';

export const LIBRARY_USAGE = `  library add <dir>                     record a folder of papers (LaTeX sources) in your library and index it
  library index <dir> [--store DIR] [--no-vectors] [--backend embedded|lancedb]
                                        index (again) a folder of papers; only new and changed papers are read;
                                        --backend lancedb --store PATH|URI: into a scaled store a group shares (npm run setup:scale)
  library search [--library DIR]... [--store DIR] [--backend embedded|lancedb] [--limit N] [--kind statement|definition|proof|equation] [--bib FILE] [--json] <query>
                                        search the library (the folders recorded by add, or --library);
                                        --bib: how to cite each result from that bibliography (\cite[Theorem~3.2]{key}, or a new entry)
  library info [--library DIR]... [--store DIR] [--json]
                                        papers, entries, encoder and store of each library folder
  library remove <dir>                  drop a folder from your library and delete its index
`;

interface Io { out: (s: string) => void; err: (s: string) => void }

/** `--name value` options and the rest, in order. */
function parse(args: readonly string[], valued: readonly string[], flags: readonly string[]): { opts: Map<string, string[]>; flags: Set<string>; rest: string[]; bad?: string } {
  const opts = new Map<string, string[]>();
  const set = new Set<string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = /^(--[a-z-]+)=(.*)$/.exec(a);
    const name = eq ? eq[1] : a;
    if (valued.includes(name)) {
      const v = eq ? eq[2] : args[++i];
      if (v === undefined) return { opts, flags: set, rest, bad: `${name} needs a value` };
      opts.set(name, [...opts.get(name) ?? [], v]);
    } else if (flags.includes(a)) set.add(a);
    else if (a.startsWith('--')) return { opts, flags: set, rest, bad: `unknown option ${a}` };
    else rest.push(a);
  }
  return { opts, flags: set, rest };
}

async function loadEncoder(io: Io): Promise<EncoderSession | undefined> {
  try {
    return await EncoderSession.load(findModelsDir(), { accelerator: 'auto', threads: 2 });
  } catch (e) {
    io.err(`mathsense library: encoder unavailable (${(e as Error).message}): keyword search only\n`);
    return undefined;
  }
}

const tokenizer = () => MathTokenizer.load(path.join(findModelsDir() ?? '', 'tokenizer', 'vocab.json'));

async function indexFolder(dir: string, store: string | undefined, vectors: boolean, io: Io, scaled?: string): Promise<number> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) { io.err(`mathsense library: no such folder: ${dir}\n`); return 2; }
  const enc = vectors ? await loadEncoder(io) : undefined;
  try {
    const tok = enc?.tokenizer ?? tokenizer();
    const bar = progressBar(io.err, !!process.stderr.isTTY);
    const encoder = enc && { version: enc.info.version, dim: enc.info.dim, embed: (texts: string[]) => enc.embedTexts(texts) };
    // a scaled store is written from the embedded one, which reads only new and changed papers
    const storeDir = scaled ? defaultStoreDir(dir) : store ?? defaultStoreDir(dir);
    const r = await indexLibrary(dir, storeDir, tok, encoder, (done, total) => bar('indexing papers', done, total));
    bar('done', 1, 1);
    io.out(`${r.papers} papers, ${r.entries} entries (${r.added} added, ${r.changed} changed, ${r.removed} removed, ${r.kept} unchanged) in ${r.seconds} s${encoder ? '' : ', keyword search only'}; store ${storeDir}\n`);
    for (const u of r.unreadable) io.err(`mathsense library: could not read ${u}\n`);
    if (scaled) {
      try {
        const s = await syncLanceStore(storeDir, scaled);
        io.out(`scaled store ${scaled}: ${s.written} papers written, ${s.removed} removed, ${s.entries} entries in ${s.seconds} s\n`);
      } catch (e) {
        io.err(`mathsense library: ${(e as Error).message}\n`);
        return 1;
      }
    }
    return 0;
  } finally {
    await enc?.release();
  }
}

/** The stores of the folders asked for (`--library`), else of the recorded ones. */
function storesOf(libraries: readonly string[] | undefined, store: string | undefined, io: Io): Array<{ folder: string; store: string }> | undefined {
  if (store) return [{ folder: path.resolve(libraries?.[0] ?? readManifest(store).manifest?.folder ?? store), store: path.resolve(store) }];
  const folders = libraries?.length ? libraries.map((l) => path.resolve(l)) : registeredFolders();
  if (folders.length === 0) { io.err('mathsense library: no library (add a folder with `mathsense library add DIR`, or name one with --library DIR)\n'); return undefined; }
  return folders.map((folder) => ({ folder, store: defaultStoreDir(folder) }));
}

/** `library search --backend lancedb --store URI`: the scaled store a group shares. */
async function searchScaled(store: string | undefined, query: string, limit: number, kind: LibraryKind | undefined, json: boolean, io: Io): Promise<number> {
  if (!store || !query) { io.err(`mathsense library search: --backend lancedb needs --store PATH|URI and a query\n`); return 2; }
  const lib = await LanceLibrary.open(store);
  if (!(lib instanceof LanceLibrary)) { io.err(`mathsense library: ${lib.problem}\n`); return 2; }
  const enc = await loadEncoder(io);
  try {
    const vec = enc ? (await enc.embedTexts([query]))[0] : undefined;
    const hits = await lib.search({ text: query, vec }, { limit, kinds: kind ? [kind] : undefined });
    if (json) io.out(`${JSON.stringify(hits.map((h) => ({ file: h.entry.file, line: h.entry.line, paper: h.paper.id, title: h.paper.meta.title ?? null, kind: h.entry.kind, name: h.entry.name, number: h.entry.number ?? null, score: Math.round(h.score * 1000) / 1000, text: h.entry.text })), null, 1)}\n`);
    else {
      hits.forEach((h, i) => io.out(`${String(i + 1).padStart(2)}. ${h.score.toFixed(3)}  ${h.paper.id} ${entryPlace(h.entry)}  ${resultName(h.entry)}${h.paper.meta.title ? ` — ${h.paper.meta.title}` : ''}\n      ${latexToPlain(h.entry.text, 160).replace(/\s+/g, ' ')}\n`));
      if (hits.length === 0) io.out('no results\n');
    }
    return 0;
  } finally {
    await enc?.release();
  }
}

export async function libraryCommand(args: readonly string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'add': case 'index': {
      const p = parse(rest, ['--store', '--backend'], ['--no-vectors']);
      const backend = p.opts.get('--backend')?.[0] ?? 'embedded';
      const bad = p.bad ?? (p.rest.length !== 1 ? 'expected one folder' : !['embedded', 'lancedb'].includes(backend) ? `unknown backend ${backend}` : backend === 'lancedb' && !p.opts.get('--store') ? '--backend lancedb needs --store PATH|URI' : undefined);
      if (bad) { io.err(`mathsense library ${sub}: ${bad}\n${LIBRARY_USAGE}`); return 2; }
      const dir = path.resolve(p.rest[0]);
      if (sub === 'add' && fs.existsSync(dir)) writeRegistry([...registeredFolders(), dir]);
      return indexFolder(dir, p.opts.get('--store')?.[0], !p.flags.has('--no-vectors'), io, backend === 'lancedb' ? p.opts.get('--store')![0] : undefined);
    }
    case 'remove': {
      if (rest.length !== 1) { io.err(`mathsense library remove: expected one folder\n${LIBRARY_USAGE}`); return 2; }
      const dir = path.resolve(rest[0]);
      const had = registeredFolders();
      writeRegistry(had.filter((f) => f !== dir));
      const store = defaultStoreDir(dir);
      const existed = fs.existsSync(store);
      fs.rmSync(store, { recursive: true, force: true });
      io.out(`${had.includes(dir) ? 'removed' : 'was not recorded:'} ${dir}${existed ? '; its index deleted' : ''}\n`);
      return 0;
    }
    case 'info': {
      const p = parse(rest, ['--library', '--store'], ['--json']);
      if (p.bad) { io.err(`mathsense library info: ${p.bad}\n`); return 2; }
      const stores = storesOf(p.opts.get('--library'), p.opts.get('--store')?.[0], io);
      if (!stores) return 2;
      const infos = stores.map(({ folder, store }) => {
        const { manifest, problem } = readManifest(store);
        if (!manifest) return { json: { folder, store, problem }, line: `${folder}: ${problem}`, ok: false };
        const info = { folder, store, papers: manifest.papers.length, entries: manifest.papers.reduce((a, x) => a + x.entries, 0), encoder: manifest.encoder || null, indexedAt: manifest.indexedAt };
        return { json: info, line: `${folder}: ${info.papers} papers, ${info.entries} entries, encoder ${info.encoder ?? 'none (keyword search)'}, indexed ${info.indexedAt}; store ${store}`, ok: true };
      });
      if (p.flags.has('--json')) io.out(`${JSON.stringify(infos.map((i) => i.json), null, 1)}\n`);
      else for (const i of infos) io.out(`${i.line}\n`);
      return infos.every((i) => i.ok) ? 0 : 1;
    }
    case 'search': {
      const p = parse(rest, ['--library', '--store', '--limit', '--kind', '--bib', '--backend'], ['--json']);
      const limit = Number(p.opts.get('--limit')?.[0] ?? '10');
      if (p.opts.get('--backend')?.[0] === 'lancedb') return searchScaled(p.opts.get('--store')?.[0], p.rest.join(' '), limit, p.opts.get('--kind')?.[0] as LibraryKind | undefined, p.flags.has('--json'), io);
      const kind = p.opts.get('--kind')?.[0] as LibraryKind | undefined;
      if (p.bad || p.rest.length === 0 || !(limit > 0) || (kind && !['statement', 'definition', 'proof', 'equation'].includes(kind))) { io.err(`mathsense library search: ${p.bad ?? 'expected a query'}\n${LIBRARY_USAGE}`); return 2; }
      const stores = storesOf(p.opts.get('--library'), p.opts.get('--store')?.[0], io);
      if (!stores) return 2;
      const libs = stores.map(({ folder, store }) => ({ folder, lib: LoadedLibrary.load(store) }));
      for (const l of libs) if ('problem' in l.lib) io.err(`mathsense library: ${l.folder}: ${l.lib.problem}\n`);
      const loaded = libs.filter((l): l is { folder: string; lib: LoadedLibrary } => !('problem' in l.lib));
      if (loaded.length === 0) return 2;
      const query = p.rest.join(' ');
      const enc = loaded.some((l) => l.lib.manifest.dim > 0) ? await loadEncoder(io) : undefined;
      try {
        const tok = enc?.tokenizer ?? tokenizer();
        const vec = enc ? (await enc.embedTexts([query]))[0] : undefined;
        const ids = tok.encode(query, { maxTokens: 512 });
        const hits = loaded.flatMap((l) => l.lib.search({ ids, vec, encoder: enc?.info.version }, { limit, kinds: kind ? [kind] : undefined }).map((h) => ({ ...h, folder: l.folder })))
          .sort((a, b) => b.score - a.score).slice(0, limit);
        const bibFile = p.opts.get('--bib')?.[0];
        let bib: BibEntry[] | undefined;
        if (bibFile) {
          try { bib = parseBibtex(fs.readFileSync(bibFile, 'utf8')).entries; } catch (e) { io.err(`mathsense library search: cannot read ${bibFile}: ${(e as Error).message}\n`); return 2; }
        }
        const taken = new Set((bib ?? []).map((e) => e.key));
        const citeOf = (h: LibraryHit): { cite: string; bibtex?: string } => {
          const m = matchingBibEntry(h.paper.meta, bib ?? []);
          if (m) return { cite: citation(h.entry, m.entry.key) };
          const key = newKey(h.paper.meta, taken);
          return { cite: citation(h.entry, key), bibtex: bibtexFor(h.paper.meta, key) };
        };
        if (p.flags.has('--json')) {
          io.out(`${JSON.stringify(hits.map((h) => ({ file: path.join(h.folder, h.entry.file), line: h.entry.line, ...(h.entry.page ? { page: h.entry.page } : {}), paper: h.paper.id, title: h.paper.meta.title ?? null, arxiv: h.paper.meta.arxiv ?? null, kind: h.entry.kind, name: h.entry.name, number: h.entry.number ?? null, numberFrom: h.entry.numberFrom ?? null, label: h.entry.label ?? null, score: Math.round(h.score * 1000) / 1000, text: h.entry.text, ...(bib ? citeOf(h) : {}) })), null, 1)}\n`);
        } else {
          hits.forEach((h, i) => {
            io.out(`${String(i + 1).padStart(2)}. ${h.score.toFixed(3)}  ${entryPlace(h.entry, path.join(h.folder, h.entry.file))}  ${resultName(h.entry)}${h.paper.meta.title ? ` — ${h.paper.meta.title}` : ''}\n      ${latexToPlain(h.entry.text, 160).replace(/\s+/g, ' ')}\n`);
            if (bib) { const c = citeOf(h); io.out(`      cite: ${c.cite}${c.bibtex ? ' (not in the bibliography; add:)' : ''}\n${c.bibtex ? c.bibtex.replace(/^/gm, '        ') : ''}`); }
          });
          if (hits.length === 0) io.out('no results\n');
        }
        return 0;
      } finally {
        await enc?.release();
      }
    }
    default:
      io.err(`mathsense library: expected add, index, search, info or remove\n${LIBRARY_USAGE}`);
      return 2;
  }
}
