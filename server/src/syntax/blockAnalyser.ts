// One linear pass over a block's text producing its BlockFacts. Context-free on purpose:
// which environments are theorem-like depends on definitions elsewhere in the project, so
// the analyser records every environment and the project layer classifies them.
import type {
  BlockFacts, CiteFact, Span, EnvFact, IncludeFact, IncludeKind, LabelFact, MacroFact, MagicFact,
  ProblemFact, RefFact, SectionFact, TheoremDefFact,
} from './facts.js';
import {
  BACKSLASH, DEFINITION_COMMANDS, DOLLAR, LBRACE, LBRACKET, PERCENT, RBRACE,
  MAX_DEFINITION, SECTION_CONTAINERS, SECTION_LEVELS, VERBATIM_ENVS, commandNameEnd, lineEnd, readBraceGroup,
  DefinitionBraces, readBracketGroup, readEnvName, skipDefinition, skipIfFalse, skipTrivia, skipVerbArg, skipVerbatimBody,
  type Group,
} from './lexer.js';
import { DISPLAY_MATH_ENVS } from './displayMath.js';

/** Table environments: their cells are in restricted horizontal mode. */
const TABLES = /^(?:tabular[x*]?|tabu|longtable|supertabular|xtabular|NiceTabular|tblr|longtblr)$/;

/** Reference commands and how their argument is read. */
export const REF_COMMANDS: Record<string, 'one' | 'list' | 'two'> = {
  ref: 'one', eqref: 'one', pageref: 'one', autoref: 'one', nameref: 'one', vref: 'one',
  Vref: 'one', vpageref: 'one', subref: 'one', fullref: 'one', Autoref: 'one', prettyref: 'one',
  cref: 'list', Cref: 'list', cpageref: 'list', Cpageref: 'list', labelcref: 'list',
  namecref: 'one', nameCref: 'one', lcnamecref: 'one', zcref: 'list', zref: 'one',
  crefrange: 'two', Crefrange: 'two', cpagerefrange: 'two', Cpagerefrange: 'two',
  // Lean blueprints (leanblueprint): the results a statement or proof depends on, the statement a proof proves
  uses: 'list', proves: 'list',
};

/**
 * The names of the reference commands, longest first, as a regular-expression alternation
 * (`ref|eqref|…`): the one list every reader of `\ref`-like commands builds its pattern from.
 * `arity` keeps only commands whose argument is read that way.
 */
export function refCommandAlternation(arity?: ReadonlyArray<'one' | 'list' | 'two'>): string {
  return Object.keys(REF_COMMANDS).filter((n) => !arity || arity.includes(REF_COMMANDS[n])).sort((a, b) => b.length - a.length || a.localeCompare(b)).join('|');
}

export const INCLUDE_COMMANDS: Record<string, IncludeKind> = {
  input: 'input', include: 'include', subfile: 'subfile', subfileinclude: 'subfile',
  import: 'import', subimport: 'import', inputfrom: 'import', includefrom: 'import',
  subinputfrom: 'import', subincludefrom: 'import', externaldocument: 'external',
  bibliography: 'bibliography', addbibresource: 'bibliography',
};

/**
 * Citation commands are recognised by name (any command containing "cite": \cite, natbib
 * \citep/\citet/\citeauthor, biblatex \autocite/\parencite/\textcite/\footcite, \nocite, …);
 * NOT_CITE contain "cite" but take no keys. biblatex multicite commands (\cites, \parencites, …)
 * take several `[pre][post]{keys}` groups.
 */
export const NOT_CITE: ReadonlySet<string> = new Set(['citestyle', 'citesetup', 'citereset', 'citeindextype', 'DeclareCiteCommand', 'DeclareMultiCiteCommand', 'citeindextrue', 'citeindexfalse', 'citetrackertrue', 'citetrackerfalse']);

const MAX_NAME = 300;
const MAX_TITLE = 2000;
/** `label=…` among an environment's options (KeyValue): `label={x}` or `label=x` up to the next comma. */
const KEY_LABEL_RE = /(^|,)\s*label\s*=\s*(?:\{([^{}]*)\}|([^,{}]+))/;
const MAX_BODY = MAX_DEFINITION;
const EMPTY: never[] = Object.freeze([]) as unknown as never[];

const MAGIC_RE = /^%\s*!\s*T[eE]X\s+(root|program|spellcheck|encoding|TS-program)\s*=(.*)$/;

export function analyseBlock(text: string): BlockFacts {
  return new BlockAnalyser(text).run();
}

