// Bibliographies: a small, forgiving BibTeX parser, the `\bibitem`s of `thebibliography`
// environments in documents, and a store of parsed .bib files (read synchronously by the CLI,
// asynchronously by the server, or taken from the editor when a .bib file is open).
//
// The parser never throws, is linear in the file length (every character is consumed once;
// an abandoned entry resumes where it stopped) and bounded (entries, key and value lengths).
// A missing closing brace damages one entry only: a line starting with `@type{` ends the
// value being read.
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { isBibFile, readTextFile, uriToPath } from './files.js';
import { nodeFileSystem, type FileSystem } from './fileSystem.js';
import type { DocumentView } from '../model/documentView.js';
import { FORM_FEED, isSpace as isTexSpace } from '../syntax/lexer.js';
import { createHash } from 'node:crypto';

export interface BibEntry {
  /** Entry type, lower case (`article`, `book`, …). */
  type: string;
  key: string;
  /** Field names in lower case; values with `@string` macros expanded and `#` concatenated, outer delimiters removed. */
  fields: Record<string, string>;
  /** Offset of the `@`. */
  start: number;
  end: number;
  keyStart: number;
  /** 0-based line and character of the key. */
  line: number;
  character: number;
  /** Keys of other entries named by `crossref`, `xref`, `xdata`, `related` or `set`, where they are written (renames edit them too). */
  keyRefs?: BibKeyRef[];
}

export interface BibKeyRef {
  field: string;
  key: string;
  offset: number;
  line: number;
  character: number;
}

// fields whose value is one entry key (crossref, xref) or a comma-separated list of them
const KEY_FIELDS = new Set(['crossref', 'xref', 'xdata', 'related', 'set']);

export interface BibFile {
  entries: BibEntry[];
  byKey: Map<string, BibEntry[]>;
  /** Set when the entry limit was reached (later entries are left out). */
  truncated: boolean;
}

export const MAX_BIB_ENTRIES = 200_000;
const MAX_KEY = 500;
const MAX_VALUE = 20_000;
const MAX_FIELD_NAME = 100;

const MONTHS: Record<string, string> = {
  jan: 'January', feb: 'February', mar: 'March', apr: 'April', may: 'May', jun: 'June',
  jul: 'July', aug: 'August', sep: 'September', oct: 'October', nov: 'November', dec: 'December',
};

// BibTeX's blanks: the lexer's and form feed (a page break some .bib files hold), which ends a key too
const isSpace = (c: number) => isTexSpace(c) || c === FORM_FEED;
const isIdent = (c: number) => c > 32 && c !== 123 && c !== 125 && c !== 40 && c !== 41 && c !== 44 && c !== 61 && c !== 34 && c !== 35 && c !== 64 && c !== 37 && c !== 126 && c !== 39;
// a line that starts a new entry: `@article{`, `@string(` (recovery point inside a broken value)
const ENTRY_START = /[ \t]*@[A-Za-z]+[ \t]*[{(]/y;

/** Parses BibTeX text. Never throws. */
export function parseBibtex(text: string, maxEntries = MAX_BIB_ENTRIES): BibFile {
  const p = new BibParser(text);
  const entries: BibEntry[] = [];
  let truncated = false;
  try {
    for (;;) {
      const e = p.next();
      if (e === null) break;
      if (e === undefined) continue;
      if (entries.length >= maxEntries) { truncated = true; break; }
      entries.push(e);
    }
  } catch {
    // defensive: a parser bug must not take a request down; keep what was read
  }
  const byKey = new Map<string, BibEntry[]>();
  for (const e of entries) {
    const l = byKey.get(e.key);
    if (l) l.push(e); else byKey.set(e.key, [e]);
  }
  // line/character of each key and key reference, in one forward pass (both come in text order)
  let line = 0;
  let lineStart = 0;
  let pos = 0;
  const advance = (to: number) => {
    while (pos < to) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0 || nl >= to) { pos = to; break; }
      line++;
      lineStart = nl + 1;
      pos = nl + 1;
    }
  };
  for (const e of entries) {
    advance(e.keyStart);
    e.line = line;
    e.character = e.keyStart - lineStart;
    for (const r of e.keyRefs ?? []) {
      advance(r.offset);
      r.line = line;
      r.character = r.offset - lineStart;
    }
  }
  return { entries, byKey, truncated };
}

class BibParser {
  private i = 0;
  private readonly n: number;
  private readonly strings = new Map<string, string>();

