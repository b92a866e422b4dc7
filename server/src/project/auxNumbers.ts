// Numbers from the last LaTeX run: the `.aux` file LaTeX writes beside a root document (or in a
// `build/`, `out/` folder) records every label's number and page, `\newlabel{lem:key}{{2.3}{5}}`;
// hyperref adds the title and anchor (`{{2.3}{5}{Key lemma}{lemma.2.3}{}}`), cleveref the kind
// (`\newlabel{lem:key@cref}{{[lemma][3][2]2.3}{[1][5][]5}}`), and `\@input{chap.aux}` chains the
// chapters' files. Read when asked, re-read when a file's time stamp changes; older than the
// sources it describes, it is "at last compilation". No `.aux`: nothing.
import * as path from 'node:path';
import type { Doc, Workspace } from './workspace.js';
import { uriToPath } from './files.js';
import type { FileSystem } from './fileSystem.js';
import { printedName, type NameStyle } from './printedNames.js';
import { texText } from './texText.js';

export interface AuxLabel {
  /** As LaTeX prints it: `2.3`, `(a)`, `IV` (symbols and macros dropped: printedNames.ts#texText writes them out). */
  number: string;
  /** The number as the `.aux` has it (`3A$^{\dagger }$`). */
  numberTex?: string;
  page?: string;
  /** hyperref's name of the target (a section's or an environment's title), when it has one. */
  title?: string;
  /** The counter or cleveref type (`lemma`, `equation`, `section`), when the file says. */
  kind?: string;
}

export interface AuxNumbers {
  labels: ReadonlyMap<string, AuxLabel>;
  /** The root's `.aux`. */
  file: string;
  /** The `.aux` is older than some source of the project: numbers are from the last compilation. */
  stale: boolean;
}

/**
 * The first balanced brace group at or after `i` (skipping spaces): [content, end]. Not
 * syntax/lexer.ts readBraceGroup, which would skip from a `%` to the line's end: TeX writes the
 * .aux, with no comments of an author's, and a `%` in it is read as written.
 */
function group(s: string, i: number): [string, number] | undefined {
  while (s[i] === ' ') i++;
  if (s[i] !== '{') return undefined;
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === '\\') { j++; continue; }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return [s.slice(i + 1, j), j + 1];
  }
  return undefined;
}

/** TeX of a number or title as text: `{\relax }`, `\textup {(a)}`, braces and spacing dropped. */
function plain(t: string): string {
  return t
    .replace(/\\(?:relax|ignorespaces|protect|nobreakspace|@)\s*/g, ' ')
    .replace(/\\(?:textup|textit|textbf|textrm|emph|mathrm|text)\s*/g, '')
    .replace(/\\[a-zA-Z@]+\s*/g, '')
    .replace(/[{}]/g, '')
    .replace(/~/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Labels of one `.aux` text, and the files it `\@input`s. */
export function parseAux(text: string): { labels: Map<string, AuxLabel>; inputs: string[] } {
  const labels = new Map<string, AuxLabel>();
  const kinds = new Map<string, string>();
  const inputs: string[] = [];
  for (const m of text.matchAll(/\\@input\{([^{}]+)\}/g)) inputs.push(m[1]);
  const re = /\\newlabel\{([^{}]+)\}/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const outer = group(text, re.lastIndex);
    if (!outer) continue;
    re.lastIndex = outer[1];
    const args: string[] = [];
    for (let i = 0; args.length < 5;) {
      const g = group(outer[0], i);
      if (!g) break;
      args.push(g[0]);
      i = g[1];
    }
    const name = m[1];
    if (name.endsWith('@cref')) {
      const type = /^\[([^\]]*)\]/.exec(args[0] ?? '');
      if (type) kinds.set(name.slice(0, -5), type[1]);
      continue;
    }
    if (args.length === 0) continue;
    const label: AuxLabel = { number: plain(args[0]) };
    if (args[0] !== label.number) label.numberTex = args[0];
    if (args[1] !== undefined && plain(args[1])) label.page = plain(args[1]);
    if (args[2] !== undefined && plain(args[2])) label.title = plain(args[2]);
    // hyperref's anchor names the counter: `lemma.2.3`, `equation.2.10`, `section.2`
    const anchor = args[3] ? /^([A-Za-z*]+)\./.exec(args[3]) : null;
    if (anchor && anchor[1] !== 'Item' && anchor[1] !== 'cite') label.kind = anchor[1].replace(/\*$/, '');
    labels.set(name, label);
  }
  for (const [name, kind] of kinds) { const l = labels.get(name); if (l) l.kind = kind; }
  return { labels, inputs };
}

/** Where a root's `.aux` may be: beside it, or in a build folder beside it. */
function auxCandidates(rootPath: string): string[] {
  const dir = path.dirname(rootPath);
  const stem = path.basename(rootPath).replace(/\.[^.]+$/, '');
  return [dir, path.join(dir, 'build'), path.join(dir, 'out'), path.join(dir, '_build'), path.join(dir, 'output')].map((d) => path.join(d, `${stem}.aux`));
}

function mtime(fs: FileSystem, p: string): number | undefined {
  try { return fs.stat(p).mtimeMs; } catch { return undefined; }
}

const MAX_AUX_BYTES = 32 * 1024 * 1024;
const MAX_INPUTS = 500;
const RECENT_MS = 1000;
/** Roots whose last answer is kept. */
const MAX_RECENT = 4096;