class BlockAnalyser {
  private readonly limit: number;
  private readonly definitions: Span[] = [];
  private readonly envDefs: MacroFact[] = [];
  private readonly envs: EnvFact[] = [];
  private readonly labels: LabelFact[] = [];
  private readonly refs: RefFact[] = [];
  private readonly cites: CiteFact[] = [];
  private readonly includes: IncludeFact[] = [];
  private readonly macros: MacroFact[] = [];
  private readonly theoremDefs: TheoremDefFact[] = [];
  private readonly sections: SectionFact[] = [];
  private readonly problems: ProblemFact[] = [];
  private readonly magic: MagicFact[] = [];
  private hasDocumentClass = false;
  private hasBeginDocument = false;
  /** Indices into envs of the open environments, innermost last. */
  private readonly stack: number[] = [];
  /** Open environments by name, so a stray `\end` needs no stack search. */
  private readonly openNames = new Map<string, number>();
  private braceDepth = 0;
  /** Open TeX conditionals (`\ifx … \fi`) in this block, and where one begun before the block last ended. */
  private condDepth = 0;
  private orphanCondEnd = -1;
  /** Includes before this offset sit in a branch of `\IfFileExists`. */
  private guardEnd = -1;
  /** Brace depth and conditional depth at each open environment's `\begin` (by env index). */
  private readonly openedAt = new Map<number, { braces: number; cond: number }>();
  private inlineMath = false;
  /** Brace depth at which each open display-math env started (row breaks count only there). */
  private readonly mathDepth = new Map<number, number>();

  private readonly braces: DefinitionBraces;

  constructor(private readonly text: string) {
    this.limit = text.length;
    this.braces = new DefinitionBraces(text, this.limit);
  }

  /** A long (definition-body) group after optional trivia, via the paragraph brace index. */
  private longGroup(pos: number): Group | null {
    return this.braces.group(skipTrivia(this.text, pos, this.limit), MAX_BODY);
  }

  run(): BlockFacts {
    const { text, limit } = this;
    let i = 0;
    while (i < limit) {
      const c = text.charCodeAt(i);
      if (c === BACKSLASH) i = this.command(i);
      else if (c === PERCENT) i = this.comment(i);
      else if (c === LBRACE) { this.braceDepth++; i++; }
      else if (c === RBRACE) { if (this.braceDepth > 0) this.braceDepth--; i++; }
      else if (c === DOLLAR) i = this.dollar(i);
      else i++;
    }
    for (const idx of this.stack) {
      const env = this.envs[idx];
      env.end = limit;
      env.bodyEnd = limit;
      this.closeRows(idx, limit);
      this.unclosed(idx, 'block-end');
    }
    // what came before a `\else`/`\fi` of a conditional begun in an earlier block is inside it
    if (this.orphanCondEnd >= 0) for (const p of this.problems) if (p.start < this.orphanCondEnd) p.uncertain = true;
    return {
      definitions: orEmpty(this.definitions), envDefs: orEmpty(this.envDefs),
      envs: orEmpty(this.envs), labels: orEmpty(this.labels), refs: orEmpty(this.refs),
      cites: orEmpty(this.cites), includes: orEmpty(this.includes), macros: orEmpty(this.macros),
      theoremDefs: orEmpty(this.theoremDefs), sections: orEmpty(this.sections),
      problems: orEmpty(this.problems), magic: orEmpty(this.magic),
      hasDocumentClass: this.hasDocumentClass, hasBeginDocument: this.hasBeginDocument,
    };
  }

  private comment(i: number): number {
    const end = lineEnd(this.text, i, this.limit);
    if (this.text.charCodeAt(i + 1) === 33 /* ! */ || this.text.charCodeAt(i + 2) === 33) {
      const m = MAGIC_RE.exec(this.text.slice(i, end).replace(/\r$/, ''));
      if (m) this.magic.push({ key: m[1].toLowerCase(), value: m[2].trim(), start: i, end });
    }
    return end;
  }

  private dollar(i: number): number {
    const top = this.top();
    if (this.text.charCodeAt(i + 1) === DOLLAR) {
      if (top >= 0 && this.envs[top].name === '$$') { this.closeEnv(top, i, i + 2); return i + 2; }
      // in a table's cell TeX is in restricted horizontal mode, where `$$` is an empty formula
      if (top >= 0 && TABLES.test(this.envs[top].name)) return i + 2;
      if (!this.inlineMath && !this.inDisplayMath()) { this.openEnv('$$', i, i + 2); return i + 2; }
      return i + 2;
    }
    this.inlineMath = !this.inlineMath;
    return i + 1;
  }

  /** Records that environment `idx` is not closed where it should be. */
  private unclosed(idx: number, at: 'block-end' | 'outer', uncertain = false): void {
    const env = this.envs[idx];
    const opened = this.openedAt.get(idx);
    const problem: ProblemFact = {
      code: 'unclosed-environment', start: env.start, end: env.bodyStart, env: env.name, at,
      message: env.name === '$$' || env.name === '\\[' ? `display math ${env.name} is never closed` : `\\begin{${env.name}} is never closed`,
    };
    if (uncertain || (opened && (opened.braces > 0 || opened.cond > 0))) problem.uncertain = true;
    this.problems.push(problem);
  }

