// The names symbol search and the outline give a document's sections and statements ("Lemma
// (Nakayama)", "Section: Flat modules"), with the text a query is matched against, made once
// per version of the document's sections and statements: a workspace/symbol query reads every
// document's, and rendering each title to plain text on every query was most of its time.
import type { Doc, Workspace } from '../project/workspace.js';
import { sectionName, statements, type Statement } from './structure.js';
import { latexToPlain } from './render.js';

export interface SectionName { section: ReturnType<Doc['sections']>[number]; name: string; haystack: string }
export interface StatementName { st: Statement; name: string; label: string; haystack: string }

const sectionMemo = new WeakMap<object, SectionName[]>();
const statementMemo = new WeakMap<object, StatementName[]>();
/** Titles as plain text: a document's next version has mostly the same titles. */
const plainTitles = new Map<string, string>();
const MAX_TITLES = 50_000;

function plain(title: string): string {
  let p = plainTitles.get(title);
  if (p === undefined) {
    if (plainTitles.size >= MAX_TITLES) plainTitles.clear();
    p = latexToPlain(title);
    plainTitles.set(title, p);
  }
  return p;
}

/** `Section: title` of each section (`(untitled)` for none), in document order. */
export function sectionNames(doc: Doc): SectionName[] {
  const sections = doc.sections();
  let out = sectionMemo.get(sections);
  if (!out) {
    out = sections.map((section) => {
      const name = `${sectionName(section)}: ${plain(section.title) || '(untitled)'}`;
      return { section, name, haystack: name.toLowerCase() };
    });
    sectionMemo.set(sections, out);
  }
  return out;
}

/** `Kind (title)` of each statement, with its first label, in document order. */
export function statementNames(ws: Workspace, doc: Doc): StatementName[] {
  const sts = statements(ws, doc);
  let out = statementMemo.get(sts);
  if (!out) {
    out = sts.map((st) => {
      const name = st.title ? `${st.kind.title} (${plain(st.title)})` : st.kind.title;
      const label = st.labels[0]?.name ?? '';
      return { st, name, label, haystack: `${name} ${label}`.toLowerCase() };
    });
    statementMemo.set(sts, out);
  }
  return out;
}
