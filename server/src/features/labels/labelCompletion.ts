// Completion of label names inside `\ref{`-like commands, with the label's kind as detail
// and a rendered preview of the statement or equation as documentation.
import { CompletionItemKind, MarkupKind, type CompletionItem, type CompletionList } from 'vscode-languageserver-types';
import type { Doc, LabelLocation, Workspace } from '../../project/workspace.js';
import { printedNumberOf, type AuxNumbers } from '../../project/auxNumbers.js';
import { refCommandAlternation } from '../../syntax/blockAnalyser.js';
import { labelTarget } from '../../analysis/structure.js';
import { labelBody, locationText, targetHeading } from './labelPreview.js';
import { projectMacros } from '../../project/userMacros.js';

// every reference command of syntax/blockAnalyser.ts#REF_COMMANDS (the first argument of the
// two-label ones), or `\hyperref[`
const REF_BEFORE_CURSOR = new RegExp(`\\\\(?:${refCommandAlternation()})\\*?\\s*\\{([^{}\\\\%]*)$|\\\\hyperref\\s*\\[([^\\]\\\\%]*)$`);

export interface RefContext {
  /** Offset where the partial name starts (replacement start). */
  start: number;
  /** Offset where the name ends (replacement end). */
  end: number;
  typed: string;
  /**
   * Inside a macro of the project that writes more around its argument (`\\lemref{x}` =
   * `\\ref{lem:x}`): what it adds; labels are offered without it.
   */
  around?: { before: string; after: string };
  /** `\\eqref{`: equations first. */
  equation?: boolean;
}

/** Whether `offset` is inside the argument of a reference command (with `ws`, also of the project's reference macros). */
export function refContextAt(doc: Doc, offset: number, ws?: Workspace): RefContext | undefined {
  const text = doc.text;
  const from = Math.max(0, offset - 300);
  const before = text.slice(from, offset);
  const m = REF_BEFORE_CURSOR.exec(before);
  if (m) return { ...keySpan(text, offset, m[1] ?? m[2] ?? '', /[,}\]\s%\\{]/), ...(/^\\eqref/.test(m[0]) ? { equation: true } : {}) };
  if (!ws) return undefined;
  // `\thmref{…`, `\myref{Theorem}{…`: the argument a reference macro makes its key from
  for (const macro of projectMacros(ws, doc)) {
    if (macro.env) continue;
    for (const e of macro.effects) {
      const t = /^([^#{}\\]*)#(\d)([^#{}\\]*)$/.exec(e.template);
      if (e.kind !== 'ref' || !t) continue;
      const k = Number(t[2]) - (macro.optional ? 1 : 0);
      if (k < 1) continue;
      const name = macro.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const re = new RegExp(`\\\\${name}(?![A-Za-z@])\\*?\\s*(?:\\[[^\\]]*\\]\\s*)?(?:\\{[^{}]*\\}\\s*){${k - 1}}\\{([^{}\\\\%]*)$`);
      const hit = re.exec(before);
      if (hit) return { ...keySpan(text, offset, hit[1], /[,}\]\s%\\{]/), around: { before: t[1], after: t[3] } };
    }
  }
  return undefined;
}

/**
 * The name being typed in a comma-separated argument (`arg`: its text up to the cursor at
 * `offset`) and where it ends after the cursor (at a character of `stop`, within 300): what a
 * completion replaces, for labels and citation keys alike.
 */
export function keySpan(text: string, offset: number, arg: string, stop: RegExp): RefContext {
  const typed = arg.slice(arg.lastIndexOf(',') + 1).trimStart();
  let end = offset;
  while (end < text.length && end - offset < 300 && !stop.test(text[end])) end++;
  return { start: offset - typed.length, end, typed };
}

const KIND_ICON: Record<string, CompletionItemKind> = {
  theorem: CompletionItemKind.Class, equation: CompletionItemKind.Constant, section: CompletionItemKind.Module,
  item: CompletionItemKind.EnumMember, figure: CompletionItemKind.File, table: CompletionItemKind.File,
  proof: CompletionItemKind.Method, other: CompletionItemKind.Reference,
};

/** Reorders (sortText) the items offered for a reference; e.g. by relevance inside a proof. */
export type CompletionRanker = (ctx: RefContext, items: CompletionItem[]) => void;

