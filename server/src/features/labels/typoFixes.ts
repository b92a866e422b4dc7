// Quick fixes for an undefined `\ref` or `\cite` key under the cursor: the labels (or
// bibliography keys) of its project closest to what was written, by edit distance with
// transpositions ("thm:mian" → "thm:main"), best first, the best one preferred. Only close
// names are offered (at most one edit in four characters, three in all): a fix that rewrites
// the name is not a typo fix.
import { CodeActionKind, type CodeAction, type Diagnostic, type Range } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../../project/workspace.js';
import { citationSources } from '../citations/citations.js';

const MAX_FIXES = 3;

export function typoFixes(ws: Workspace, doc: Doc, range: Range, diagnostics: readonly Diagnostic[] = []): CodeAction[] {
  const a = doc.offsetAt(range.start), b = doc.offsetAt(range.end);
  const out: CodeAction[] = [];
  const touches = (s: number, e: number) => s <= b && e >= a;
  const fix = (name: string, start: number, end: number, code: string, names: () => Iterable<string>) => {
    const r = doc.range(start, end);
    const diag = diagnostics.filter((d) => d.code === code && d.range.start.line === r.start.line && d.range.start.character === r.start.character);
    closest(name, names()).forEach((n, i) => out.push({
      title: `Change to '${n}'`, kind: CodeActionKind.QuickFix, isPreferred: i === 0, diagnostics: diag.length ? diag : undefined,
      edit: { changes: { [doc.uri]: [{ range: r, newText: n }] } },
    }));
  };
  for (const ref of doc.refs()) {
    if (ref.cmdStart > b) break;
    if (!touches(ref.start, ref.end) || ws.countLabel(doc, ref.name) > 0) continue;
    fix(ref.name, ref.start, ref.end, 'undefined-ref', function* () {
      for (const l of ws.visibleLabels(doc)) yield l.label.name;
      for (const ext of ws.externalPrefixes(doc)) for (const d of ext.scope) for (const l of d.labels()) yield ext.prefix + l.name;
    });
  }
  const cites = doc.cites().filter((c) => touches(c.start, c.end) && c.key !== '*');
  if (cites.length) {
    const src = citationSources(ws, doc);
    // an unread or missing bibliography: the key may well exist
    if (src.complete) {
      const keys = [...src.files.flatMap((f) => f.file.entries.map((e) => e.key)), ...src.items.flatMap((d) => d.items.map((i) => i.key))];
      const known = new Set(keys);
      for (const c of cites) if (!known.has(c.key)) fix(c.key, c.start, c.end, 'undefined-citation', () => keys);
    }
  }
  return out;
}

/** The names within a typo's distance of `name`, nearest first (then alphabetically), at most MAX_FIXES. */
export function closest(name: string, names: Iterable<string>): string[] {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 4)));
  const found = new Map<string, number>();
  for (const n of names) {
    if (n === name || found.has(n) || Math.abs(n.length - name.length) > limit) continue;
    const d = n.toLowerCase() === name.toLowerCase() ? 0.5 : editDistance(name, n, limit);
    if (d <= limit) found.set(n, d);
  }
  return [...found].sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1)).slice(0, MAX_FIXES).map(([n]) => n);
}

/** Optimal string alignment distance (edits and adjacent transpositions), or limit + 1 once it exceeds `limit`. */
export function editDistance(s: string, t: string, limit: number): number {
  let prev2 = new Array<number>(t.length + 1).fill(0);
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = new Array<number>(t.length + 1);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[t.length];
}
