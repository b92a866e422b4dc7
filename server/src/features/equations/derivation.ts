// Derivation steps as LSP results: a warning on each refuted step (range: its right-hand
// side), information on unknown steps when asked for, a hover with both sides evaluated at
// the counterexample, and the "Ignore this step" code action (the only edit it makes is the
// `% mathsense-ignore-step` comment, and only on request).
import { CodeActionKind, MarkupKind, type CodeAction, type Diagnostic, type Hover, type Range } from 'vscode-languageserver-types';
import type { Doc } from '../../project/workspace.js';
import type { DocStep } from '../../math/service.js';
import { IGNORE_MARK } from '../../math/steps.js';
import { displayVar, formatNumber, verdictMessage } from '../../math/verdict.js';
import { diagnostic, type DiagnosticCode } from '../diagnostics/codes.js';
import { readSetting } from '../../ext/settings.js';

export const DERIVATION_CODE = 'derivation-step' satisfies DiagnosticCode;
export const DERIVATION_UNKNOWN_CODE = 'derivation-unknown' satisfies DiagnosticCode;

export interface DerivationSettings { enabled: boolean; showUnknown: boolean }
export const defaultDerivationSettings: DerivationSettings = derivationSettings(undefined);

/** From the `mathsense` settings section (ext/settings.ts declares each). */
export function derivationSettings(raw: unknown): DerivationSettings {
  return { enabled: readSetting(raw, 'derivations.enabled'), showUnknown: readSetting(raw, 'derivations.showUnknown') };
}

function flagged(s: DocStep): boolean {
  return s.verdict.kind === 'refuted' && !s.ignored;
}

export function derivationDiagnostics(doc: Doc, steps: readonly DocStep[], settings: DerivationSettings = defaultDerivationSettings): Diagnostic[] {
  if (!settings.enabled) return [];
  const out: Diagnostic[] = [];
  for (const s of steps) {
    if (flagged(s)) {
      out.push(diagnostic(DERIVATION_CODE, doc.range(s.rhsStart, s.rhsEnd), verdictMessage(s.verdict, s.rel)));
    } else if (settings.showUnknown && s.verdict.kind === 'unknown' && !s.ignored) {
      out.push(diagnostic(DERIVATION_UNKNOWN_CODE, doc.range(s.rhsStart, s.rhsEnd), `step not checked: ${s.verdict.reason}`));
    }
  }
  return out;
}

export const DERIVATIONS_SKIPPED_CODE = 'derivations-skipped' satisfies DiagnosticCode;

/** Information at the top of a document whose derivation steps were not checked, saying why. */
export function derivationsSkipped(doc: Doc, why: string): Diagnostic {
  return diagnostic(DERIVATIONS_SKIPPED_CODE, doc.range(0, 0), why);
}

/** The flagged step whose left side, relation or right side contains `offset`. */
export function flaggedStepAt(steps: readonly DocStep[], offset: number): DocStep | undefined {
  return steps.find((s) => flagged(s) && offset >= s.lhsStart && offset <= s.rhsEnd);
}

const REL_TEX: Partial<Record<DocStep['rel'], string>> = { '=': '=', '<=': '\\le', '>=': '\\ge', '<': '<', '>': '>', '!=': '\\ne', equiv: '\\equiv', approx: '\\approx' };
const REL_WORDS: Partial<Record<DocStep['rel'], string>> = { '<=': '≤', '>=': '≥', '<': '<', '>': '>', '!=': '≠', equiv: '≡', approx: '≈ at the precision printed' };

export function derivationHover(doc: Doc, steps: readonly DocStep[], offset: number): Hover | null {
  const s = flaggedStepAt(steps, offset);
  if (!s) return null;
  const v = s.verdict;
  const rows = (v.point ?? []).map(([k, x]) => `| \`${displayVar(k)}\` | ${formatNumber(x)} |`);
  // the step typeset as the document writes it (presentation/hoverMath.ts presents `$$…$$` for the client)
  const value = [
    `**Step does not follow**${REL_WORDS[s.rel] ? ` (${REL_WORDS[s.rel]})` : ''}`,
    '',
    `$$${s.lhs} ${REL_TEX[s.rel] ?? '='} ${s.rhs}$$`,
    '',
    ...(rows.length ? ['Counterexample:', '', '| variable | value |', '|---|---|', ...rows, ''] : []),
    `| side | value |`, `|---|---|`,
    `| left | ${formatNumber(v.left!)} |`,
    `| right | ${formatNumber(v.right!)} |`,
    '',
    `*${v.reason}*`,
  ].join('\n');
  return { range: doc.range(s.rhsStart, s.rhsEnd), contents: { kind: MarkupKind.Markdown, value } };
}

/** "Ignore this step" for each flagged step overlapping `range`. */
export function derivationCodeActions(doc: Doc, steps: readonly DocStep[], range: Range): CodeAction[] {
  const a = doc.offsetAt(range.start);
  const b = doc.offsetAt(range.end);
  const out: CodeAction[] = [];
  for (const s of steps) {
    if (!flagged(s) || s.rhsEnd < a || s.lhsStart > b) continue;
    const line = doc.positionAt(s.rhsEnd).line;
    const lineText = doc.text.slice(doc.offsetAt({ line, character: 0 }), doc.offsetAt({ line: line + 1, character: 0 })).replace(/\r?\n$/, '');
    const at = { line, character: lineText.length };
    out.push({
      title: 'Ignore this step',
      kind: CodeActionKind.QuickFix,
      diagnostics: derivationDiagnostics(doc, [s]),
      edit: { changes: { [doc.uri]: [{ range: { start: at, end: at }, newText: `${lineText.endsWith(' ') || lineText === '' ? '' : ' '}% ${IGNORE_MARK}` }] } },
    });
  }
  return out;
}