  /** Whether a `\begin`/`\end` here may be paired by code the text does not show (a conditional branch, a macro argument). */
  private uncertainHere(): boolean {
    return this.braceDepth > 0 || this.condDepth > 0;
  }

  private top(): number {
    return this.stack.length ? this.stack[this.stack.length - 1] : -1;
  }

  private inDisplayMath(): boolean {
    for (let k = this.stack.length - 1; k >= 0; k--) if (this.envs[this.stack[k]].rows) return true;
    return false;
  }

  private nearestMathEnv(): number {
    for (let k = this.stack.length - 1; k >= 0; k--) if (this.envs[this.stack[k]].rows) return this.stack[k];
    return -1;
  }

  private openEnv(name: string, start: number, bodyStart: number): number {
    const idx = this.envs.length;
    const env: EnvFact = { name, start, end: start, bodyStart, bodyEnd: bodyStart, parent: this.top(), closed: false };
    if (DISPLAY_MATH_ENVS[name] !== undefined) {
      env.rows = [{ start: bodyStart, end: bodyStart, notag: false }];
      this.mathDepth.set(idx, this.braceDepth);
      this.inlineMath = false;
    }
    this.envs.push(env);
    this.openedAt.set(idx, { braces: this.braceDepth, cond: this.condDepth });
    this.stack.push(idx);
    this.openNames.set(name, (this.openNames.get(name) ?? 0) + 1);
    return idx;
  }

  private closeRows(idx: number, at: number): void {
    const rows = this.envs[idx].rows;
    if (!rows) return;
    rows[rows.length - 1].end = at;
    // a trailing `\\` leaves an empty last row: drop it
    const last = rows[rows.length - 1];
    if (rows.length > 1 && this.text.slice(last.start, last.end).trim() === '') rows.pop();
  }

  private closeEnv(idx: number, endStart: number, endEnd: number): void {
    const at = this.stack.lastIndexOf(idx);
    // environments opened inside and not closed are unclosed
    for (let k = this.stack.length - 1; k > at; k--) {
      const inner = this.envs[this.stack[k]];
      inner.end = endStart;
      inner.bodyEnd = endStart;
      this.closeRows(this.stack[k], endStart);
      this.unclosed(this.stack[k], 'outer', this.uncertainHere());
    }
    for (let k = at; k < this.stack.length; k++) {
      const n = this.envs[this.stack[k]].name;
      this.openNames.set(n, this.openNames.get(n)! - 1);
    }
    this.stack.length = at;
    const env = this.envs[idx];
    env.bodyEnd = endStart;
    env.end = endEnd;
    env.closed = true;
    this.closeRows(idx, endStart);
    if (env.rows) this.inlineMath = false;
  }

  /** Reads `{...}` after optional trivia; bounded. */
  private group(pos: number, max: number): Group | null {
    const p = skipTrivia(this.text, pos, this.limit);
    return readBraceGroup(this.text, p, Math.min(this.limit, p + max));
  }

  private optional(pos: number, max = MAX_TITLE): Group | null {
    const p = skipTrivia(this.text, pos, this.limit);
    return readBracketGroup(this.text, p, Math.min(this.limit, p + max));
  }

  private star(pos: number): number {
    return this.text.charCodeAt(pos) === 42 ? pos + 1 : pos;
  }

