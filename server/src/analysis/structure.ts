// Structural analyses on top of the document model: what a label labels, which statement a
// proof proves, and the theorem-like environments of a document with their titles.
import type { DocEnv, DocLabel, DocSection } from '../model/documentView.js';
import type { Doc, Workspace } from '../project/workspace.js';
import { provable, type TheoremKind } from '../project/theorems.js';
import { DISPLAY_MATH_ENVS } from '../syntax/blockAnalyser.js';

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

/** Title of a theorem-like environment from `[...]`, or undefined. */
export function envTitle(doc: Doc, env: DocEnv): string | undefined {
  if (!env.opt) return undefined;
  const t = doc.latexText.slice(env.opt.start, env.opt.end).replace(/\s+/g, ' ').trim();
  return t || undefined;
}

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

/** The last answer per environment list (the model makes a new list per version). */
const statementsPerEnvs = new WeakMap<readonly DocEnv[], { labels: readonly DocLabel[]; registry: object; out: readonly Statement[] }>();

/**
 * Theorem-like environments of `doc`, in order, with their titles and labels. Kept per
 * version and theorem registry: hovers and symbols ask for it on every request, and on a large
 * document building it is not free. Callers must not modify the list or its statements.
 */
export function statements(ws: Workspace, doc: Doc): readonly Statement[] {
  const registry = ws.theorems(doc);
  const envs = doc.envs();
  const labels = doc.labels();
  const last = statementsPerEnvs.get(envs);
  if (last && last.labels === labels && last.registry === registry) return last.out;
  const out = buildStatements(doc, envs, labels, registry);
  statementsPerEnvs.set(envs, { labels, registry, out });
  return out;
}

function buildStatements(doc: Doc, envs: readonly DocEnv[], labels: readonly DocLabel[], registry: ReturnType<Workspace['theorems']>): Statement[] {
  const out: Statement[] = [];
  const byEnv = new Map<number, Statement>();
  envs.forEach((env, index) => {
    const kind = registry.get(env.name);
    if (!kind) return;
    const st: Statement = { index, env, kind, title: envTitle(doc, env), labels: [] };
    out.push(st);
    byEnv.set(index, st);
  });
  for (const l of labels) {
    if (l.mathEnv >= 0) continue;
    for (let i = l.env; i >= 0; i = envs[i].parent) {
      const st = byEnv.get(i);
      if (st) { st.labels.push(l); break; }
    }
  }
  return out;
}

const PROOF_OF_RE = /\\(?:[a-zA-Z]*ref|cref|Cref|autoref)\*?\s*\{([^{}]+)\}/;

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
  if (proof.opt) {
    const m = PROOF_OF_RE.exec(doc.latexText.slice(proof.opt.start, proof.opt.end));
    if (m) {
      const name = m[1].split(',')[0].trim();
      for (const loc of ws.findLabel(doc, name)) {
        const target = labelTarget(ws, loc.doc, loc.label);
        if (target.env && target.kind === 'theorem') {
          return { proof, statement: { doc: loc.doc, env: target.env, kind: ws.theorems(loc.doc).get(target.env.name) }, via: 'reference' };
        }
      }
    }
  }
  const registry = ws.theorems(doc);
  for (let i = proofIndex - 1; i >= 0; i--) {
    const env = envs[i];
    if (env.end > proof.start) continue; // an ancestor of the proof
    if (env.parent !== proof.parent) continue;
    if (env.name === 'proof') break;
    const kind = registry.get(env.name);
    if (kind && provable(kind)) return { proof, statement: { doc, env, kind }, via: 'adjacent' };
    if (kind) break;
  }
  return { proof, via: 'none' };
}
