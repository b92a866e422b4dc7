// Markdown previews of what a label points at, shared by hover and completion.
import * as path from 'node:path';
import type { LabelLocation, Workspace } from '../../project/workspace.js';
import { labelTarget, type LabelTarget } from '../../analysis/structure.js';
import { latexToMarkdown, latexToPlain, mathBlock, type RefTarget } from '../../analysis/render.js';
import { uriToPath } from '../../project/files.js';
import { refsWrittenOut } from '../../project/userMacros.js';

/** "Lemma (Title)" with the title as plain text. */
export function targetHeading(t: LabelTarget): string {
  return t.title ? `${t.displayName} (${latexToPlain(t.title)})` : t.displayName;
}

/** Short one-line description: "Lemma (Title)" or "Equation". */
export function labelDetail(ws: Workspace, loc: LabelLocation): string {
  return targetHeading(labelTarget(ws, loc.doc, loc.label));
}

/** Location text "file.tex:123" relative to the referencing document when possible. */
export function locationText(loc: LabelLocation, fromUri?: string): string {
  const p = uriToPath(loc.doc.uri) ?? loc.doc.uri;
  const from = fromUri ? uriToPath(fromUri) : undefined;
  const shown = from ? path.relative(path.dirname(from), p) || path.basename(p) : path.basename(p);
  return `${shown}:${loc.doc.positionAt(loc.label.start).line + 1}`;
}

/** The body of what the label labels, rendered as Markdown. */
export function labelBody(ws: Workspace, loc: LabelLocation, maxLength = 1500): string {
  const { doc } = loc;
  const t = labelTarget(ws, doc, loc.label);
  const text = doc.latexText;
  const refTarget = (name: string): RefTarget | undefined => {
    const loc = ws.findLabel(doc, name)[0];
    if (!loc) return undefined;
    const target = labelTarget(ws, loc.doc, loc.label);
    return { kind: target.displayName, title: target.title ? latexToPlain(target.title) : undefined };
  };
  if (t.kind === 'equation' && t.env) {
    const env = t.env;
    if (t.row !== undefined && env.rows && env.rows.length > 1) {
      const row = env.rows[t.row];
      return mathBlock(env.name, text.slice(row.start, row.end));
    }
    return mathBlock(env.name, text.slice(env.bodyStart, env.bodyEnd));
  }
  if ((t.kind === 'theorem' || t.kind === 'figure' || t.kind === 'table' || t.kind === 'proof') && t.env) {
    return latexToMarkdown(refsWrittenOut(ws, doc, t.env.bodyStart, t.env.bodyEnd), { maxLength, refTarget });
  }
  if (t.kind === 'item' && t.env) {
    // the item the label sits in: from the last \item before the label to the next one
    const before = text.lastIndexOf('\\item', loc.label.cmdStart);
    const start = before >= t.env.bodyStart ? before + 5 : t.env.bodyStart;
    let end = text.indexOf('\\item', loc.label.end);
    if (end < 0 || end > t.env.bodyEnd) end = t.env.bodyEnd;
    return latexToMarkdown(refsWrittenOut(ws, doc, start, end), { maxLength, refTarget });
  }
  if (t.kind === 'section' && t.section) {
    return `**${latexToMarkdown(t.section.title, { maxLength: 300 })}**`;
  }
  return '';
}

export function labelHoverMarkdown(ws: Workspace, loc: LabelLocation, fromUri?: string): string {
  const t = labelTarget(ws, loc.doc, loc.label);
  const title = t.title ? ` (${latexToMarkdown(t.title, { maxLength: 200 })})` : '';
  const header = `**${t.displayName}**${title} · \`${loc.prefix}${loc.label.name}\` · ${locationText(loc, fromUri)}`;
  const body = labelBody(ws, loc);
  const lean = t.env ? blueprintLine(loc.doc.latexText.slice(t.env.bodyStart, t.env.bodyEnd)) : '';
  return [header, lean, body ? `---\n\n${body}` : ''].filter(Boolean).join('\n\n');
}

/**
 * A Lean blueprint's metadata of a statement (`\lean{…}`, `\leanok`, `\mathlibok`,
 * `\notready`, `\uses{…}`) as one line, apart from the statement's text.
 */
export function blueprintLine(body: string): string {
  const names = [...body.matchAll(/\\lean\s*\{([^{}]*)\}/g)].flatMap((m) => m[1].split(',').map((x) => x.trim()).filter(Boolean));
  const uses = [...body.matchAll(/\\uses\s*\{([^{}]*)\}/g)].flatMap((m) => m[1].split(',').map((x) => x.trim()).filter(Boolean));
  const state = /\\mathlibok\b/.test(body) ? 'in Mathlib' : /\\leanok\b/.test(body) ? 'formalized' : /\\notready\b/.test(body) ? 'not ready' : '';
  if (!names.length && !state && !uses.length) return '';
  const parts: string[] = [];
  if (names.length) parts.push(`Lean: ${names.map((n) => `\`${n}\``).join(', ')}`);
  if (state) parts.push(state);
  if (uses.length) parts.push(`uses ${uses.map((n) => `\`${n}\``).join(', ')}`);
  return `*${parts.join(' · ')}*`;
}