/** The numbers of the last LaTeX run of each root, read again when a file changes. */
export class AuxStore {
  private readonly cache = new Map<string, { stamps: Map<string, number>; labels: Map<string, AuxLabel> }>();
  /** The last answer per root, reused for a moment (a completion or hover burst stats the files once). */
  private readonly recent = new Map<string, { at: number; value: AuxNumbers | undefined }>();

  /** Numbers for `doc` from its (first) root's `.aux`, or undefined without one. Never throws. */
  numbers(ws: Workspace, doc: Doc): AuxNumbers | undefined {
    try {
      const root = ws.roots(doc)[0] ?? doc;
      const rootPath = uriToPath(root.uri);
      if (!rootPath) return undefined;
      const now = Date.now();
      const r = this.recent.get(rootPath);
      if (r && now - r.at < RECENT_MS) return r.value;
      const value = this.compute(ws, root, rootPath);
      // one entry per root: a workspace of many compilations (a chapter each) asks for all of them at once
      if (this.recent.size > MAX_RECENT) this.recent.clear();
      this.recent.set(rootPath, { at: now, value });
      return value;
    } catch {
      return undefined;
    }
  }

  private compute(ws: Workspace, root: Doc, rootPath: string): AuxNumbers | undefined {
    const now = Date.now();
    // a workspace of many roots in one folder (a chapter each) lists the folder once, not a stat per candidate per root
    const file = auxCandidates(rootPath).find((p) => this.listed(ws.fs, p, now) && mtime(ws.fs, p) !== undefined);
    if (!file) return undefined;
    const labels = this.read(ws.fs, file);
    const auxTime = mtime(ws.fs, file) ?? 0;
    // older than a source of the project (the root's scope: its chapters, its .sty files); roots
    // sharing sources stat each once
    const stale = [...ws.scope(root)].some((d) => { const p = uriToPath(d.uri); const t = p ? this.sourceTime(ws.fs, p, now) : undefined; return t !== undefined && t > auxTime + 1000; });
    return { labels, file, stale };
  }

  /** The folder listings and source times read in the last moment, shared by the roots asked about then. */
  private readonly listings = new Map<string, { at: number; names: ReadonlySet<string> }>();
  private readonly sourceTimes = new Map<string, { at: number; t: number | undefined }>();

  /** Whether the folder of `p` held an entry of its name a moment ago. */
  private listed(fs: FileSystem, p: string, now: number): boolean {
    const dir = path.dirname(p);
    let l = this.listings.get(dir);
    if (!l || now - l.at >= RECENT_MS) {
      let names: ReadonlySet<string>;
      try { names = new Set(fs.readDir(dir).map((e) => e.name)); } catch { names = new Set(); }
      if (this.listings.size > MAX_RECENT) this.listings.clear();
      this.listings.set(dir, l = { at: now, names });
    }
    return l.names.has(path.basename(p));
  }

  private sourceTime(fs: FileSystem, p: string, now: number): number | undefined {
    const hit = this.sourceTimes.get(p);
    if (hit && now - hit.at < RECENT_MS) return hit.t;
    const t = mtime(fs, p);
    if (this.sourceTimes.size > MAX_RECENT * 4) this.sourceTimes.clear();
    this.sourceTimes.set(p, { at: now, t });
    return t;
  }

  private read(fs: FileSystem, file: string): Map<string, AuxLabel> {
    const have = this.cache.get(file);
    if (have && [...have.stamps].every(([p, t]) => mtime(fs, p) === t)) return have.labels;
    const stamps = new Map<string, number>();
    const labels = new Map<string, AuxLabel>();
    const queue = [file];
    const dir = path.dirname(file);
    while (queue.length && stamps.size < MAX_INPUTS) {
      const p = queue.shift()!;
      if (stamps.has(p)) continue;
      const t = mtime(fs, p);
      if (t === undefined) continue;
      stamps.set(p, t);
      let text: string;
      try {
        if (fs.stat(p).size > MAX_AUX_BYTES) continue;
        text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(fs.readFile(p));
      } catch { continue; }
      const r = parseAux(text);
      for (const [k, v] of r.labels) if (!labels.has(k)) labels.set(k, v);
      // `\@input` paths are relative to the folder LaTeX ran in: the root's
      for (const i of r.inputs) queue.push(path.resolve(dir, i));
    }
    this.cache.set(file, { stamps, labels });
    return labels;
  }
}

/** The number as the PDF prints it (`3A†`), or undefined when its TeX holds what cannot be written out. */
export function printedNumber(l: AuxLabel): string | undefined {
  return l.numberTex === undefined ? l.number : texText(l.numberTex);
}

/** The printed number of `label` in the last run's `.aux`, if it has one. */
export function printedNumberOf(numbers: AuxNumbers | undefined, label: string): string | undefined {
  const l = numbers?.labels.get(label);
  return l && printedNumber(l);
}

/**
 * "Problem 3A†" from a label's number and kind, the name as the project's declarations print it
 * (printedNames.ts); the number alone when the kind's name is not known; undefined when the
 * number cannot be written out.
 */
export function numberedName(ws: Workspace, doc: Doc, l: AuxLabel, style: NameStyle = 'Cref', plural = false): string | undefined {
  const number = printedNumber(l);
  if (number === undefined) return undefined;
  const name = l.kind ? printedName(ws, doc, l.kind, style, plural) : undefined;
  return name ? `${name} ${number}` : number;
}
