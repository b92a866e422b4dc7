// Which branch of which conditional a place of a text sits in. Two places in different
// branches of one conditional (`\ifX A \else B \fi`, `\ifthenelse{…}{A}{B}`, `\iftoggle`,
// `\IfFileExists`, …) are never compiled together; branches of different conditionals may
// both be on. Read only where it matters (a label defined twice), so one linear pass over the
// text when asked.
import { BACKSLASH, LBRACE, commandNameEnd, isLetter, lineEnd, readBraceGroup, skipTrivia } from './lexer.js';

/** One conditional a place sits in: the conditional (its offset in the text) and the branch taken. */
export interface BranchStep {
  cond: number;
  branch: number;
  /**
   * The named switch the conditional tests (`toggle:web` for `\\iftoggle{web}`, `bool:sol` for
   * `\\ifsol`, `\\ifbool{sol}` and `\\ifthenelse{\\boolean{sol}}`), with `on`: whether this branch is
   * read when the switch is true. Two conditionals on one switch that nothing sets in between
   * read opposite branches together never.
   */
  flag?: string;
  on?: boolean;
}

export interface BranchRegion extends BranchStep {
  start: number;
  end: number;
}

/**
 * Conditionals written as macros with brace arguments: how many arguments the condition takes
 * before the two branches (true, false).
 */
const BRACE_CONDITIONALS: Record<string, number> = {
  ifthenelse: 1, // ifthen: \ifthenelse{\boolean{x}}{A}{B}, {\isodd{\thepage}}
  iftoggle: 1, nottoggle: 1, ifbool: 1, notbool: 1, ifboolexpr: 1, ifboolexpe: 1, // etoolbox
  ifdef: 1, ifndef: 1, ifundef: 1, ifcsdef: 1, ifcsundef: 1, ifdefmacro: 1, ifdefempty: 1, ifcsempty: 1,
  ifdefvoid: 1, ifblank: 1, notblank: 1, ifdefstring: 2, ifstrequal: 2, ifnumcomp: 3, ifnumequal: 2,
  ifdefequal: 2, ifcsequal: 2,
  IfFileExists: 1, // LaTeX kernel
  IfBooleanTF: 1, IfNoValueTF: 1, IfValueTF: 1, IfStrEqTF: 2, // xparse / expl3-style
  ifpackageloaded: 1, IfPackageLoadedTF: 1, ifclassloaded: 1, IfClassLoadedTF: 1,
};

/** Conditionals of TeX that compare or test a state (`\\ifx\\a\\b`, `\\ifmmode`): each use asks anew, so no switch. */
const TEX_TESTS = new Set(['if', 'ifcat', 'ifnum', 'ifdim', 'ifodd', 'ifx', 'ifvoid', 'ifhbox', 'ifvbox', 'ifeof', 'ifcase',
  'ifdefined', 'ifcsname', 'iffontchar', 'ifincsname', 'ifabsnum', 'ifabsdim', 'ifpdfabsnum', 'ifpdfabsdim', 'ifprimitive',
  'ifpdfprimitive', 'ifvmode', 'ifhmode', 'ifmmode', 'ifinner', 'iftrue', 'iffalse', 'ifinternal', 'ifmeasuring@']);

/** The switch a brace conditional tests, and whether its first branch is the one read when it is on. */
function braceSwitch(name: string, condition: string): { flag: string; on: boolean } | undefined {
  const arg = condition.trim();
  if (!/^[\w@:.-]+$/.test(arg) && name !== 'ifthenelse') return undefined;
  switch (name) {
    case 'iftoggle': return { flag: `toggle:${arg}`, on: true };
    case 'nottoggle': return { flag: `toggle:${arg}`, on: false };
    // etoolbox's booleans are TeX's `\\newif` switches, and so are ifthen's
    case 'ifbool': return { flag: `bool:${arg}`, on: true };
    case 'notbool': return { flag: `bool:${arg}`, on: false };
    case 'IfFileExists': return { flag: `file:${arg}`, on: true };
    case 'ifthenelse': {
      const m = /^\\boolean\s*\{\s*([\w@]+)\s*\}$/.exec(arg);
      return m ? { flag: `bool:${m[1]}`, on: true } : undefined;
    }
    default: return undefined;
  }
}

