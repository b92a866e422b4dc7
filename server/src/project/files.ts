// File-system access for the project layer: URI/path conversion and a defensive text reader
// (binary files are refused, non-UTF-8 text falls back to Latin-1, huge files are capped).
// Reads go through a FileSystem (fileSystem.ts), the disk unless the caller gives another.
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodeFileSystem, type DirEntry, type FileSystem } from './fileSystem.js';

export const MAX_FILE_BYTES = 32 * 1024 * 1024;

export function pathToUri(p: string): string {
  let uri = uriOfPath.get(p);
  if (uri === undefined) {
    uri = pathToFileURL(path.resolve(p)).href;
    if (uriOfPath.size >= URI_MEMO) uriOfPath.clear();
    uriOfPath.set(p, uri);
  }
  return uri;
}

/** pathToUri's answers (a relative path is resolved against the working folder, which the server does not change): the include graph asks for the same few thousand on every rebuild. */
const uriOfPath = new Map<string, string>();
const URI_MEMO = 50_000;

export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  let p = pathOfUri.get(uri);
  if (p === undefined) {
    try {
      p = fileURLToPath(uri);
    } catch {
      p = null;
    }
    if (pathOfUri.size >= URI_MEMO) pathOfUri.clear();
    pathOfUri.set(uri, p);
  }
  return p ?? undefined;
}

/** uriToPath's answers (null: not a file path). */
const pathOfUri = new Map<string, string | null>();

/** The file name a URI ends with, decoded (`file:///a/My%20Notes.tex` → `My Notes.tex`). */
export function uriBaseName(uri: string): string {
  return decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
}

/** Canonical form of a file URI so that `file:///a%20b` and `file:///a b` agree. */
export function normalizeUri(uri: string): string {
  const p = uriToPath(uri);
  return p === undefined ? uri : pathToUri(p);
}

export type ReadResult = { text: string } | { error: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Decodes file bytes: UTF-8 when valid, else Latin-1; refuses binary content. */
export function decodeText(bytes: Uint8Array): ReadResult {
  const probe = bytes.subarray(0, Math.min(bytes.length, 8192));
  let nul = 0;
  for (const b of probe) if (b === 0) nul++;
  if (nul > 0) return { error: 'binary file (contains NUL bytes)' };
  try {
    let text = utf8.decode(bytes);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text };
  } catch {
    return { text: latin1.decode(bytes) };
  }
}

export function readTextFile(p: string, fs: FileSystem = nodeFileSystem): ReadResult {
  try {
    const st = fs.stat(p);
    if (!st.isFile) return { error: 'not a file' };
    if (st.size > MAX_FILE_BYTES) return { error: `file too large (${st.size} bytes)` };
    return decodeText(fs.readFile(p));
  } catch (e) {
    return { error: (e as Error).message };
  }
}

export async function readTextFileAsync(p: string, fs: FileSystem = nodeFileSystem): Promise<ReadResult> {
  try {
    const st = await fs.statAsync(p);
    if (!st.isFile) return { error: 'not a file' };
    if (st.size > MAX_FILE_BYTES) return { error: `file too large (${st.size} bytes)` };
    return decodeText(await fs.readFileAsync(p));
  } catch (e) {
    return { error: (e as Error).message };
  }
}

export function isFile(p: string, fs: FileSystem = nodeFileSystem): boolean {
  try {
    return fs.stat(p).isFile;
  } catch {
    return false;
  }
}

export const DOCUMENT_EXTENSIONS = ['.tex', '.ltx', '.latex', '.sty', '.cls', '.md', '.markdown'];

export function isDocumentPath(p: string): boolean {
  return DOCUMENT_EXTENSIONS.includes(path.extname(p).toLowerCase());
}

/** A BibTeX file (by its language or name): kept in the bibliography store, not as a document. */
export function isBibFile(uriOrPath: string, languageId?: string): boolean {
  return languageId === 'bibtex' || languageId === 'biblatex' || /\.bib$/i.test(uriOrPath);
}

export function isMarkdownPath(p: string): boolean {
  const ext = path.extname(p).toLowerCase();
  return ext === '.md' || ext === '.markdown';
}

const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', 'out', 'dist', '_minted', '.vscode-test']);

/** Lists document files under `root` (depth- and count-bounded, hidden folders skipped). */
export function findDocumentFiles(root: string, maxFiles = 20000, fs: FileSystem = nodeFileSystem): string[] {
  return findFilesWhere(root, isDocumentPath, maxFiles, fs);
}

/** Lists the files under `root` whose names `accept` takes, as findDocumentFiles walks. */
export function findFilesWhere(root: string, accept: (name: string) => boolean, maxFiles = 20000, fs: FileSystem = nodeFileSystem): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 12 || out.length >= maxFiles) return;
    let entries: DirEntry[];
    try {
      entries = fs.readDir(dir);
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (out.length >= maxFiles) return;
      const full = path.join(dir, e.name);
      if (e.isDirectory) {
        if (!e.name.startsWith('.') && !SKIP_DIRS.has(e.name)) walk(full, depth + 1);
      } else if (e.isFile && accept(e.name)) {
        out.push(full);
      }
    }
  };
  walk(root, 0);
  return out;
}