  private command(i: number): number {
    const { text, limit } = this;
    const nameEnd = commandNameEnd(text, i + 1, limit);
    const name = text.slice(i + 1, nameEnd);
    switch (name) {
      case 'begin': return this.begin(i, nameEnd);
      case 'end': return this.end(i, nameEnd);
      case '[':
        if (!this.inDisplayMath() && !this.inlineMath) this.openEnv('\\[', i, nameEnd);
        return nameEnd;
      case ']': {
        const top = this.top();
        if (top >= 0 && this.envs[top].name === '\\[') this.closeEnv(top, i, nameEnd);
        return nameEnd;
      }
      case '(': this.inlineMath = true; return nameEnd;
      case ')': this.inlineMath = false; return nameEnd;
      case '\\': return this.rowBreak(i, nameEnd);
      case 'notag': case 'nonumber': {
        const m = this.nearestMathEnv();
        if (m >= 0) { const rows = this.envs[m].rows!; rows[rows.length - 1].notag = true; }
        return nameEnd;
      }
      case 'label': return this.label(i, nameEnd);
      case 'verb': case 'lstinline': return skipVerbArg(text, nameEnd, limit, name === 'lstinline');
      case 'iffalse': {
        // commented out: no labels, refs, environments; an `\else` branch is read, up to its `\fi`
        const end = skipIfFalse(text, nameEnd, limit);
        if (text.startsWith('else', end - 4)) this.condDepth++;
        return end;
      }
      case 'fi': case 'else': case 'or':
        if (this.condDepth === 0) this.orphanCondEnd = i;
        else if (name === 'fi') this.condDepth--;
        return nameEnd;
      case 'newif': {
        // `\newif\iffoo` names a conditional; it opens none
        const p = skipTrivia(text, nameEnd, limit);
        return text.charCodeAt(p) === BACKSLASH ? commandNameEnd(text, p + 1, limit) : nameEnd;
      }
      case 'IfFileExists': case 'InputIfFileExists': return this.ifFileExists(i, nameEnd, name);
      case 'lstnewenvironment': case 'DefineVerbatimEnvironment': case 'newtcblisting': case 'NewTCBListing':
      case 'DeclareTCBListing': case 'excludecomment': case 'newminted': return this.verbatimDefinition(i, nameEnd, name);
      case 'usepackage': case 'RequirePackage': case 'RequirePackageWithOptions':
        return this.packages(i, nameEnd, name, '.sty');
      case 'LoadClass': case 'LoadClassWithOptions':
        return this.packages(i, nameEnd, name, '.cls');
      case 'url': {
        const g = readBraceGroup(text, nameEnd, Math.min(limit, nameEnd + 2000));
        return g ? g.next : nameEnd;
      }
      case 'hyperref': {
        const opt = this.optional(nameEnd, MAX_NAME);
        if (opt) {
          this.pushRef(name, text.slice(opt.start, opt.end), opt.start, opt.end, i, opt.next);
          return opt.next;
        }
        return nameEnd;
      }
      case 'documentclass': this.hasDocumentClass = true; return this.packages(i, nameEnd, name, '.cls');
      case 'newtheorem': case 'spnewtheorem': case 'newmdtheoremenv': return this.newtheorem(i, nameEnd, name);
      case 'declaretheorem': return this.declaretheorem(i, nameEnd);
      case 'theoremstyle': {
        const g = this.group(nameEnd, MAX_NAME);
        if (!g) return nameEnd;
        this.theoremDefs.push({ cmd: name, style: text.slice(g.start, g.end).trim(), starred: false, start: i, end: g.next });
        return g.next;
      }
      default:
        break;
    }
    if (isConditional(name) && text.charCodeAt(skipTrivia(text, nameEnd, limit)) !== LBRACE) { this.condDepth++; return nameEnd; }
    if (SECTION_LEVELS[name] !== undefined) return this.section(i, nameEnd, name);
    const ref = REF_COMMANDS[name];
    if (ref) return this.ref(i, nameEnd, name, ref);
    const inc = INCLUDE_COMMANDS[name];
    if (inc) return this.include(i, nameEnd, name, inc);
    if (DEFINITION_COMMANDS.has(name)) return this.definition(i, nameEnd, name);
    if (name.length >= 4 && name.toLowerCase().includes('cite') && !NOT_CITE.has(name)) return this.cite(i, nameEnd, name);
    return nameEnd;
  }

