// What sits under the cursor: a label definition, a reference (also one made through the
// project's macros: `\thmref{x}`), or an include path.
import type { DocInclude, DocLabel, DocRef } from '../../model/documentView.js';
import type { Doc, Workspace } from '../../project/workspace.js';
import { inheritedState, macroLabelMap, macroRefs, projectMacros } from '../../project/userMacros.js';

export type CursorTarget =
  | { type: 'label'; name: string; label: DocLabel; start: number; end: number }
  | { type: 'ref'; name: string; ref: DocRef; start: number; end: number }
  | { type: 'include'; include: DocInclude; start: number; end: number };

/** Finds the label, reference or include at `offset` (inclusive of the name's end); with `ws`, also those made through macros. */
export function targetAt(doc: Doc, offset: number, ws?: Workspace): CursorTarget | undefined {
  const own = ownTargetAt(doc, offset);
  if (own || !ws) return own;
  for (const ref of macroRefs(ws, doc)) {
    if (offset >= Math.min(ref.start, ref.cmdStart) && offset <= ref.end && (offset >= ref.start || offset <= ref.cmdEnd)) return { type: 'ref', name: ref.name, ref, start: ref.start, end: ref.end };
  }
  for (const labels of macroLabelMap(doc, projectMacros(ws, doc), inheritedState(ws, doc)).values()) {
    for (const label of labels) if (offset >= label.start && offset <= label.end) return { type: 'label', name: label.name, label, start: label.start, end: label.end };
  }
  return undefined;
}

function ownTargetAt(doc: Doc, offset: number): CursorTarget | undefined {
  for (const label of doc.labels()) {
    if (label.cmdStart > offset) break;
    if (offset <= label.end && offset >= label.cmdStart) return { type: 'label', name: label.name, label, start: label.start, end: label.end };
  }
  for (const ref of doc.refs()) {
    if (ref.cmdStart > offset) break;
    if (offset >= ref.start && offset <= ref.end) return { type: 'ref', name: ref.name, ref, start: ref.start, end: ref.end };
  }
  // the command name itself (`\ref`, up to its end) also counts: the first name it refers to
  for (const ref of doc.refs()) {
    if (ref.cmdStart > offset) break;
    if (offset >= ref.cmdStart && offset <= ref.cmdStart + 1 + ref.cmd.length) {
      return { type: 'ref', name: ref.name, ref, start: ref.start, end: ref.end };
    }
  }
  for (const inc of doc.includes()) {
    if (inc.start > offset) break;
    if (offset <= inc.end) return { type: 'include', include: inc, start: inc.start, end: inc.end };
  }
  return undefined;
}