/** Conditionals whose bodies are never compiled together; `\iff` is a symbol. */
function isTexConditional(name: string): boolean {
  return name.startsWith('if') && name !== 'iff' && BRACE_CONDITIONALS[name] === undefined;
}

/** Commands after which a conditional's name is being defined, not opened. */
const DEFINERS = new Set(['newif', 'let', 'def', 'gdef', 'edef', 'xdef', 'newcommand', 'renewcommand', 'providecommand', 'global', 'DeclareRobustCommand']);

/**
 * What the scan stops at: a comment, an escaped symbol (`\\`, `\%`, so that what follows is
 * text), a conditional, a definer, or `\fi`/`\else`/`\or`; other commands cannot change a branch.
 */
const RELEVANT = new RegExp(`\\\\[^A-Za-z@]|\\\\(?:if[A-Za-z@]*|${[...DEFINERS, ...Object.keys(BRACE_CONDITIONALS), 'fi', 'else', 'or']
  .sort((a, b) => b.length - a.length).join('|')})(?![A-Za-z@])|%`);

/** Nesting past this is not tracked (its places get no further steps). */
const MAX_DEPTH = 32;
/** Regions past this are not recorded: their places read as unconditional. */
const MAX_REGIONS = 20_000;

/**
 * The branches of every conditional of `text`, in order of their starts; `complete` is false
 * when nesting or the number of branches passed the bounds (what is past them is unknown).
 */
