// Inlay hints after references: the number the last LaTeX run printed there (project/auxNumbers.ts),
// as the PDF shows it: `\eqref` in parentheses, `\cref`/`\Cref`/`\autoref` with the kind,
// `\pageref` the page; one hint after the closing brace of a list (`\cref{a,b}`). Nothing
// without an `.aux`; a label the last run did not know gets no hint.
import { InlayHintKind, type InlayHint, type Range } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../project/workspace.js';
import type { AuxNumbers } from '../project/auxNumbers.js';
import { numberedName, printedNumber } from '../project/auxNumbers.js';
import type { NameStyle } from '../project/printedNames.js';

/** Commands that print the kind's name before the number, and in which form. */
const WITH_KIND: Record<string, NameStyle> = { cref: 'cref', Cref: 'Cref', autoref: 'autoref', Autoref: 'autoref', cpageref: 'cref', namecref: 'cref', nameCref: 'Cref' };

function shown(ws: Workspace, doc: Doc, cmd: string, names: string[], aux: AuxNumbers): string | undefined {
  const parts: string[] = [];
  const style = WITH_KIND[cmd];
  for (const n of names) {
    const l = aux.labels.get(n);
    if (!l) return undefined;
    if (cmd === 'pageref' || cmd === 'cpageref') { if (!l.page) return undefined; parts.push(l.page); continue; }
    // `\cref{a,b}`: one name, plural, before the first number
    const part = style && parts.length === 0 ? numberedName(ws, doc, l, style, names.length > 1) : printedNumber(l);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  const text = parts.join(', ');
  if (cmd === 'eqref') return `(${text})`;
  return text;
}

/** Hints for the references of `doc` in `range`. */
export function referenceInlayHints(ws: Workspace, doc: Doc, range: Range, aux: AuxNumbers | undefined): InlayHint[] {
  if (!aux) return [];
  const from = doc.offsetAt(range.start);
  const to = doc.offsetAt(range.end);
  // one group per command: `\cref{a,b}` is two facts
  const groups = new Map<number, { cmd: string; names: string[]; end: number }>();
  for (const r of doc.refs()) {
    if (r.end < from || r.start > to) continue;
    const g = groups.get(r.cmdStart);
    if (g) { g.names.push(r.name); g.end = Math.max(g.end, r.end); } else groups.set(r.cmdStart, { cmd: r.cmd, names: [r.name], end: r.end });
  }
  const out: InlayHint[] = [];
  const text = doc.text;
  for (const g of groups.values()) {
    const label = shown(ws, doc, g.cmd, g.names, aux);
    if (!label) continue;
    const close = text.indexOf('}', g.end);
    const at = close >= 0 && close - g.end < 200 ? close + 1 : g.end;
    out.push({
      position: doc.positionAt(at), label, kind: InlayHintKind.Type, paddingLeft: true,
      tooltip: `${aux.stale ? 'At last compilation' : 'From the last LaTeX run'} (${aux.file.split(/[\\/]/).pop()})`,
    });
  }
  return out.sort((a, b) => a.position.line - b.position.line || a.position.character - b.position.character);
}