  constructor(private readonly text: string) { this.n = text.length; }

  /** The next entry; undefined for skipped material (`@string`, `@comment`, garbage), null at the end. */
  next(): BibEntry | undefined | null {
    const { text } = this;
    const at = text.indexOf('@', this.i);
    if (at < 0) { this.i = this.n; return null; }
    this.i = at + 1;
    this.skipSpace();
    const typeStart = this.i;
    while (this.i < this.n && this.i - typeStart < 50 && /[A-Za-z0-9_-]/.test(text[this.i])) this.i++;
    const type = text.slice(typeStart, this.i).toLowerCase();
    if (!type) return undefined;
    this.skipSpace();
    const open = text.charCodeAt(this.i);
    if (open !== 123 && open !== 40) return undefined;
    const close = open === 123 ? 125 : 41;
    this.i++;
    if (type === 'comment' || type === 'preamble') {
      if (open === 123) this.skipBalanced(); else this.skipTo(close);
      return undefined;
    }
    if (type === 'string') {
      const fields: Record<string, string> = Object.create(null) as Record<string, string>;
      this.fields(close, fields);
      for (const [k, v] of Object.entries(fields)) this.strings.set(k, v);
      return undefined;
    }
    this.skipSpace();
    const keyStart = this.i;
    while (this.i < this.n && this.i - keyStart < MAX_KEY) {
      const c = text.charCodeAt(this.i);
      if (c === 44 || c === close || isSpace(c) || c === 123 || c === 125 || c === 64) break;
      this.i++;
    }
    const key = text.slice(keyStart, this.i);
    if (!key) return undefined;
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    const keyRefs: BibKeyRef[] = [];
    this.fields(close, fields, keyRefs);
    return { type, key, fields, start: at, end: this.i, keyStart, line: 0, character: 0, ...(keyRefs.length ? { keyRefs } : {}) };
  }

  private skipSpace(): void {
    while (this.i < this.n && isSpace(this.text.charCodeAt(this.i))) this.i++;
  }

  /** Whether `this.i` (just after a newline) starts a new entry: a broken value ends there. */
  private atEntryStart(pos: number): boolean {
    ENTRY_START.lastIndex = pos;
    return ENTRY_START.test(this.text);
  }

  /** Reads `name = value, …` up to the closing delimiter (or a recovery point). */
  private fields(close: number, out: Record<string, string>, keyRefs?: BibKeyRef[]): void {
    const { text } = this;
    for (;;) {
      // separators and garbage up to the next field name
      while (this.i < this.n) {
        const c = text.charCodeAt(this.i);
        if (c === close) { this.i++; return; }
        if (c === 64 && this.lineStartBefore(this.i)) return; // `@` at line start: next entry
        if (isIdent(c) && c !== 64) break;
        this.i++;
        // `= value` without a field name: the value is read and dropped
        if (c === 61 && this.value(close) === undefined) return;
      }
      if (this.i >= this.n) return;
      const nameStart = this.i;
      while (this.i < this.n && isIdent(text.charCodeAt(this.i)) && this.i - nameStart < MAX_FIELD_NAME) this.i++;
      const name = text.slice(nameStart, this.i).toLowerCase();
      this.skipSpace();
      if (text.charCodeAt(this.i) !== 61) continue; // not `name =`: garbage, skip on
      this.i++;
      const valueStart = this.i;
      const value = this.value(close);
      if (value === undefined) return;
      if (name && !(name in out)) {
        out[name] = value;
        if (keyRefs && KEY_FIELDS.has(name)) this.keyRefsIn(name, valueStart, this.i, keyRefs);
      }
    }
  }

