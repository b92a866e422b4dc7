// The hover kinds, in the order they are asked: the first that answers is the hover, one per
// place. Each reads the place as `HoverPlace` gives it (what is under the cursor, found once per
// request) and returns its answer, with math as features write it (`$…$`), or null. A new kind
// is a function here (or in its domain's module) and a row in HOVER_PROVIDERS.
import { MarkupKind, type Hover } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../../project/workspace.js';
import { targetAt, type CursorTarget } from '../labels/cursor.js';
import { labelHoverMarkdown } from '../labels/labelPreview.js';
import { referenceCount } from '../labels/labelNavigation.js';
import { derivationHover } from '../equations/derivation.js';
import type { DocStep } from '../../math/service.js';
import { statementsAt, type Statement } from '../../analysis/structure.js';
import type { HoverMath } from '../presentation/hoverMath.js';
import { numberedName, type AuxNumbers } from '../../project/auxNumbers.js';
import { provable } from '../../project/theorems.js';

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
  /** One line on a statement's head: what it uses and what uses it. */
  dependencies?: () => string | undefined;
}

/** The place a hover is asked for, each fact read at most once per request. */
export class HoverPlace {
  constructor(readonly ws: Workspace, readonly doc: Doc, readonly offset: number, readonly src: HoverSources) {}

  private read?: { target: CursorTarget | undefined };
  private headRead?: { head: Statement | undefined };

  /** The label, reference or include under the cursor. */
  get target(): CursorTarget | undefined {
    return (this.read ??= { target: targetAt(this.doc, this.offset, this.ws) }).target;
  }

  /** The statement proofs are written for whose head holds the cursor. */
  get head(): Statement | undefined {
    return (this.headRead ??= { head: statementHeadAt(this.ws, this.doc, this.offset) }).head;
  }
}

export type HoverProvider = (place: HoverPlace) => Hover | null;

/** A citation key: its bibliography entry. */
const citationHover: HoverProvider = (p) => p.src.citation?.() ?? null;

/** A flagged derivation step: the step at its counterexample, and nothing else. */
const stepHover: HoverProvider = (p) => derivationHover(p.doc, p.src.steps, p.offset);

/** A reference: what it points to, with its number from the last LaTeX run (unless left to a neighbour). */
const referenceHover: HoverProvider = ({ ws, doc, target: t, src }) => {
  if (t?.type !== 'ref' || src.references === false) return null;
  const range = doc.range(t.start, t.end);
  const locs = ws.findLabel(doc, t.name);
  if (locs.length === 0) return markdown(`**Undefined reference** \`${t.name}\``, range);
  const parts = locs.slice(0, 3).map((l) => labelHoverMarkdown(ws, l, doc.uri));
  if (locs.length > 1) parts.unshift(`*${locs.length} definitions of \`${t.name}\`*`);
  const num = numberLine(ws, doc, src.numbers?.(), t.name);
  if (num) parts.unshift(num);
  return markdown(parts.join(num && parts.length === 2 ? '\n\n' : '\n\n---\n\n'), range);
};

/** A label: what it labels and how often it is referenced; on a statement's head, what it uses and is used by and its candidate proofs too. */
const labelHover: HoverProvider = (p) => {
  const { ws, doc, target: t } = p;
  if (t?.type !== 'label') return null;
  const n = referenceCount(ws, doc, t.label);
  const count = `*Referenced ${n} time${n === 1 ? '' : 's'}*`;
  const num = numberLine(ws, doc, p.src.numbers?.(), t.name);
  const value = `${num ? `${num}\n\n` : ''}${labelHoverMarkdown(ws, { doc, label: t.label, prefix: '' }, doc.uri)}\n\n${count}`;
  const deps = p.head ? p.src.dependencies?.() : undefined;
  const proofs = p.src.proofs && p.head ? p.src.proofs() : undefined;
  const withDeps = deps ? `${value}\n\n${deps}` : value;
  return markdown(proofs ? `${withDeps}\n\n---\n\n${proofs}` : withDeps, doc.range(t.start, t.end));
};

/** A term: which indexed definition the context means. */
const termHover: HoverProvider = (p) => {
  const term = p.src.term?.();
  return term ? markdown(term.md, term.range) : null;
};

/**
 * The head of a statement (its `\begin` line, title or label) proofs attach to (theorems, lemmas,
 * …; not exercises, examples, remarks): what it uses and what uses it, then candidate proofs.
 * Never the words of its body.
 */
const statementHeadHover: HoverProvider = (p) => {
  if (p.target?.type === 'ref' || !p.head) return null;
  const deps = p.src.dependencies?.();
  const proofs = p.src.proofs?.();
  if (!proofs) return deps ? markdown(deps) : null;
  return markdown(deps ? `${deps}\n\n---\n\n${proofs}` : proofs);
};

/** Asked in this order; the first answer is the hover. */
export const HOVER_PROVIDERS: readonly HoverProvider[] = [
  citationHover, stepHover, referenceHover, labelHover, termHover, statementHeadHover,
];

/** The one answer a place gets, its math as features write it (`$…$`); null when no kind answers. Without `src`: the document's own facts only. */
export function hoverAnswer(ws: Workspace, doc: Doc, offset: number, src: HoverSources = { steps: [] }): Hover | null {
  const place = new HoverPlace(ws, doc, offset, src);
  for (const provide of HOVER_PROVIDERS) {
    const h = provide(place);
    if (h) return h;
  }
  return null;
}

function markdown(value: string, range?: Hover['range']): Hover {
  return range ? { range, contents: { kind: MarkupKind.Markdown, value } } : { contents: { kind: MarkupKind.Markdown, value } };
}

/** "**Lemma 2.3** · page 5", from the last LaTeX run; undefined when it did not know the label or its number cannot be written out. */
function numberLine(ws: Workspace, doc: Doc, numbers: AuxNumbers | undefined, name: string): string | undefined {
  const l = numbers?.labels.get(name);
  const shown = l && numberedName(ws, doc, l);
  if (!l || !shown) return undefined;
  return `**${shown}**${l.page ? ` · page ${l.page}` : ''}${numbers!.stale ? ' · *at last compilation*' : ''}`;
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
