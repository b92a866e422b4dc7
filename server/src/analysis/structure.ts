// Structural analyses on top of the document model: what a label labels, which statement a
// proof proves, and the theorem-like environments of a document with their titles.
import type { DocEnv, DocLabel, DocSection } from '../model/documentView.js';
import type { Doc, Workspace } from '../project/workspace.js';
import { provable, type TheoremKind } from '../project/theorems.js';
import { documentLabels } from '../project/userMacros.js';
import { parseKeyValues } from '../syntax/blockAnalyser.js';
import { DISPLAY_MATH_ENVS } from '../syntax/displayMath.js';
import { lowerBound } from '../util/lowerBound.js';

export type TargetKind = 'theorem' | 'equation' | 'section' | 'item' | 'figure' | 'table' | 'proof' | 'other';

export interface LabelTarget {
  kind: TargetKind;
  /** Human name of the kind: "Lemma", "Equation", "Section", ... */
  displayName: string;
  title?: string;
  env?: DocEnv;
  envIndex?: number;
  /** For equations in multi-row environments: the labelled row. */
  row?: number;
  section?: DocSection;
}

const SECTION_NAMES = ['Part', 'Chapter', 'Section', 'Subsection', 'Subsubsection', 'Paragraph', 'Subparagraph'];

export function sectionName(s: DocSection): string {
  return s.cmd === 'heading' ? 'Heading' : SECTION_NAMES[s.level] ?? 'Section';
}

export function isDisplayMath(env: DocEnv): boolean {
  return DISPLAY_MATH_ENVS[env.name] !== undefined;
}

/**
 * Title of a theorem-like environment from `[...]`, or undefined. Options given as keys
 * (`[name=Zorn, label=thm:z]`, thmtools; `[label={ex:1}]`, the exercise package) give the value
 * of `name` or `title`, or no title.
 */
export function envTitle(doc: Doc, env: DocEnv): string | undefined {
  if (!env.opt) return undefined;
  const t = doc.latexText.slice(env.opt.start, env.opt.end).replace(/\s+/g, ' ').trim();
  if (KEYED_OPTIONS.test(t)) {
    const keys = parseKeyValues(t);
    return keys.get('name') || keys.get('title') || undefined;
  }
  return t || undefined;
}

/** Options that are keys: a `label`, `name` or `title` key first or after a comma. */
const KEYED_OPTIONS = /(?:^|,)\s*(?:label|name|title)\s*=/;