  private begin(i: number, nameEnd: number): number {
    const { text, limit } = this;
    const env = readEnvName(text, nameEnd, limit);
    if (!env) return nameEnd;
    if (env.name === 'document') { this.hasBeginDocument = true; return env.next; }
    if (VERBATIM_ENVS.has(env.name)) return skipVerbatimBody(text, env.next, limit, env.name);
    if (SECTION_CONTAINERS.has(env.name)) return env.next;
    const idx = this.openEnv(env.name, i, env.next);
    const e = this.envs[idx];
    if (!e.rows) {
      // `\begin{theorem}[Title]`: only when the bracket follows directly (maybe after spaces)
      let p = env.next;
      while (p < limit && (text.charCodeAt(p) === 32 || text.charCodeAt(p) === 9)) p++;
      const opt = readBracketGroup(text, p, Math.min(limit, p + MAX_TITLE));
      // keep scanning inside the title: `[Proof of Theorem~\ref{x}]` holds a real reference
      // an "optional argument" swallowing \begin/\end is an unclosed `[`, not a title
      if (opt && !/\\(?:begin|end)\s*\{/.test(text.slice(opt.start, opt.end))) {
        e.opt = { start: opt.start, end: opt.end };
        e.bodyStart = opt.next;
        this.keyLabel(idx, opt.start, text.slice(opt.start, opt.end));
        return opt.start;
      }
    } else if (env.name.startsWith('alignat') || env.name.startsWith('xalignat') || env.name === 'xxalignat') {
      const g = this.group(env.next, 20);
      if (g) { e.bodyStart = g.next; e.rows![0].start = g.next; e.rows![0].end = g.next; return g.next; }
    }
    return env.next;
  }

  private end(i: number, nameEnd: number): number {
    const env = readEnvName(this.text, nameEnd, this.limit);
    if (!env) return nameEnd;
    if (env.name === 'document' || SECTION_CONTAINERS.has(env.name)) return env.next;
    if (this.openNames.get(env.name)) for (let k = this.stack.length - 1; k >= 0; k--) {
      if (this.envs[this.stack[k]].name === env.name) {
        this.closeEnv(this.stack[k], i, env.next);
        return env.next;
      }
    }
    const problem: ProblemFact = { code: 'unmatched-end', start: i, end: env.next, env: env.name, message: `\\end{${env.name}} has no matching \\begin` };
    if (this.uncertainHere()) problem.uncertain = true;
    this.problems.push(problem);
    return env.next;
  }

  private rowBreak(i: number, nameEnd: number): number {
    const top = this.top();
    if (top < 0) return nameEnd;
    const env = this.envs[top];
    if (!env.rows || !DISPLAY_MATH_ENVS[env.name] || this.mathDepth.get(top) !== this.braceDepth) return nameEnd;
    let p = this.star(nameEnd);
    // optional vertical space `\\[2pt]` (not a `\[` display opener: that needs a backslash)
    if (this.text.charCodeAt(p) === LBRACKET) {
      const g = readBracketGroup(this.text, p, Math.min(this.limit, p + 40));
      if (g) p = g.next;
    }
    const rows = env.rows;
    rows[rows.length - 1].end = i;
    rows.push({ start: p, end: p, notag: false });
    return p;
  }

  /**
   * A label given as a key of the environment's options: `\begin{Exercise}[label={ex:x}]` (the
   * exercise package), `\begin{theorem}[name=Lemma, label=thm:x]` (thmtools), tcolorbox's
   * `[label=x]`. It labels the environment, as `\label` right after `\begin` would.
   */
  private keyLabel(env: number, at: number, options: string): void {
    const m = KEY_LABEL_RE.exec(options);
    const raw = m?.[2] ?? m?.[3];
    const name = raw?.trim();
    if (!m || !raw || !name) return;
    const valueAt = at + m.index + m[0].length - (m[2] !== undefined ? raw.length + 1 : raw.length);
    const start = valueAt + raw.indexOf(name);
    this.labels.push({ name, start, end: start + name.length, cmdStart: at + m.index + m[1].length, env, mathEnv: -1, row: -1 });
  }

  private label(i: number, nameEnd: number): number {
    const g = this.group(nameEnd, MAX_NAME);
    if (!g) return nameEnd;
    const raw = this.text.slice(g.start, g.end);
    const name = raw.trim();
    if (name) {
      const lead = raw.length - raw.trimStart().length;
      const mathEnv = this.nearestMathEnv();
      this.labels.push({
        name, start: g.start + lead, end: g.start + lead + name.length, cmdStart: i,
        env: this.top(), mathEnv, row: mathEnv >= 0 ? this.envs[mathEnv].rows!.length - 1 : -1,
      });
    }
    return g.next;
  }

  private pushRef(cmd: string, name: string, start: number, end: number, cmdStart: number, cmdEnd: number): void {
    let trimmed = name.trim();
    let lead = name.length - name.trimStart().length;
    // `\cref{{x}}`: TeX strips one brace level when the list item is passed on
    if (trimmed.length > 2 && trimmed.startsWith('{') && trimmed.endsWith('}')) {
      trimmed = trimmed.slice(1, -1).trim();
      lead = name.indexOf(trimmed, lead + 1);
    }
    if (!trimmed) return;
    this.refs.push({ cmd, name: trimmed, start: start + lead, end: start + lead + trimmed.length, cmdStart, cmdEnd });
  }

  private ref(i: number, nameEnd: number, name: string, mode: 'one' | 'list' | 'two'): number {
    const p = this.star(nameEnd);
    const g = this.group(p, MAX_NAME * 4);
    if (!g) return p;
    if (mode === 'list') {
      let s = g.start;
      for (let k = g.start; k <= g.end; k++) {
        if (k === g.end || this.text.charCodeAt(k) === 44 /* , */) {
          this.pushRef(name, this.text.slice(s, k), s, k, i, g.next);
          s = k + 1;
        }
      }
    } else {
      this.pushRef(name, this.text.slice(g.start, g.end), g.start, g.end, i, g.next);
    }
    if (mode === 'two') {
      const g2 = this.group(g.next, MAX_NAME);
      if (g2) {
        this.pushRef(name, this.text.slice(g2.start, g2.end), g2.start, g2.end, i, g2.next);
        return g2.next;
      }
    }
    return g.next;
  }

  private cite(i: number, nameEnd: number, name: string): number {
    let p = this.star(nameEnd);
    // multicite: `\cites(pre)(post)[pre][post]{a}[pre][post]{b}`; further groups only when they follow directly
    const multi = /cites$/i.test(name);
    for (let n = 0; n < (multi ? 20 : 1); n++) {
      if (n > 0 && !/[[{]/.test(this.text[p] ?? '')) break;
      const next = this.citeGroup(p, name);
      if (next < 0) return p;
      p = next;
    }
    return p;
  }

  /** `[pre][post]{keys}` of a citation: records the keys, returns the end (or -1 without a group). */
  private citeGroup(p: number, name: string): number {
    for (let k = 0; k < 2; k++) {
      const o = this.optional(p, MAX_TITLE);
      if (!o) break;
      p = o.next;
    }
    const g = this.group(p, MAX_TITLE);
    if (!g) return -1;
    let s = g.start;
    for (let k = g.start; k <= g.end; k++) {
      if (k === g.end || this.text.charCodeAt(k) === 44) {
        const raw = this.text.slice(s, k);
        const key = raw.trim();
        if (key) {
          const lead = raw.length - raw.trimStart().length;
          this.cites.push({ cmd: name, key, start: s + lead, end: s + lead + key.length });
        }
        s = k + 1;
      }
    }
    return g.next;
  }

  private include(i: number, nameEnd: number, name: string, kind: IncludeKind): number {
    const { text, limit } = this;
    // starred forms (\include* of newclude, \import* and \subimport* of import) read the same file
    let p = kind === 'bibliography' || kind === 'external' ? nameEnd : this.star(nameEnd);
    let prefix: string | undefined;
    if (kind === 'external') {
      const o = this.optional(p, MAX_NAME);
      if (o) { prefix = text.slice(o.start, o.end).trim(); p = o.next; }
    }
    let dir: string | undefined;
    if (kind === 'import') {
      const d = this.group(p, MAX_NAME);
      if (!d) return p;
      dir = text.slice(d.start, d.end).trim();
      p = d.next;
    }
    const g = this.group(p, MAX_NAME);
    if (g) {
      const raw = text.slice(g.start, g.end);
      const paths = kind === 'bibliography' ? raw.split(',') : [raw];
      let s = g.start;
      for (const part of paths) {
        const path = part.trim();
        if (path) this.includes.push({ cmd: name, kind, path, prefix, dir, start: s, end: s + part.length, ...(i < this.guardEnd ? { guarded: true } : {}) });
        s += part.length + 1;
      }
      return g.next;
    }
    if (name === 'input') {
      // plain TeX syntax: `\input file`
      const q = skipTrivia(text, p, limit);
      const m = /^[A-Za-z0-9_./-]+/.exec(text.slice(q, Math.min(limit, q + MAX_NAME)));
      if (m && q > p) {
        this.includes.push({ cmd: name, kind, path: m[0], start: q, end: q + m[0].length });
        return q + m[0].length;
      }
    }
    return p;
  }

  /**
   * `\IfFileExists{f}{yes}{no}`: includes in its branches are guarded; `\InputIfFileExists{f}{…}{…}`
   * also reads `f` itself, when it is there.
   */
  private ifFileExists(i: number, nameEnd: number, name: string): number {
    const p = this.star(nameEnd);
    const file = this.group(p, MAX_NAME);
    if (!file) return p;
    let end = file.next;
    for (let k = 0; k < 2; k++) { const g = this.group(end, MAX_TITLE * 4); if (!g) break; end = g.next; }
    this.guardEnd = Math.max(this.guardEnd, end);
    const path = this.text.slice(file.start, file.end).trim();
    if (name === 'InputIfFileExists' && path) this.includes.push({ cmd: name, kind: 'input', path, start: file.start, end: file.end, guarded: true });
    return file.next;
  }

  /**
   * An environment whose body is not LaTeX (`\lstnewenvironment{coq}`, `\DefineVerbatimEnvironment`,
   * `\newminted{python}` = `pythoncode`, `\excludecomment{solution}`): recorded as an environment
   * definition with an empty body, for the project to know (userMacros.ts#verbatimEnvironments).
   */
  private verbatimDefinition(i: number, nameEnd: number, cmd: string): number {
    let p = this.star(nameEnd);
    let named: string | undefined;
    if (cmd === 'newminted') { const o = this.optional(p, MAX_NAME); if (o) { named = this.text.slice(o.start, o.end).trim(); p = o.next; } }
    const g = this.group(p, MAX_NAME);
    if (!g) return p;
    const arg = this.text.slice(g.start, g.end).trim();
    const name = cmd === 'newminted' ? named || `${arg}code` : arg;
    if (name && !/[\\#{}]/.test(name)) this.envDefs.push({ cmd, name, nargs: 0, body: '', start: i, end: g.next });
    return g.next;
  }

  /** `\usepackage[opts]{a,b}` and the like: each name, with the file extension TeX looks for. */
  private packages(i: number, nameEnd: number, cmd: string, ext: '.sty' | '.cls'): number {
    let p = nameEnd;
    const o = this.optional(p, MAX_TITLE);
    if (o) p = o.next;
    const g = this.group(p, MAX_NAME);
    if (!g) return p;
    if (cmd === 'documentclass' && o && this.text.slice(g.start, g.end).trim() === 'subfiles') {
      // `\documentclass[../main]{subfiles}`: the main file's preamble is this file's (its macros, theorems)
      const main = this.text.slice(o.start, o.end).trim();
      if (main && !/[\\#{}\s,=]/.test(main)) {
        const lead = this.text.slice(o.start, o.end).length - this.text.slice(o.start, o.end).trimStart().length;
        this.includes.push({ cmd, kind: 'package', path: /\.tex$/i.test(main) ? main : `${main}.tex`, start: o.start + lead, end: o.start + lead + main.length });
      }
    }
    let s = g.start;
    for (const part of this.text.slice(g.start, g.end).split(',')) {
      const name = part.replace(/%[^\n]*/g, '').trim();
      if (name && !/[\\#{}\s]/.test(name)) {
        const lead = part.length - part.trimStart().length;
        this.includes.push({ cmd, kind: 'package', path: name + ext, start: s + lead, end: s + lead + name.length });
      }
      s += part.length + 1;
    }
    return g.next;
  }

  private section(i: number, nameEnd: number, name: string): number {
    let p = nameEnd;
    const starred = this.text.charCodeAt(p) === 42;
    if (starred) p++;
    const o = this.optional(p, MAX_TITLE);
    if (o) p = o.next;
    const g = this.group(p, MAX_TITLE);
    if (!g) return p;
    this.sections.push({
      cmd: name, level: SECTION_LEVELS[name], title: this.text.slice(g.start, g.end).trim(),
      starred, start: i, end: g.next,
    });
    // keep scanning inside the title: `\subsection{Boolean types\label{hedberg}}` labels the section
    return g.start - 1;
  }

  private newtheorem(i: number, nameEnd: number, cmd: string): number {
    const { text } = this;
    let p = nameEnd;
    const starred = text.charCodeAt(p) === 42;
    if (starred) p++;
    if (cmd === 'newmdtheoremenv') { const o = this.optional(p); if (o) p = o.next; }
    const envG = this.group(p, MAX_NAME);
    if (!envG) return p;
    p = envG.next;
    let shared: string | undefined;
    const o1 = this.optional(p, MAX_NAME);
    if (o1) { shared = text.slice(o1.start, o1.end).trim(); p = o1.next; }
    const titleG = this.group(p, MAX_TITLE);
    if (!titleG) return p;
    p = titleG.next;
    let parent: string | undefined;
    if (!shared) {
      const o2 = this.optional(p, MAX_NAME);
      if (o2) { parent = text.slice(o2.start, o2.end).trim(); p = o2.next; }
    }
    if (cmd === 'spnewtheorem') {
      // \spnewtheorem{env}[shared]{Title}[parent]{headfont}{bodyfont}
      for (let k = 0; k < 2; k++) { const g = this.group(p, MAX_NAME); if (g) p = g.next; }
    }
    this.theoremDefs.push({
      cmd, env: text.slice(envG.start, envG.end).trim(), title: text.slice(titleG.start, titleG.end).trim(),
      shared, parent, starred, start: i, end: p,
    });
    return p;
  }

  private declaretheorem(i: number, nameEnd: number): number {
    const { text } = this;
    let p = nameEnd;
    let opts = '';
    const o1 = this.optional(p);
    if (o1) { opts = text.slice(o1.start, o1.end); p = o1.next; }
    const envG = this.group(p, MAX_NAME);
    if (!envG) return p;
    p = envG.next;
    const o2 = this.optional(p);
    if (o2) { opts += ',' + text.slice(o2.start, o2.end); p = o2.next; }
    const env = text.slice(envG.start, envG.end).trim();
    const kv = parseKeyValues(opts);
    const title = kv.get('name') ?? kv.get('title') ?? env.charAt(0).toUpperCase() + env.slice(1);
    this.theoremDefs.push({
      cmd: 'declaretheorem', env, title, shared: kv.get('sibling') ?? kv.get('sharenumber') ?? kv.get('sharecounter'),
      parent: kv.get('numberwithin') ?? kv.get('parent'), starred: kv.has('numbered') && kv.get('numbered') === 'no',
      style: kv.get('style'), start: i, end: p,
    });
    return p;
  }

  /** `\newenvironment{name}[n][default]{begin}{end}` / xparse `\NewDocumentEnvironment{name}{spec}{begin}{end}`. */
  private environmentDefinition(i: number, nameEnd: number, end: number, cmd: string): void {
    const { text } = this;
    const nameG = this.group(this.star(nameEnd), MAX_NAME);
    if (!nameG) return;
    const name = text.slice(nameG.start, nameG.end).trim();
    const args = this.argumentSpec(nameG.next, cmd.endsWith('DocumentEnvironment'));
    const g = args && this.longGroup(args.next);
    if (!name || !args || !g) return;
    const fact: MacroFact = { cmd, name, nargs: args.nargs, body: text.slice(g.start, g.end), start: i, end: Math.max(end, nameEnd) };
    if (args.optDefault !== undefined) fact.optDefault = args.optDefault;
    this.envDefs.push(fact);
  }

  /** What follows a definition's name: `[n][default]`, or an xparse argument spec `{m o …}`. */
  private argumentSpec(p: number, xparse: boolean): { nargs: number; optDefault?: string; spec?: string; next: number } | null {
    const { text } = this;
    if (xparse) {
      const g = this.group(p, MAX_NAME);
      if (!g) return null;
      const spec = text.slice(g.start, g.end);
      // the letters outside the defaults' braces (`O{a b}` is one argument)
      return { nargs: (spec.replace(/\{[^{}]*\}/g, '').match(/[mosOrRvbgGeEtd]/g) ?? []).length, spec: spec.trim(), next: g.next };
    }
    let nargs = 0;
    let optDefault: string | undefined;
    const n = this.optional(p, 10);
    if (n) { nargs = parseInt(text.slice(n.start, n.end), 10) || 0; p = n.next; }
    const d = this.optional(p, MAX_TITLE);
    if (d) { optDefault = text.slice(d.start, d.end); p = d.next; }
    return { nargs, optDefault, next: p };
  }

  private definition(i: number, nameEnd: number, cmd: string): number {
    const { text, limit } = this;
    const end = skipDefinition(text, nameEnd, limit, cmd, this.braces);
    this.definitions.push({ start: i, end: Math.max(end, nameEnd) });
    if (cmd.includes('nvironment')) { this.environmentDefinition(i, nameEnd, end, cmd); return Math.max(end, nameEnd); }
    if (cmd === 'let') return Math.max(end, nameEnd);
    // Parse the pieces we keep: name, argument count, optional default, body.
    let p = this.star(nameEnd);
    p = skipTrivia(text, p, limit);
    let name = '';
    if (text.charCodeAt(p) === BACKSLASH) {
      let e = commandNameEnd(text, p + 1, limit);
      // `\WithSuffix\newcommand\figref*[1]{…}` (suffix package) defines the starred form
      if (text.charCodeAt(e) === 42 && !cmd.endsWith('def')) e++;
      name = text.slice(p + 1, e);
      p = e;
    } else {
      const g = readBraceGroup(text, p, Math.min(limit, p + MAX_NAME));
      if (!g) return Math.max(end, nameEnd);
      name = text.slice(g.start, g.end).trim().replace(/^\\/, '');
      p = g.next;
    }
    let nargs = 0;
    let optDefault: string | undefined;
    let spec: string | undefined;
    let body = '';
    if (cmd.endsWith('def')) {
      let bodyStart = p;
      while (bodyStart < end && text.charCodeAt(bodyStart) !== LBRACE) bodyStart++;
      if (bodyStart < end) {
        nargs = (text.slice(p, bodyStart).match(/#\d/g) ?? []).length;
        const g = this.braces.group(bodyStart, MAX_BODY);
        if (g) body = text.slice(g.start, g.end);
      }
    } else {
      const args = this.argumentSpec(p, cmd.endsWith('DocumentCommand'));
      if (args) {
        nargs = args.nargs;
        optDefault = args.optDefault;
        spec = args.spec;
        const g = this.longGroup(args.next);
        if (g) body = text.slice(g.start, g.end);
      }
    }
    if (!name) return Math.max(end, nameEnd);
    const fact: MacroFact = { cmd, name, nargs, body, start: i, end: Math.max(end, nameEnd) };
    if (optDefault !== undefined) fact.optDefault = optDefault;
    if (spec !== undefined) fact.spec = spec;
    const w = /\\newtheorem\*?\s*\{\s*#(\d)\s*\}\s*(?:\[\s*#?(\w+)\s*\])?\s*\{\s*#(\d)\s*\}/.exec(body);
    if (w) {
      fact.theoremWrapper = { envArg: +w[1], titleArg: +w[3] };
      if (w[2] && /^\d$/.test(w[2])) fact.theoremWrapper.sharedArg = +w[2];
    }
    this.macros.push(fact);
    return Math.max(end, nameEnd);
  }
}

/**
 * A TeX conditional (`\ifx`, `\ifnum`, `\if@twoside`, a `\newif`'s `\iffoo`), closed by `\fi`.
 * `\iff` is a symbol; etoolbox's `\iftoggle{…}{…}{…}` and `\ifthenelse` are macros with brace
 * arguments (the caller checks that no brace follows).
 */
function isConditional(name: string): boolean {
  return name.startsWith('if') && name !== 'iff' && name !== 'ifthenelse';
}

function orEmpty<T>(a: T[]): T[] {
  return a.length ? a : (EMPTY as T[]);
}

export function parseKeyValues(s: string): Map<string, string> {
  const out = new Map<string, string>();
  let depth = 0;
  let start = 0;
  const parts: string[] = [];
  for (let k = 0; k <= s.length; k++) {
    const c = s[k];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if ((c === ',' && depth === 0) || k === s.length) { parts.push(s.slice(start, k)); start = k + 1; }
  }
  for (const part of parts) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (!key) continue;
    let value = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (value.startsWith('{') && value.endsWith('}')) value = value.slice(1, -1).trim();
    out.set(key, value);
  }
  return out;
}
