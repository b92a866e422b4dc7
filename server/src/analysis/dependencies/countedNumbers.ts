// Statement numbers counted from the source, for a compilation without an `.aux`: each
// theorem counter (shared counters followed, `\newtheorem{lemma}[theorem]{Lemma}`) advances per
// numbered statement and restarts with its parent sectioning counter (`[section]`), chapters and
// sections advance per unstarred heading, `\appendix` switches the top level to letters. What
// the source alone cannot say (`\setcounter`, `\numberwithin` in a class file) is not followed:
// these numbers are said to be counted, never taken for the printed ones.
import type { Doc, Workspace } from '../../project/workspace.js';
import { statements } from '../structure.js';

/** Sectioning levels by name, as the document model numbers them (0 part, 1 chapter, …). */
const LEVELS = ['part', 'chapter', 'section', 'subsection', 'subsubsection', 'paragraph', 'subparagraph'];

interface Event { at: number; kind: 'section' | 'statement' | 'include' | 'appendix'; level?: number; doc?: Doc; env?: number }

/**
 * Counted number of each numbered statement of the compilation of `root`, by document URI and
 * the statement's position among the document's statements (what stays the same while the text
 * around it changes).
 */
export function countedNumbers(ws: Workspace, root: Doc): Map<string, Map<number, string>> {
  const out = new Map<string, Map<number, string>>();
  const order = ws.includeOrder([root]);
  const hasChapters = order.some((d) => d.sections().some((s) => s.level === 1 && s.cmd === 'chapter'));
  // levels with a heading the source shows: a counter within a level whose headings the project
  // makes through its own macros (`\\olchapter`) prints a prefix no count here can know
  const shown = new Set<number>();
  for (const d of order) for (const s of d.sections()) if (!s.starred) shown.add(s.level);
  const sectionCounts = LEVELS.map(() => 0);
  const counters = new Map<string, number>();
  let appendix = false;
  const seen = new Set<Doc>();
  const levelNumber = (level: number): string => {
    const top = hasChapters ? 1 : 2;
    const parts: string[] = [];
    for (let l = top; l <= level; l++) parts.push(l === top && appendix ? String.fromCharCode(64 + Math.max(1, sectionCounts[l])) : String(sectionCounts[l]));
    return parts.join('.');
  };
  const walk = (doc: Doc): void => {
    if (seen.has(doc)) return;
    seen.add(doc);
    const events: Event[] = [];
    for (const s of doc.sections()) if (!s.starred && s.level >= 1 && s.level < LEVELS.length) events.push({ at: s.start, kind: 'section', level: s.level });
    const stmts = statements(ws, doc);
    for (const st of stmts) events.push({ at: st.env.start, kind: 'statement', env: st.index });
    for (const inc of ws.includesOf(doc)) {
      if (inc.kind !== 'input' && inc.kind !== 'include' && inc.kind !== 'subfile' && inc.kind !== 'import') continue;
      const child = ws.resolveInclude(doc, inc);
      if (child) events.push({ at: inc.start, kind: 'include', doc: child });
    }
    for (const m of doc.latexText.matchAll(/^[^%\n]*?\\appendix(?![a-zA-Z])/gm)) events.push({ at: m.index! + m[0].length, kind: 'appendix' });
    events.sort((a, b) => a.at - b.at);
    const envs = doc.envs();
    const stByEnv = new Map(stmts.map((st, ordinal) => [st.index, { st, ordinal }]));
    let mine = out.get(doc.uri);
    for (const e of events) {
      if (e.kind === 'include') { walk(e.doc!); continue; }
      if (e.kind === 'appendix') { appendix = true; sectionCounts.fill(0, hasChapters ? 1 : 2); continue; }
      if (e.kind === 'section') {
        const l = e.level!;
        sectionCounts[l]++;
        for (let k = l + 1; k < sectionCounts.length; k++) sectionCounts[k] = 0;
        // counters numbered within this level or a deeper one restart
        for (const [name] of counters) if (parentLevel.get(name) !== undefined && parentLevel.get(name)! >= l) counters.set(name, 0);
        continue;
      }
      const found = stByEnv.get(e.env!);
      if (!found || !found.st.kind.numbered || envs[e.env!] === undefined) continue;
      const st = found.st;
      const c = st.kind.counter;
      const parent = st.kind.parent ? LEVELS.indexOf(st.kind.parent) : -1;
      if (parent >= 1 && !shown.has(parent)) continue;
      if (parent >= 0) parentLevel.set(c, parent);
      const n = (counters.get(c) ?? 0) + 1;
      counters.set(c, n);
      const prefix = parent >= 1 ? levelNumber(parent) : '';
      if (!mine) { mine = new Map(); out.set(doc.uri, mine); }
      mine.set(found.ordinal, prefix ? `${prefix}.${n}` : String(n));
    }
  };
  const parentLevel = new Map<string, number>();
  walk(root);
  return out;
}