  /** The keys written in the value `text[from, to)` of a key field (a `@string` name is no key: skipped). */
  private keyRefsIn(field: string, from: number, to: number, out: BibKeyRef[]): void {
    const raw = this.text.slice(from, to);
    const open = raw.search(/[{"]/);
    if (open < 0) return;
    const end = raw.indexOf(raw[open] === '{' ? '}' : '"', open + 1);
    if (end < 0) return;
    const re = /[^\s,{}"]+/g;
    const body = raw.slice(open + 1, end);
    for (let m = re.exec(body); m; m = re.exec(body)) {
      out.push({ field, key: m[0], offset: from + open + 1 + m.index, line: 0, character: 0 });
    }
  }

  private lineStartBefore(pos: number): boolean {
    for (let k = pos - 1; k >= 0; k--) {
      const c = this.text.charCodeAt(k);
      if (c === 10) return true;
      if (c !== 32 && c !== 9) return false;
    }
    return true;
  }

  /** `part # part # …`; undefined when the entry broke off (end of text or a recovery point). */
  private value(close: number): string | undefined {
    const { text } = this;
    let out = '';
    for (;;) {
      this.skipSpace();
      if (this.i >= this.n) return undefined;
      const c = text.charCodeAt(this.i);
      let part: string | undefined;
      if (c === 123) {
        this.i++;
        part = this.braced(125);
      } else if (c === 34) {
        this.i++;
        part = this.braced(34);
      } else if (isIdent(c)) {
        const s = this.i;
        while (this.i < this.n && isIdent(text.charCodeAt(this.i)) && this.i - s < MAX_VALUE) this.i++;
        const word = text.slice(s, this.i);
        part = /^\d+$/.test(word) ? word : this.strings.get(word.toLowerCase()) ?? MONTHS[word.toLowerCase()] ?? word;
      } else if (c === close || c === 44) {
        return out; // empty value
      } else {
        this.i++;
        continue;
      }
      if (part === undefined) return undefined;
      if (out.length < MAX_VALUE) out += part.slice(0, MAX_VALUE - out.length);
      this.skipSpace();
      if (text.charCodeAt(this.i) === 35) { this.i++; continue; }
      return out;
    }
  }

  /**
   * Body of `{…}` (end = `}`) or `"…"` (end = `"`, braces inside protect quotes), nested braces kept.
   * BibTeX's rules, not syntax/lexer.ts readBraceGroup: `%` is no comment in a value, and a line
   * starting a new entry ends a broken one.
   */
  private braced(end: number): string | undefined {
    const { text } = this;
    const start = this.i;
    let depth = 0;
    while (this.i < this.n) {
      const c = text.charCodeAt(this.i);
      if (c === 92) { this.i += 2; continue; } // \{ \} \"
      if (c === 10 && this.atEntryStart(this.i + 1)) { this.i++; return undefined; }
      if (c === 123) depth++;
      else if (c === 125) {
        if (depth === 0) {
          if (end === 125) { const v = text.slice(start, Math.min(this.i, start + MAX_VALUE)); this.i++; return v; }
          this.i++; // stray `}` in a quoted value
          continue;
        }
        depth--;
      } else if (c === end && depth === 0) {
        const v = text.slice(start, Math.min(this.i, start + MAX_VALUE));
        this.i++;
        return v;
      }
      this.i++;
    }
    this.i = Math.min(this.i, this.n);
    return undefined;
  }

  private skipBalanced(): void {
    let depth = 0;
    const { text } = this;
    while (this.i < this.n) {
      const c = text.charCodeAt(this.i++);
      if (c === 123) depth++;
      else if (c === 125) { if (depth === 0) return; depth--; } else if (c === 10 && this.atEntryStart(this.i)) return;
    }
  }

  private skipTo(close: number): void {
    const k = this.text.indexOf(String.fromCharCode(close), this.i);
    this.i = k < 0 ? this.n : k + 1;
  }
}

// ---- \bibitem ----------------------------------------------------------------------------

export interface BibItem {
  key: string;
  /** `\bibitem[label]{key}`: the label. */
  label?: string;
  /** Offsets of the key in the document, and of the command. */
  start: number;
  end: number;
  cmdStart: number;
  /** The text of the item (up to the next item or `\end{thebibliography}`), capped. */
  text: string;
}

const BIBITEM = /\\bibitem\s*(?:\[([^\]\n]{0,300})\]\s*)?\{([^{}\n]{1,300})\}/g;
const itemCache = new WeakMap<object, { version: number; text: string; items: BibItem[] }>();

/** The `\bibitem`s of a document (outside comments), cached per document version. */
export function bibItems(doc: DocumentView): BibItem[] {
  if (doc.kind !== 'latex') return [];
  const text = doc.text;
  const cached = itemCache.get(doc);
  if (cached && cached.version === doc.version && cached.text === text) return cached.items;
  const items: BibItem[] = [];
  if (text.includes('\\bibitem')) {
    BIBITEM.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = BIBITEM.exec(text)) && items.length < 100_000) {
      const lineStart = text.lastIndexOf('\n', m.index) + 1;
      if (/(^|[^\\])%/.test(text.slice(lineStart, m.index))) continue;
      const raw = m[2];
      const key = raw.trim();
      if (!key) continue;
      const keyStart = m.index + m[0].length - 1 - raw.length + (raw.length - raw.trimStart().length);
      const after = m.index + m[0].length;
      let stop = text.indexOf('\\bibitem', after);
      const endEnv = text.indexOf('\\end{thebibliography}', after);
      if (stop < 0 || (endEnv >= 0 && endEnv < stop)) stop = endEnv;
      if (stop < 0 || stop - after > 2000) stop = Math.min(text.length, after + 2000);
      items.push({ key, label: m[1]?.trim() || undefined, start: keyStart, end: keyStart + key.length, cmdStart: m.index, text: text.slice(after, stop).replace(/(^|[^\\])%[^\n]*/g, '$1').trim() });
    }
  }
  itemCache.set(doc, { version: doc.version, text, items });
  return items;
}

// ---- the store ---------------------------------------------------------------------------

const hashOf = (text: string) => createHash('sha1').update(text).digest('hex');

export type BibState = { file: BibFile; text?: undefined; error?: undefined } | { error: string; file?: undefined };

/**
 * Parsed .bib files by path. A file open in the editor is kept as a TextDocument (its edits
 * applied incrementally) and wins over the disk version until it is closed.
 */
export class BibStore {
  private readonly files = new Map<string, BibState>();
  private readonly open = new Map<string, TextDocument>();
  /** A hash of the text each file was last read from disk with (refreshFromDisk). */
  private readonly readHash = new Map<string, string>();
  /** Advances whenever a file is added, changed or removed. */
  generation = 0;

