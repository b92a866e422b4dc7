// Includes: a file that is not there (missing-include), one found only by ignoring letter case
// (include-letter-case), an xr document that is not there, and includes that close a cycle or
// read a file twice (include-cycle, duplicate-include).
import type { Doc, Workspace } from '../../project/workspace.js';
import { missingMayHoldLabels } from '../../project/labelUniverse.js';
import { apart, projectBranches } from '../../project/branches.js';
import { uriBaseName as baseName } from '../../project/files.js';
import { diagnostic } from './codes.js';
import { missingInclude } from './missingInclude.js';
import type { CheckContext } from './checkContext.js';

export function* includeChecks(cx: CheckContext): Generator<void, void> {
  if (!cx.settings.structure) return;
  const { ws, doc, out } = cx;
  for (const inc of ws.missingIncludes(doc)) {
    // `\IfFileExists{x}{\input{x}}{}`: its absence is expected
    if (inc.guarded) continue;
    // said once, here: while a file that may hold labels is missing, undefined references are not reported
    const what = missingMayHoldLabels(doc, inc) ? 'its labels and contents are unknown, so undefined references are not reported in this project' : 'it holds no labels, so references are still checked';
    out.push({ diagnostic: missingInclude(doc, inc, `${inc.dir ? `${inc.dir}/` : ''}${inc.path}`, what, ws.skippedInclude(doc, inc)) });
  }
  for (const { inc, found } of ws.foundByLetterCase(doc)) {
    out.push({
      diagnostic: diagnostic('include-letter-case', doc.range(inc.start, inc.end),
        `${inc.path} is read as ${found} only because TeX Live (since 2018) looks file names up ignoring letter case; older TeX installations on case-sensitive file systems (Linux) do not find it`),
    });
  }
  yield;
  for (const inc of doc.includes()) {
    if (inc.kind !== 'external' || inc.guarded || /[\\#]/.test(inc.path) || !inc.path.trim() || ws.resolveIncludePath(doc, inc)) continue;
    // xr reads the other document's .aux, which its own build writes: information
    out.push({ diagnostic: missingInclude(doc, inc, inc.path, 'its labels (referenced through this document) are unknown', ws.skippedInclude(doc, inc), 'information') });
  }
  yield;
  const incs = ws.includesOf(doc);
  for (const issue of ws.includeIssues(doc)) {
    const inc = incs[issue.index];
    // reading a label-free snippet (a figure, a signature) twice is harmless and common
    if (!inc || (issue.kind === 'twice' && issue.target!.labels().length === 0)) continue;
    // read in opposite branches (`\iftoggle{long}{\input{a}}{}` and `\iftoggle{long}{}{\input{a}}`): read once
    if (issue.kind === 'twice') {
      const first = ws.includesOf(issue.first!.doc)[issue.first!.index];
      if (!first || apart(projectBranches(ws, doc, inc.start), projectBranches(ws, issue.first!.doc, first.start), true) !== false) continue;
    }
    const message = issue.kind === 'cycle'
      ? `include cycle: ${issue.cycle!.map((d) => baseName(d.uri)).join(' → ')}`
      : `${baseName(issue.target!.uri)} is already included (${where(ws, issue.first!)}): LaTeX reads it twice and reports every label in it as multiply defined`;
    out.push({ diagnostic: diagnostic(issue.kind === 'cycle' ? 'include-cycle' : 'duplicate-include', doc.range(inc.start, inc.end), message) });
  }
}

/** `file:line` of an include. */
function where(ws: Workspace, at: { doc: Doc; index: number }): string {
  const inc = ws.includesOf(at.doc)[at.index];
  return `${baseName(at.doc.uri)}:${inc ? at.doc.positionAt(inc.start).line + 1 : '?'}`;
}
