// Hover on a reference shows the referenced statement/equation; on a label, what it labels
// and how often it is referenced. `documentHover` decides which answer a place gets: one
// hover per place, the index's contributions only where they were asked for.
import { MarkupKind, type Hover } from 'vscode-languageserver';
import type { Doc, Workspace } from '../project/workspace.js';
import { targetAt } from './cursor.js';
import { labelHoverMarkdown } from './labelPreview.js';
import { findReferences } from './navigation.js';
import { derivationHover } from './derivation.js';
import type { DocStep } from '../math/service.js';
import { statementsAt, type Statement } from '../analysis/structure.js';
import { scopeMacros } from '../math/blocks.js';
import type { MacroDef } from '../math/macros.js';
import { formulaHover } from './formulaHover.js';
import { presentMath, SOURCE_MATH, type HoverMath } from './hoverMath.js';
import { numberedName, type AuxNumbers } from '../project/auxNumbers.js';
import { provable } from '../project/theorems.js';
import { citeHover } from './citations.js';
import { candidateProofsMarkdown, disambiguationMarkdown } from './indexFeatures.js';
import type { FeatureContext } from './context.js';

/** What a hover may add beyond the document's own facts (the index, citations); each may fail on its own. */
export interface HoverSources {
  steps: readonly DocStep[];
  citation?: () => Hover | null;
  term?: () => { md: string; range: Hover['range'] } | undefined;
  proofs?: () => string | undefined;
  /** How the client shows math (default: TeX in code spans). */
  math?: HoverMath;
  /** Numbers of the last LaTeX run (`.aux`), when there is one. */
  numbers?: () => AuxNumbers | undefined;
  /** False: `\ref` hovers are left to a neighbour (LaTeX Workshop, texlab). */
  references?: boolean;
}

/** The hover request: the document's own answer, with what the running services add where it applies. */
export function hoverAt(ctx: FeatureContext, doc: Doc, offset: number): Hover | null {
  const providers = ctx.settingsFor(doc).providers;
  return documentHover(ctx.ws, doc, offset, {
    steps: ctx.steps(doc),
    citation: providers.citationHover ? () => ctx.guard('hover (citation)', null, () => citeHover(ctx.ws, doc, offset)) : undefined,
    references: providers.referenceHover,
    term: providers.termHover ? () => ctx.guard('hover (terms)', undefined, () => disambiguationMarkdown(ctx.ws, doc, offset, ctx.index)) : undefined,
    proofs: providers.candidateProofHover ? () => ctx.guard('hover (proofs)', undefined, () => candidateProofsMarkdown(ctx.ws, doc, offset, ctx.index)) : undefined,
    math: ctx.hoverMath(),
    numbers: () => ctx.numbers(doc),
  });
}

/**
 * The hover at `offset`, one per place, its math presented as the client shows it (hoverMath.ts):
 * * a citation key: its bibliography entry;
 * * a flagged derivation step: the step at its counterexample, and nothing else;
 * * a reference or a label: what it points to (and, on the head of a statement, its candidate proofs);
 * * a term: which indexed definition the context means;
 * * the head of a statement (its `\begin` line, title or label), for statements proofs attach
 *   to (theorems, lemmas, …; not exercises, examples, remarks): candidate proofs. Never the
 *   words of its body;
 * * else a formula, typeset (clients that show images).
 */
export function documentHover(ws: Workspace, doc: Doc, offset: number, src: HoverSources): Hover | null {
  const hm = src.math ?? SOURCE_MATH;
  let macros: MacroDef[] | undefined;
  const projectMacros = () => (macros ??= scopeMacros(ws, doc));
  const h = chooseHover(ws, doc, offset, src);
  // nothing else here: the formula under the cursor, typeset (where the client shows images)
  if (!h) return formulaHover(doc, offset, hm, projectMacros());
  if (typeof h.contents !== 'object' || !('value' in h.contents)) return h;
  return { ...h, contents: { kind: MarkupKind.Markdown, value: presentMath(h.contents.value, hm, projectMacros()) } };
}

