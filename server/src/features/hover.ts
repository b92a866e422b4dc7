// Hover on a reference shows the referenced statement/equation; on a label, what it labels
// and how often it is referenced.
import { MarkupKind, type Hover } from 'vscode-languageserver';
import type { Doc, Workspace } from '../project/workspace.js';
import { targetAt } from './cursor.js';
import { labelHoverMarkdown } from './labelPreview.js';
import { findReferences } from './navigation.js';
import { derivationHover } from './derivation.js';
import type { DocStep } from '../math/service.js';

export function hover(ws: Workspace, doc: Doc, offset: number, steps: readonly DocStep[] = []): Hover | null {
  // a flagged derivation step: both sides at the counterexample
  const d = derivationHover(doc, steps, offset);
  if (d) return d;
  const t = targetAt(doc, offset);
  if (!t || t.type === 'include') return null;
  const range = doc.range(t.start, t.end);
  if (t.type === 'ref') {
    const locs = ws.findLabel(doc, t.name);
    if (locs.length === 0) {
      return { range, contents: { kind: MarkupKind.Markdown, value: `**Undefined reference** \`${t.name}\`` } };
    }
    const parts = locs.slice(0, 3).map((l) => labelHoverMarkdown(ws, l, doc.uri));
    if (locs.length > 1) parts.unshift(`*${locs.length} definitions of \`${t.name}\`*`);
    return { range, contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n---\n\n') } };
  }
  const loc = { doc, label: t.label, prefix: '' };
  const refs = findReferences(ws, doc, offset, false);
  const count = `*Referenced ${refs.length} time${refs.length === 1 ? '' : 's'}*`;
  return { range, contents: { kind: MarkupKind.Markdown, value: `${labelHoverMarkdown(ws, loc, doc.uri)}\n\n${count}` } };
}