/**
 * What an item of a label list carries for `resolveCompletion`: the label's document and
 * offset, its xr prefix, and the document asked from, documents by their number (Workspace#idOf).
 * Kept short: a project of thousands of labels sends this once per label on each keystroke.
 */
type LabelData = [target: number, start: number, from: number, prefix?: string];

export function completion(ws: Workspace, doc: Doc, offset: number, rank?: CompletionRanker, auxNumbers?: () => AuxNumbers | undefined, opts: { editRangeDefault?: boolean } = {}): CompletionList | null {
  const ctx = refContextAt(doc, offset, ws);
  if (!ctx) return null;
  const numbers = auxNumbers?.();
  const range = doc.range(ctx.start, ctx.end);
  const from = ws.idOf(doc);
  const seen = new Set<string>();
  const items: CompletionItem[] = [];
  const add = (loc: LabelLocation): void => {
    let name = loc.prefix + loc.label.name;
    if (ctx.around) {
      // through `\lemref{…}` = `\ref{lem:…}`: the labels it can make, without what it adds
      const { before, after } = ctx.around;
      if (!name.startsWith(before) || !name.endsWith(after) || name.length < before.length + after.length + 1) return;
      name = name.slice(before.length, name.length - after.length);
    }
    if (seen.has(name)) return;
    seen.add(name);
    const t = labelTarget(ws, loc.doc, loc.label);
    const data: LabelData = [ws.idOf(loc.doc), loc.label.start, from];
    if (loc.prefix) data.push(loc.prefix);
    // the text it inserts and is filtered by is its label; where it goes is the list's default range when the client takes one
    items.push({
      label: name,
      kind: KIND_ICON[t.kind],
      // the number the last LaTeX run gave it, for the labels of this project (not external documents)
      detail: ((n) => (n && !loc.prefix ? `${n} · ${targetHeading(t)}` : targetHeading(t)))(printedNumberOf(numbers, loc.label.name)),
      ...(opts.editRangeDefault ? {} : { textEdit: { range, newText: name } }),
      sortText: (ctx.equation && t.kind !== 'equation' ? '9' : '') + (loc.doc === doc ? '0' : loc.prefix ? '2' : '1') + name,
      data,
    });
  };
  for (const loc of ws.visibleLabels(doc)) add(loc);
  // labels of xr external documents only once the typed text selects a prefix: a project
  // like Stacks would otherwise offer ~100k names; until then each prefix is offered (from the
  // first keystroke on, so that `\ref{` shows where the other chapters' labels are)
  for (const ext of ws.externalPrefixes(doc)) {
    if (!ext.prefix || !(ctx.typed.startsWith(ext.prefix) || ext.prefix.startsWith(ctx.typed))) continue;
    if (!ctx.typed.startsWith(ext.prefix)) {
      items.push({ label: ext.prefix, kind: CompletionItemKind.Folder, detail: 'external document prefix', textEdit: { range, newText: ext.prefix }, command: { title: 'labels', command: 'editor.action.triggerSuggest' } });
      continue;
    }
    for (const d of ext.scope) for (const label of d.labels()) add({ doc: d, label, prefix: ext.prefix });
  }
  rank?.(ctx, items);
  return { isIncomplete: true, items, ...(opts.editRangeDefault ? { itemDefaults: { editRange: range } } : {}) };
}

/** Where a label item of `completion` points: its document and the label's offset there, its prefix, the document asked from. */
export function labelItemTarget(ws: Workspace, item: CompletionItem): { doc: Doc; start: number; prefix: string; from?: Doc } | undefined {
  const data = item.data as LabelData | undefined;
  if (!Array.isArray(data) || typeof data[0] !== 'number' || typeof data[1] !== 'number') return undefined;
  const [target, start, from, prefix = ''] = data;
  const doc = ws.docById(target);
  return doc ? { doc, start, prefix, from: typeof from === 'number' ? ws.docById(from) : undefined } : undefined;
}

/** Fills in the preview documentation lazily (completionItem/resolve). */
export function resolveCompletion(ws: Workspace, item: CompletionItem): CompletionItem {
  const t = labelItemTarget(ws, item);
  const label = t?.doc.labels().find((l) => l.start === t.start);
  if (!t || !label) return item;
  const loc = { doc: t.doc, label, prefix: t.prefix };
  const body = labelBody(ws, loc, 800);
  item.documentation = { kind: MarkupKind.Markdown, value: `${locationText(loc, t.from?.uri)}${body ? '\n\n' + body : ''}` };
  return item;
}