  /** Where loadSync reads (the workspace's file system). */
  constructor(private readonly fs: FileSystem = nodeFileSystem) {}

  get(p: string): BibState | undefined {
    return this.files.get(p);
  }

  has(p: string): boolean {
    return this.files.has(p);
  }

  isOpen(p: string): boolean {
    return this.open.has(p);
  }

  /** The path of the .bib file open in the editor under `uri` (its entries are this store's, position for position). */
  openPath(uri: string): string | undefined {
    const p = isBibFile(uri) ? uriToPath(uri) : undefined;
    return p && this.open.has(p) ? p : undefined;
  }

  /** Text read from disk (ignored while the file is open in the editor). */
  setText(p: string, text: string): void {
    if (this.open.has(p)) return;
    this.files.set(p, { file: parseBibtex(text) });
    this.readHash.set(p, hashOf(text));
    this.generation++;
  }

  setError(p: string, error: string): void {
    if (this.open.has(p)) return;
    this.files.set(p, { error });
    this.generation++;
  }

  /** Reads a file synchronously (the CLI). */
  loadSync(p: string): BibState {
    const r = readTextFile(p, this.fs);
    if ('error' in r) this.setError(p, r.error); else this.setText(p, r.text);
    return this.files.get(p)!;
  }

  /** Forgets the disk version (it is read again when next needed); an open file keeps the editor's. */
  remove(p: string): void {
    if (this.open.has(p)) return;
    this.readHash.delete(p);
    if (this.files.delete(p)) this.generation++;
  }

  openDocument(p: string, uri: string, version: number, text: string): void {
    this.open.set(p, TextDocument.create(uri, 'bibtex', version, text));
    this.files.set(p, { file: parseBibtex(text) });
    this.generation++;
  }

  changeDocument(p: string, changes: readonly TextDocumentContentChangeEvent[], version: number): boolean {
    const d = this.open.get(p);
    if (!d) return false;
    const next = TextDocument.update(d, [...changes], version);
    this.open.set(p, next);
    this.files.set(p, { file: parseBibtex(next.getText()) });
    this.generation++;
    return true;
  }

  /** The editor's version of a file open in it. */
  openVersion(p: string): number | undefined {
    return this.open.get(p)?.version;
  }

  /**
   * Whether the disk still holds what a file not open in the editor was read from; when it does
   * not, the file is read again (Workspace#refreshFromDisk for documents). Open files: 'same'.
   */
  refreshFromDisk(p: string): 'same' | 'reloaded' | 'unreadable' {
    if (this.open.has(p)) return 'same';
    const r = readTextFile(p, this.fs);
    if ('error' in r) return 'unreadable';
    if (this.readHash.get(p) === hashOf(r.text)) return 'same';
    this.setText(p, r.text);
    return 'reloaded';
  }

  /** The editor closed the file: the disk version is read again when next needed. */
  closeDocument(p: string): void {
    if (!this.open.delete(p)) return;
    this.files.delete(p);
    this.generation++;
  }
}