/** A caption before a label in an environment makes the label the caption's (`\captionof{figure}` too). */
const CAPTION = /\\caption(?:of)?\s*[[{]/;

export function labelTarget(ws: Workspace, doc: Doc, label: DocLabel): LabelTarget {
  const envs = doc.envs();
  if (label.mathEnv >= 0) {
    const env = envs[label.mathEnv];
    return { kind: 'equation', displayName: 'Equation', env, envIndex: label.mathEnv, row: label.row };
  }
  const registry = ws.theorems(doc);
  for (let i = label.env; i >= 0; i = envs[i].parent) {
    const env = envs[i];
    const thm = registry.get(env.name);
    if (thm) return { kind: 'theorem', displayName: thm.title, title: envTitle(doc, env), env, envIndex: i };
    if (/^(enumerate|itemize|description|steps|compactenum)\*?$/.test(env.name)) {
      return { kind: 'item', displayName: 'Item', env, envIndex: i };
    }
    if (/^(figure|wrapfigure|subfigure)\*?$/.test(env.name)) return { kind: 'figure', displayName: 'Figure', env, envIndex: i };
    if (/^(table|wraptable|subtable)\*?$/.test(env.name)) return { kind: 'table', displayName: 'Table', env, envIndex: i };
    // a float of the project's own (`\begin{myfig}…\caption{…\label{…}}`): the label is the float's
    if (CAPTION.test(doc.latexText.slice(env.bodyStart, Math.min(env.bodyEnd, label.start)))) {
      return /tab/i.test(env.name) ? { kind: 'table', displayName: 'Table', env, envIndex: i } : { kind: 'figure', displayName: 'Figure', env, envIndex: i };
    }
    if (env.name === 'proof') return { kind: 'proof', displayName: 'Proof', env, envIndex: i };
  }
  const section = doc.sectionAt(label.start);
  if (section) return { kind: 'section', displayName: sectionName(section), title: section.title, section };
  return { kind: 'other', displayName: 'Label' };
}

export interface Statement {
  index: number;
  env: DocEnv;
  kind: TheoremKind;
  title?: string;
  labels: DocLabel[];
}

/** The last build per environment list (the model makes a new list per version). */
const statementsPerEnvs = new WeakMap<readonly DocEnv[], { labels: readonly DocLabel[]; registry: object; build: StatementBuild }>();

/**
 * Theorem-like environments of `doc`, in order, with their titles and labels. Kept per
 * version and theorem registry: hovers and symbols ask for it on every request, and on a large
 * document building it is not free. Callers must not modify the list or its statements.
 */
export function statements(ws: Workspace, doc: Doc): readonly Statement[] {
  const build = statementBuild(ws, doc);
  while (!build.step());
  return build.out!;
}

/** `statements` built a slice at a time (a large document's, before its first diagnostics): pauses (`yield`) now and then. */
export function* statementSteps(ws: Workspace, doc: Doc): Generator<void, void> {
  const build = statementBuild(ws, doc);
  while (!build.step()) yield;
}

/** The statements of one version of a document, built in steps; `statements` asked for meanwhile finishes it. */
class StatementBuild {
  out: Statement[] | undefined;
  private readonly steps: Generator<void, Statement[]>;

  constructor(doc: Doc, envs: readonly DocEnv[], labels: readonly DocLabel[], registry: ReturnType<Workspace['theorems']>) {
    this.steps = buildStatements(doc, envs, labels, registry);
  }

  /** Goes on until the next pause; true once built. */
  step(): boolean {
    if (this.out) return true;
    const r = this.steps.next();
    if (r.done) this.out = r.value;
    return !!r.done;
  }
}

/** What a document's statements are made of now, and their build for it if there is one. */
function statementInputs(ws: Workspace, doc: Doc) {
  const registry = ws.theorems(doc);
  const envs = doc.envs();
  const labels = documentLabels(ws, doc);
  const last = statementsPerEnvs.get(envs);
  return { registry, envs, labels, build: last && last.labels === labels && last.registry === registry ? last.build : undefined };
}

function statementBuild(ws: Workspace, doc: Doc): StatementBuild {
  const { registry, envs, labels, build } = statementInputs(ws, doc);
  if (build) return build;
  const made = new StatementBuild(doc, envs, labels, registry);
  statementsPerEnvs.set(envs, { labels, registry, build: made });
  return made;
}

/** The statement a label belongs to: the nearest theorem-like environment around it (its index), or -1 (and -1 in display math). */
function statementOfLabel(l: DocLabel, envs: readonly DocEnv[], registry: ReturnType<Workspace['theorems']>): number {
  if (l.mathEnv >= 0) return -1;
  let i = l.env;
  while (i >= 0 && !registry.get(envs[i].name)) i = envs[i].parent;
  return i;
}

/**
 * The statements whose environment contains `offset` (its `\end` included), outermost first: the
 * same as `statements` has there, found through the environment tree without building the
 * others (a hover on a document whose statements are still being built, or on any document).
 */
export function statementsAt(ws: Workspace, doc: Doc, offset: number): Statement[] {
  const { registry, envs, labels, build } = statementInputs(ws, doc);
  const built = build?.out;
  const chain: number[] = [];
  // the last environment to begin at or before `offset`: every one containing it is that one or an ancestor
  for (let i = lowerBound(envs.length, (k) => envs[k].start <= offset) - 1; i >= 0; i = envs[i].parent) {
    if (offset <= envs[i].end && registry.get(envs[i].name)) chain.push(i);
  }
  chain.reverse();
  if (built) return chain.map((i) => built[lowerBound(built.length, (k) => built[k].index <= i) - 1]).filter((st, k) => st?.index === chain[k]);
  return chain.map((index) => {
    const env = envs[index];
    const st: Statement = { index, env, kind: registry.get(env.name)!, title: envTitle(doc, env), labels: [] };
    // its labels: those inside it with no other statement between them and it
    for (let k = lowerBound(labels.length, (j) => labels[j].start < env.start); k < labels.length && labels[k].start <= env.end; k++) {
      if (statementOfLabel(labels[k], envs, registry) === index) st.labels.push(labels[k]);
    }
    return st;
  });
}

/** Environments or labels between pauses of a statement build. */
const PER_PAUSE = 4096;

function* buildStatements(doc: Doc, envs: readonly DocEnv[], labels: readonly DocLabel[], registry: ReturnType<Workspace['theorems']>): Generator<void, Statement[]> {
  const out: Statement[] = [];
  const byEnv = new Map<number, Statement>();
  for (let index = 0; index < envs.length; index++) {
    if (index % PER_PAUSE === PER_PAUSE - 1) yield;
    const env = envs[index];
    const kind = registry.get(env.name);
    if (!kind) continue;
    const st: Statement = { index, env, kind, title: envTitle(doc, env), labels: [] };
    out.push(st);
    byEnv.set(index, st);
  }
  for (let k = 0; k < labels.length; k++) {
    if (k % PER_PAUSE === PER_PAUSE - 1) yield;
    const i = statementOfLabel(labels[k], envs, registry);
    if (i >= 0) byEnv.get(i)!.labels.push(labels[k]);
  }
  return out;
}

const PROOF_OF_RE = /\\(?:[a-zA-Z]*ref|cref|Cref|autoref)\*?\s*\{([^{}]+)\}/;

/** The label `\begin{proof}[Proof of Theorem~\ref{x}]` names (its first key), if any. */
export function proofOfLabel(text: string, proof: DocEnv): string | undefined {
  if (!proof.opt) return undefined;
  const m = PROOF_OF_RE.exec(text.slice(proof.opt.start, proof.opt.end));
  return m ? m[1].split(',')[0].trim() : undefined;
}

export interface ProofLink {
  proof: DocEnv;
  /** The statement proved, when found in the workspace. */
  statement?: { doc: Doc; env: DocEnv; kind?: TheoremKind };
  /** How the link was found. */
  via: 'reference' | 'adjacent' | 'none';
}

/**
 * Which statement a proof proves: the `\ref` in `\begin{proof}[Proof of Theorem~\ref{x}]`
 * when present, else the nearest provable statement before it with no other proof between.
 */
export function proofTarget(ws: Workspace, doc: Doc, proofIndex: number): ProofLink {
  const envs = doc.envs();
  const proof = envs[proofIndex];
  const name = proofOfLabel(doc.latexText, proof);
  if (name !== undefined) {
    for (const loc of ws.findLabel(doc, name)) {
      const target = labelTarget(ws, loc.doc, loc.label);
      if (target.env && target.kind === 'theorem') {
        return { proof, statement: { doc: loc.doc, env: target.env, kind: ws.theorems(loc.doc).get(target.env.name) }, via: 'reference' };
      }
    }
  }
  const registry = ws.theorems(doc);
  const i = statementBefore(envs, proofIndex, (k) => { const kd = registry.get(envs[k].name); return !!kd && !isAside(kd); }, (k) => envs[k].name === 'proof');
  const kind = i >= 0 ? registry.get(envs[i].name) : undefined;
  if (kind && provable(kind)) return { proof, statement: { doc, env: envs[i], kind }, via: 'adjacent' };
  return { proof, via: 'none' };
}

/** Kinds said beside a result, never proved: a remark between a theorem and its proof leaves the proof the theorem's (a blueprint's graph follows plastexdepgraph instead: dependencies/documentUses.ts). */
export function isAside(kind: TheoremKind): boolean {
  return /remark|note|discussion|aside|caution|warning|comment/i.test(`${kind.title} ${kind.env}`);
}

/** Siblings looked at before a proof for the statement it proves. */
const SIBLINGS_BACK = 8;

/** Layout environments a statement may be wrapped in, the proof following the wrapper (`\begin{samepage}…\end{samepage}`). */
const WRAPPERS = /^(samepage|minipage|center|flushleft|flushright|framed|shaded|mdframed|tcolorbox|leftbar|boxedminipage)\*?$/;

/**
 * The statement a proof follows: the nearest environment before it at its level (or the last
 * statement inside a layout wrapper there) that is a statement, unless another proof comes
 * first; -1 when there is none.
 */
export function statementBefore(envs: readonly DocEnv[], proofIndex: number, isStatement: (i: number) => boolean, isProof: (i: number) => boolean): number {
  const proof = envs[proofIndex];
  let siblings = 0;
  // environments before the proof's parent are none of its siblings; a few siblings back is far enough
  for (let i = proofIndex - 1; i > proof.parent && siblings < SIBLINGS_BACK; i--) {
    const env = envs[i];
    if (env.end > proof.start) continue; // an ancestor of the proof
    if (env.parent !== proof.parent) continue;
    siblings++;
    if (isProof(i)) return -1;
    if (isStatement(i)) return i;
    if (WRAPPERS.test(env.name)) {
      // the wrapper's last statement, when nothing but it ends the wrapper's environments
      // its last child environment, when that is a statement
      let last = -1;
      for (let k = i + 1; k < proofIndex && envs[k].start < env.end; k++) if (envs[k].parent === i) last = k;
      return last >= 0 && isStatement(last) ? last : -1;
    }
  }
  return -1;
}

/** A statement's text as the index reads it: its body without `\label`s. */
export function bodyText(doc: Doc, env: DocEnv): string {
  return withoutLabels(doc.latexText.slice(env.bodyStart, env.bodyEnd));
}

/** A statement's or proof's text without its `\label`s, as the index reads it. */
export function withoutLabels(text: string): string {
  return text.replace(/\\label\s*\{[^{}]*\}/g, '').trim();
}

/** A theorem-like statement and the text it says (body without labels). */
export interface FoundStatement { doc: Doc; st?: Statement; env: DocEnv; text: string }

/** The innermost theorem-like environment containing `offset` (its `\begin` line included). */
export function statementAt(ws: Workspace, doc: Doc, offset: number): FoundStatement | undefined {
  // the innermost
  const best = statementsAt(ws, doc, offset).at(-1);
  return best ? { doc, st: best, env: best.env, text: bodyText(doc, best.env) } : undefined;
}

/** Inside a proof: the statement it proves (or, inside a statement, that statement). */
export function enclosingStatement(ws: Workspace, doc: Doc, offset: number): FoundStatement | undefined {
  const envs = doc.envs();
  for (let i = envs.length - 1; i >= 0; i--) {
    const e = envs[i];
    if (e.name !== 'proof' || e.start > offset || offset > e.end) continue;
    const link = proofTarget(ws, doc, i);
    if (link.statement) return { doc: link.statement.doc, env: link.statement.env, text: bodyText(link.statement.doc, link.statement.env) };
  }
  return statementAt(ws, doc, offset);
}

/** The statement `f` is (found through a proof, it carries none of its own). */
export const statementOf = (ws: Workspace, f: FoundStatement): Statement | undefined => f.st ?? statements(ws, f.doc).find((st) => st.env.start === f.env.start);