export function branchRegions(text: string): { regions: BranchRegion[]; complete: boolean } {
  const regions: BranchRegion[] = [];
  let complete = true;
  // open TeX conditionals: their start and the start of the branch being read
  const open: Array<{ cond: number; branch: number; from: number; flag?: string }> = [];
  const switchOf = (o: { branch: number; flag?: string }) => (o.flag && o.branch < 2 ? { flag: o.flag, on: o.branch === 0 } : {});
  const limit = text.length;
  const push = (r: BranchRegion) => {
    if (r.end <= r.start) return;
    if (regions.length < MAX_REGIONS) regions.push(r); else complete = false;
  };
  // the search jumps from one command that matters (or comment, or escaped symbol) to the next
  const next = new RegExp(RELEVANT.source, 'g');
  for (let i = 0; i < limit; ) {
    next.lastIndex = i;
    const m = next.exec(text);
    if (!m) break;
    i = m.index;
    if (m[0] === '%') { i = lineEnd(text, i, limit); continue; }
    const end = i + m[0].length;
    if (m[0].length === 2 && !isLetter(m[0].charCodeAt(1))) { i = end; continue; }
    const name = m[0].slice(1);
    if (DEFINERS.has(name)) {
      // `\newif\ifsolutions`, `\let\ifpdf\iftrue`, `\def\ifmine{…}`: the name that follows is defined here
      const p = skipTrivia(text, end, limit);
      const q = text.charCodeAt(p) === LBRACE ? p + 1 : p;
      i = text.charCodeAt(q) === BACKSLASH ? commandNameEnd(text, q + 1, limit) : end;
      if (name === 'let') {
        // `\let\ifpdf\iftrue`: the second name is a value, not a conditional opened here
        let r = skipTrivia(text, i, limit);
        if (text.charCodeAt(r) === 61 /* = */) r = skipTrivia(text, r + 1, limit);
        if (text.charCodeAt(r) === BACKSLASH) i = commandNameEnd(text, r + 1, limit);
      }
      continue;
    }
    const args = BRACE_CONDITIONALS[name];
    if (args !== undefined) {
      let p = end;
      let ok = true;
      for (let k = 0; k < args && ok; k++) {
        const g = readBraceGroup(text, skipTrivia(text, p, limit), limit);
        if (g) p = g.next; else ok = false;
      }
      const yes = ok ? readBraceGroup(text, skipTrivia(text, p, limit), limit) : null;
      const no = yes ? readBraceGroup(text, skipTrivia(text, yes.next, limit), limit) : null;
      if (yes && no) {
        const sw = args === 1 ? braceSwitch(name, text.slice(skipTrivia(text, end, limit) + 1, p - 1)) : undefined;
        push({ cond: i, branch: 0, start: yes.start, end: yes.end, ...(sw && { flag: sw.flag, on: sw.on }) });
        push({ cond: i, branch: 1, start: no.start, end: no.end, ...(sw && { flag: sw.flag, on: !sw.on }) });
      }
      // the branches are read on: their own conditionals nest inside them
      i = Math.max(end, i + 2);
      continue;
    }
    if (name === 'fi' || name === 'else' || name === 'or') {
      const top = open[open.length - 1];
      if (top) {
        push({ cond: top.cond, branch: top.branch, start: top.from, end: i, ...switchOf(top) });
        if (name === 'fi') open.pop();
        else { top.branch++; top.from = end; if (name === 'or') top.flag = undefined; }
      }
      i = end;
      continue;
    }
    if (isTexConditional(name) && text.charCodeAt(skipTrivia(text, end, limit)) === LBRACE) {
      // a macro named `\\if…` with brace arguments (`\\iftag{x}{A}{B}`, the project's own): its last two groups are the branches
      const groups: Array<{ start: number; end: number; next: number }> = [];
      let p = end;
      for (let g = readBraceGroup(text, skipTrivia(text, p, limit), limit); g && groups.length < 6; g = readBraceGroup(text, skipTrivia(text, p, limit), limit)) {
        groups.push(g);
        p = g.next;
      }
      if (groups.length >= 3) {
        push({ cond: i, branch: 0, start: groups[groups.length - 2].start, end: groups[groups.length - 2].end });
        push({ cond: i, branch: 1, start: groups[groups.length - 1].start, end: groups[groups.length - 1].end });
      }
      i = end;
      continue;
    }
    if (isTexConditional(name)) {
      // `\\ifsol` tests the switch `\\newif\\ifsol` made; `\\ifcase` has more than two branches
      const flag = TEX_TESTS.has(name) ? undefined : `bool:${name.slice(2)}`;
      if (open.length < MAX_DEPTH) open.push({ cond: i, branch: 0, from: end, flag }); else complete = false;
    }
    i = Math.max(end, i + 2);
  }
  // unclosed: TeX reads on to the end
  for (const o of open) push({ cond: o.cond, branch: o.branch, start: o.from, end: limit, ...switchOf(o) });
  regions.sort((a, b) => a.start - b.start || b.end - a.end);
  return { regions, complete };
}

/** The conditionals `offset` sits in, outermost first. */
export function branchPath(regions: readonly BranchRegion[], offset: number): BranchStep[] {
  const out: BranchStep[] = [];
  for (const r of regions) {
    if (r.start > offset) break;
    if (offset < r.end) out.push({ cond: r.cond, branch: r.branch, ...(r.flag !== undefined && { flag: r.flag, on: r.on }) });
  }
  return out;
}

/**
 * Whether two places are never compiled together: some conditional holds them in different
 * branches. Steps are compared by `id` (a conditional's identity across files).
 */
export function exclusive(a: ReadonlyArray<{ id: string; branch: number; flag?: string; on?: boolean }>, b: ReadonlyArray<{ id: string; branch: number; flag?: string; on?: boolean }>, bySwitch = false): boolean {
  for (const x of a) {
    for (const y of b) {
      if (x.id === y.id && x.branch !== y.branch) return true;
      if (bySwitch && x.flag !== undefined && x.flag === y.flag && x.on !== y.on) return true;
    }
  }
  return false;
}
