// Completion of environment names after `\begin{` and `\end{`, and of the project's own
// macros after `\`. For `\end{` the innermost environment still open at the cursor comes first
// (preselected); then the project's theorem-like environments (`\newtheorem`, thmtools, wrapper
// macros), the environments already used in the project, and the common LaTeX/amsmath ones.
// Macros are those the project defines (`\newcommand`, `\def`, `\DeclareMathOperator`, …),
// with their argument count and definition: standard commands are the LaTeX extension's job.
import { CompletionItemKind, MarkupKind, type CompletionItem, type CompletionList } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../../project/workspace.js';
import { keySpan } from '../labels/labelCompletion.js';

const ENV_BEFORE_CURSOR = /\\(begin|end)\s*\{([A-Za-z@*:-]*)$/;
// a backslash not itself escaped (`\\` is a line break), then the letters typed so far
const MACRO_BEFORE_CURSOR = /(?:^|[^\\])(?:\\\\)*\\([A-Za-z@]*)$/;

const STANDARD: Array<[string, string]> = [
  ['equation', 'numbered display'], ['equation*', 'display'], ['align', 'aligned equations, numbered'], ['align*', 'aligned equations'],
  ['gather', 'centred equations, numbered'], ['gather*', 'centred equations'], ['multline', 'one long equation, numbered'], ['multline*', 'one long equation'],
  ['flalign', 'full-width alignment'], ['alignat', 'alignment with set spacing'], ['split', 'split inside an equation'], ['aligned', 'alignment inside math'],
  ['cases', 'cases'], ['matrix', 'matrix'], ['pmatrix', '(matrix)'], ['bmatrix', '[matrix]'], ['vmatrix', '|matrix|'], ['array', 'array'],
  ['proof', 'proof (amsthm)'], ['itemize', 'bulleted list'], ['enumerate', 'numbered list'], ['description', 'description list'],
  ['figure', 'float'], ['table', 'float'], ['tabular', 'table body'], ['center', 'centred'], ['quote', 'quotation'],
  ['abstract', 'abstract'], ['verbatim', 'verbatim text'], ['document', 'the document body'], ['thebibliography', '\\bibitem list'],
];

export function environmentCompletion(ws: Workspace, doc: Doc, offset: number): CompletionList | null {
  const text = doc.text;
  const m = ENV_BEFORE_CURSOR.exec(text.slice(Math.max(0, offset - 100), offset));
  if (!m) return null;
  const span = keySpan(text, offset, m[2], /[}\s%\\{,]/);
  const range = doc.range(span.start, span.end);
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  const add = (name: string, detail: string, rank: number, kind: CompletionItemKind, extra: Partial<CompletionItem> = {}) => {
    if (seen.has(name) || !name) return;
    seen.add(name);
    items.push({ label: name, kind, detail, textEdit: { range, newText: name }, filterText: name, sortText: `${rank}${name}`, ...extra });
  };
  if (m[1] === 'end') {
    const open = openEnvironment(text, offset - m[0].length);
    if (open) add(open, 'closes the open environment', 0, CompletionItemKind.Snippet, { preselect: true });
  }
  const theorems = ws.theorems(doc);
  for (const k of theorems.all()) if (k.source === 'user') add(k.env, `${k.title}${k.numbered ? '' : ', unnumbered'} (theorem-like)`, 1, CompletionItemKind.Class);
  for (const d of ws.scope(doc)) for (const e of d.envs()) if (/^[A-Za-z@*:-]+$/.test(e.name)) add(e.name, theorems.get(e.name) ? `${theorems.get(e.name)!.title} (theorem-like)` : 'used in this project', 2, CompletionItemKind.Module);
  for (const [name, detail] of STANDARD) add(name, detail, 3, CompletionItemKind.Module);
  return { isIncomplete: false, items };
}

/** The innermost environment opened before `offset` and not closed before it (comments skipped). */
export function openEnvironment(text: string, offset: number): string | undefined {
  const from = Math.max(0, offset - 200_000);
  const stack: string[] = [];
  const re = /\\(begin|end)\s*\{([^{}\n]{1,80})\}|%[^\n]*|\\\\|\\%/g;
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < offset; m = re.exec(text)) {
    if (!m[1]) continue; // a comment, or an escaped backslash or percent
    if (m[1] === 'begin') { stack.push(m[2]); continue; }
    const at = stack.lastIndexOf(m[2]);
    if (at >= 0) stack.length = at;
  }
  return stack[stack.length - 1];
}

export function macroCompletion(ws: Workspace, doc: Doc, offset: number): CompletionList | null {
  const text = doc.text;
  const m = MACRO_BEFORE_CURSOR.exec(text.slice(Math.max(0, offset - 100), offset));
  if (!m) return null;
  const start = offset - m[1].length - 1;
  let end = offset;
  while (end < text.length && end - offset < 100 && /[A-Za-z@]/.test(text[end])) end++;
  const range = doc.range(start, end);
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  for (const d of ws.scope(doc)) {
    for (const mac of d.macros()) {
      const name = mac.name.startsWith('\\') ? mac.name : `\\${mac.name}`;
      if (seen.has(name) || !/^\\[A-Za-z@]+$/.test(name)) continue;
      seen.add(name);
      const args = mac.nargs ? `${mac.nargs} argument${mac.nargs > 1 ? 's' : ''}${mac.optDefault !== undefined ? ` (first optional, default ${mac.optDefault})` : ''}` : 'no arguments';
      items.push({
        label: name, kind: CompletionItemKind.Function, detail: `${args} · \\${mac.cmd}`,
        documentation: { kind: MarkupKind.Markdown, value: `\`\`\`latex\n${mac.body.slice(0, 400)}\n\`\`\`` },
        textEdit: { range, newText: name }, filterText: name, sortText: name.toLowerCase(),
      });
    }
  }
  return items.length ? { isIncomplete: false, items } : null;
}