/** The one answer a place gets, its math as features write it (`$…$`). */
function chooseHover(ws: Workspace, doc: Doc, offset: number, src: HoverSources): Hover | null {
  const cite = src.citation?.();
  if (cite) return cite;
  const step = derivationHover(doc, src.steps, offset);
  if (step) return step;
  const onRef = targetAt(doc, offset, ws)?.type === 'ref';
  const h = onRef && src.references === false ? null : hover(ws, doc, offset, [], src.numbers?.());
  if (!h) {
    const term = src.term?.();
    if (term) return { range: term.range, contents: { kind: MarkupKind.Markdown, value: term.md } };
  }
  const proofs = !onRef && statementHeadAt(ws, doc, offset) ? src.proofs?.() : undefined;
  if (!proofs) return h;
  if (h && typeof h.contents === 'object' && 'value' in h.contents) return { ...h, contents: { kind: MarkupKind.Markdown, value: `${h.contents.value}\n\n---\n\n${proofs}` } };
  return h ?? { contents: { kind: MarkupKind.Markdown, value: proofs } };
}

/** A statement proofs are written for: a theorem, lemma, proposition, … (project/theorems.ts#provable), never an exercise. */
function provedStatement(ws: Workspace, doc: Doc, st: Statement): boolean {
  if (/exercise|problem/i.test(st.kind.title)) return false;
  const registry = ws.theorems(doc);
  return provable(st.kind, (env) => registry.get(env));
}

/** Characters after `\begin{…}[title]` within which a `\label` still belongs to the head. */
const HEAD_LABEL_REACH = 120;

/**
 * The statement whose head holds `offset`: from `\begin` to the end of its line (title
 * included), and a `\label` written right after it. Only statements proofs are written for
 * (theorems, lemmas, propositions, … by their declaration, whatever their style).
 */
export function statementHeadAt(ws: Workspace, doc: Doc, offset: number): Statement | undefined {
  for (const st of statementsAt(ws, doc, offset)) {
    if (!provedStatement(ws, doc, st)) continue;
    const nl = doc.text.indexOf('\n', st.env.bodyStart);
    let end = Math.max(st.env.bodyStart, nl < 0 ? st.env.end : Math.min(nl, st.env.end));
    for (const l of st.labels) if (l.cmdStart <= st.env.bodyStart + HEAD_LABEL_REACH) end = Math.max(end, l.end + 1);
    if (offset <= end) return st;
  }
  return undefined;
}

/** "**Lemma 2.3** · page 5", from the last LaTeX run; undefined when it did not know the label or its number cannot be written out. */
function numberLine(ws: Workspace, doc: Doc, numbers: AuxNumbers | undefined, name: string): string | undefined {
  const l = numbers?.labels.get(name);
  const shown = l && numberedName(ws, doc, l);
  if (!l || !shown) return undefined;
  return `**${shown}**${l.page ? ` · page ${l.page}` : ''}${numbers!.stale ? ' · *at last compilation*' : ''}`;
}

/** Hover on a reference or a label (or, given its steps, a flagged derivation step), with its number when the last LaTeX run gave one. */
export function hover(ws: Workspace, doc: Doc, offset: number, steps: readonly DocStep[] = [], numbers?: AuxNumbers): Hover | null {
  // a flagged derivation step: both sides at the counterexample
  const d = derivationHover(doc, steps, offset);
  if (d) return d;
  const t = targetAt(doc, offset, ws);
  if (!t || t.type === 'include') return null;
  const range = doc.range(t.start, t.end);
  if (t.type === 'ref') {
    const locs = ws.findLabel(doc, t.name);
    if (locs.length === 0) {
      return { range, contents: { kind: MarkupKind.Markdown, value: `**Undefined reference** \`${t.name}\`` } };
    }
    const parts = locs.slice(0, 3).map((l) => labelHoverMarkdown(ws, l, doc.uri));
    if (locs.length > 1) parts.unshift(`*${locs.length} definitions of \`${t.name}\`*`);
    const num = numberLine(ws, doc, numbers, t.name);
    if (num) parts.unshift(num);
    return { range, contents: { kind: MarkupKind.Markdown, value: parts.join(num && parts.length === 2 ? '\n\n' : '\n\n---\n\n') } };
  }
  const loc = { doc, label: t.label, prefix: '' };
  const refs = findReferences(ws, doc, offset, false);
  const count = `*Referenced ${refs.length} time${refs.length === 1 ? '' : 's'}*`;
  const num = numberLine(ws, doc, numbers, t.name);
  return { range, contents: { kind: MarkupKind.Markdown, value: `${num ? `${num}\n\n` : ''}${labelHoverMarkdown(ws, loc, doc.uri)}\n\n${count}` } };
}
