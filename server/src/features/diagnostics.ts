// Label/reference diagnostics (undefined-ref, duplicate-label, unused-label) and structural
// problems found by the analyser (unclosed environments, unmatched \end), includes whose
// file is missing, includes that close a cycle or read a file twice, citations no
// bibliography defines (features/citations.ts). Each is proposed as a candidate with what its
// truth rests on; features/publishGate.ts decides what is published.
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver';
import { isMacroSource, type Doc, type LabelLocation, type Workspace } from '../project/workspace.js';
import { inheritedState, isComputedName, macroUses, projectMacros, verbatimEnvironments } from '../project/userMacros.js';
import { definedElsewhere, labelUniverse, missingMayHoldLabels } from '../project/labelUniverse.js';
import { apart, labelsInBranches, projectBranches } from '../project/branches.js';
import { missingInclude } from './missingInclude.js';
import { uriBaseName as baseName } from '../project/files.js';
import { citationDiagnostics } from './citations.js';
import { publishable, type Candidate, type Need, type Published } from './publishGate.js';
import { drain } from '../util/turns.js';

export const SOURCE = 'mathsense';

export interface DiagnosticSettings {
  unusedLabels: boolean;
  structure: boolean;
  /** False beside a neighbour that reports them too (LaTeX Workshop, texlab); default on. */
  duplicateLabels?: boolean;
}

export const defaultDiagnosticSettings: DiagnosticSettings = { unusedLabels: false, structure: true, duplicateLabels: true };

export interface DocumentDiagnosticsOptions {
  settings?: DiagnosticSettings;
  /** Diagnostics computed elsewhere for this version (derivation steps), published through the same gate. */
  extra?: readonly Diagnostic[];
  /** The server is still reading the project: what needs all of it is held back. */
  projectLoading?: boolean;
  /** The candidates of this version, found already (`candidateSteps`, a slice at a time). */
  candidates?: Candidate[];
}

/** Everything published for `doc` (server and `mathsense check` alike). */
export function documentDiagnostics(ws: Workspace, doc: Doc, opts: DocumentDiagnosticsOptions = {}): Published {
  const candidates = opts.candidates ?? diagnosticCandidates(ws, doc, opts.settings ?? defaultDiagnosticSettings);
  for (const d of opts.extra ?? []) candidates.push({ diagnostic: d, needs: [] });
  const macroSource = isMacroSource(doc);
  const needsLabels = candidates.some((c) => c.key !== undefined);
  return publishable(candidates, {
    macroSource,
    compiled: !macroSource && ws.isCompiled(doc),
    projectLoading: !!opts.projectLoading,
    labels: needsLabels ? labelUniverse(ws, doc) : undefined,
    workspace: ws,
  });
}

/** The label and structure diagnostics of `doc` as the gate publishes them (no derivation steps, project read in full). */
export function computeDiagnostics(ws: Workspace, doc: Doc, settings: DiagnosticSettings = defaultDiagnosticSettings): Diagnostic[] {
  return documentDiagnostics(ws, doc, { settings }).diagnostics;
}

const NEEDS_COMPILED: readonly Need[] = ['compiled'];
const NEEDS_ALL: readonly Need[] = ['compiled', 'whole-project'];

/** Every diagnostic of `doc` that holds if the facts it rests on are complete (see publishGate.ts). */
export function diagnosticCandidates(ws: Workspace, doc: Doc, settings: DiagnosticSettings = defaultDiagnosticSettings): Candidate[] {
  return drain(candidateSteps(ws, doc, settings));
}

/** Blocks between pauses of `candidateSteps`. */
const BLOCKS_PER_PAUSE = 256;

/**
 * diagnosticCandidates, pausing (`yield`) between stretches of the document's blocks: the first
 * diagnostics of a document of tens of megabytes are found a slice at a time between requests.
 */
export function* candidateSteps(ws: Workspace, doc: Doc, settings: DiagnosticSettings = defaultDiagnosticSettings): Generator<void, Candidate[]> {
  const out: Candidate[] = [];
  const readError = ws.readError(doc.uri);
  if (readError) {
    out.push({ diagnostic: { range: doc.range(0, 0), severity: DiagnosticSeverity.Warning, source: SOURCE, code: 'unreadable', message: `Could not read this file: ${readError}` }, needs: [] });
  }
  if (isMacroSource(doc)) return out;
  // labels and references made by the project's own macros (\lemref{x} = Lemma~\ref{lem:x}, at any depth)
  const macros = projectMacros(ws, doc);
  // the labels the macros make (with the state in force at each use) come with the project's
  // label universe, built once per project; asked only for a key no literal label has
  const makesLabels = macros.some((m) => m.effects.some((e) => e.kind === 'label'));
  const madeByMacros = (name: string) => makesLabels && labelUniverse(ws, doc).madeByMacros.has(name);
  // a note that defines no label uses no cross-references: a `\ref{…}` in its prose is talk about LaTeX
  const refsChecked = doc.kind === 'latex' || [...ws.scope(doc)].some((d) => d.labels().length > 0);
  const uses = macroUses(doc, macros, inheritedState(ws, doc));
  yield;
  // a reference inside a test of whether its own label is defined (`\oliflabeldef{x}{\ref{x}}{}`) is printed only when it is
  const guards = uses.filter((u) => u.kind === 'guard' && u.extentEnd !== undefined);
  const guarded = (name: string, at: number) => guards.length > 0 && guards.some((g) => g.name === name && at >= g.cmdStart && at < g.extentEnd!);
  const defined = (name: string) => !refsChecked || !isKey(name) || ws.countLabel(doc, name) > 0 || madeByMacros(name);
  // a label only another compilation of the workspace defines (a draft of a section that refers to
  // the book, a document of a split site): compiled alone the reference prints ??, but that may be
  // meant, so it is said, not flagged
  let elsewhereOf: ((name: string) => Doc[]) | undefined;
  const undefinedRef = (start: number, end: number, name: string, through: string): Candidate => {
    const elsewhere = (elsewhereOf ??= definedElsewhere(ws, doc))(name);
    return {
      diagnostic: {
        range: doc.range(start, end), severity: elsewhere.length ? DiagnosticSeverity.Information : DiagnosticSeverity.Error, source: SOURCE, code: 'undefined-ref',
        message: elsewhere.length
          ? `\\label{${name}} is only in ${elsewhere.slice(0, 3).map((d) => baseName(d.uri)).join(', ')}, which is not compiled with this document: compiled on its own, this reference prints ??${through}`
          : `Undefined reference: no \\label{${name}} in this project${through}`,
      },
      needs: NEEDS_ALL, key: name,
    };
  };
  for (const u of uses) {
    if (u.kind !== 'ref' || u.computed || defined(u.name) || guarded(u.name, u.cmdStart)) continue;
    out.push(undefinedRef(u.start, u.end, u.name, ` (through \\${u.macro})`));
  }
  // the bodies of the project's verbatim-like environments (listings, excluded comments) are not
  // LaTeX and are never compiled: in this document or another of the project (its spans read once)
  const verbatim = verbatimEnvironments(ws, doc);
  const verbatimSpans = new Map<Doc, Array<{ start: number; end: number }>>();
  const excluded = (d: Doc, at: number) => {
    if (verbatim.size === 0) return false;
    let spans = verbatimSpans.get(d);
    if (!spans) { spans = d.envs().filter((e) => verbatim.has(e.name)).map((e) => ({ start: e.bodyStart, end: e.bodyEnd })); verbatimSpans.set(d, spans); }
    return spans.some((v) => at >= v.start && at < v.end);
  };
  const inVerbatim = (at: number) => excluded(doc, at);
  // a label defined only in branches a reference is never compiled with (`\ifsol \label{a} \else
  // \ref{a} \fi`) is undefined wherever the reference is printed; looked at only for names some
  // document of the project labels inside a conditional branch
  let inBranches: Set<string> | undefined;
  for (const d of ws.scope(doc)) {
    const names = labelsInBranches(d);
    if (names.size) for (const n of names) (inBranches ??= new Set()).add(n);
  }
  const onlyApart = (name: string, at: number): LabelLocation[] | undefined => {
    if (!inBranches?.has(name)) return undefined;
    const defs = ws.findLabel(doc, name).filter((l) => l.prefix === '');
    const here = projectBranches(ws, doc, at);
    return defs.length > 0 && defs.every((l) => apart(here, projectBranches(ws, l.doc, l.label.start)) === true) ? defs : undefined;
  };
  // Walk block facts directly (relative offsets + block start): the keystroke path then
  // allocates nothing for the thousands of references that resolve.
  yield;
  const duplicates = new Set<string>();
  let seen = 0;
  for (const block of doc.blocks()) {
    if (++seen % BLOCKS_PER_PAUSE === 0) yield;
    for (const ref of block.facts.refs) {
      if (isComputedName(ref.name) || inVerbatim(block.start + ref.start) || guarded(ref.name, block.start + ref.start)) continue;
      if (defined(ref.name)) {
        const apart = inBranches ? onlyApart(ref.name, block.start + ref.start) : undefined;
        if (apart) {
          out.push({
            diagnostic: {
              range: doc.range(block.start + ref.start, block.start + ref.end), severity: DiagnosticSeverity.Error, source: SOURCE, code: 'undefined-ref',
              message: `Undefined reference: \\label{${ref.name}} (${apart.map((o) => `${baseName(o.doc.uri)}:${o.doc.positionAt(o.label.start).line + 1}`).join(', ')}) is only in another branch of a conditional this reference is in, never compiled with it`,
            },
            // and nothing the project cannot show may define it where the reference is
            needs: NEEDS_ALL, key: ref.name,
          });
        }
        continue;
      }
      // a blueprint's \proves names the statement a separate proof proves; plastexdepgraph
      // attaches a proof whose key it does not know to the statement above it
      if (ref.cmd !== 'proves') { out.push(undefinedRef(block.start + ref.start, block.start + ref.end, ref.name, '')); continue; }
      out.push({
        diagnostic: {
          range: doc.range(block.start + ref.start, block.start + ref.end), severity: DiagnosticSeverity.Information, source: SOURCE, code: 'undefined-ref',
          message: `\\proves{${ref.name}}: no \\label{${ref.name}} in this project; the dependency graph attaches this proof to the statement above it`,
        },
        needs: NEEDS_ALL, key: ref.name,
      });
    }
    // cheap cached count first; the full lookup only for actual duplicates
    if (settings.duplicateLabels !== false) for (const l of block.facts.labels) if (!isComputedName(l.name) && ws.countLabel(doc, l.name) > 1) duplicates.add(l.name);
  }
  if (duplicates.size) {
    // a label is defined twice only within one compilation (two volumes over shared chapters are two)
    // two branches of one conditional (`\ifbook … \else … \fi`, `\iftoggle{x}{…}{…}`) are never
    // compiled together; an environment switched off by `\excludecomment` is never compiled
    const compilations = ws.compilations(doc);
    for (const name of duplicates) {
      const all = ws.findLabel(doc, name).filter((l) => l.prefix === '' && !excluded(l.doc, l.label.start));
      for (const l of doc.labelMap().get(name) ?? []) {
        if (excluded(doc, l.start)) continue;
        // compiled together only when certainly in no two branches of one conditional
        const here = projectBranches(ws, doc, l.start);
        const others = all.filter((o) => o.label !== l && (o.doc === doc || compilations.some((c) => c.has(doc) && c.has(o.doc)))
          && apart(here, projectBranches(ws, o.doc, o.label.start), true) === false);
        if (others.length === 0) continue;
        out.push({
          diagnostic: {
            range: doc.range(l.start, l.end), severity: DiagnosticSeverity.Error, source: SOURCE,
            code: 'duplicate-label', message: `Duplicate label '${name}' (also at ${others.map((o) => `${baseName(o.doc.uri)}:${o.doc.positionAt(o.label.start).line + 1}`).join(', ')})`,
          },
          needs: [],
        });
      }
    }
  }
  yield;
  if (settings.unusedLabels) {
    const used = usedLabelNames(ws, doc);
    for (const l of doc.labels()) {
      if (used.has(l.name) || isComputedName(l.name)) continue;
      out.push({
        diagnostic: {
          range: doc.range(l.start, l.end), severity: DiagnosticSeverity.Hint, source: SOURCE, code: 'unused-label',
          message: `Label '${l.name}' is never referenced`, tags: [DiagnosticTag.Unnecessary],
        },
        needs: NEEDS_ALL,
      });
    }
  }
  yield;
  // undefined-citation; a missing or unreadable .bib of this document (missing-include, unreadable)
  for (const d of citationDiagnostics(ws, doc, SOURCE, settings.structure)) {
    out.push({ diagnostic: d, needs: d.code === 'undefined-citation' ? NEEDS_ALL : d.code === 'unreadable' ? [] : NEEDS_COMPILED });
  }
  yield;
  if (settings.structure) {
    for (const inc of ws.missingIncludes(doc)) {
      // `\IfFileExists{x}{\input{x}}{}`: its absence is expected
      if (inc.guarded) continue;
      // said once, here: while a file that may hold labels is missing, undefined references are not reported
      const what = missingMayHoldLabels(doc, inc) ? 'its labels and contents are unknown, so undefined references are not reported in this project' : 'it holds no labels, so references are still checked';
      out.push({ diagnostic: missingInclude(doc, inc, `${inc.dir ? `${inc.dir}/` : ''}${inc.path}`, what, SOURCE, ws.skippedInclude(doc, inc)), needs: NEEDS_COMPILED });
    }
    for (const { inc, found } of ws.foundByLetterCase(doc)) {
      out.push({
        diagnostic: {
          range: doc.range(inc.start, inc.end), severity: DiagnosticSeverity.Information, source: SOURCE, code: 'include-letter-case',
          message: `${inc.path} is read as ${found} only because TeX Live (since 2018) looks file names up ignoring letter case; older TeX installations on case-sensitive file systems (Linux) do not find it`,
        },
        needs: NEEDS_COMPILED,
      });
    }
    yield;
    for (const inc of doc.includes()) {
      if (inc.kind !== 'external' || inc.guarded || /[\\#]/.test(inc.path) || !inc.path.trim() || ws.resolveIncludePath(doc, inc)) continue;
      // xr reads the other document's .aux, which its own build writes: information
      const d = missingInclude(doc, inc, inc.path, 'its labels (referenced through this document) are unknown', SOURCE, ws.skippedInclude(doc, inc));
      out.push({ diagnostic: { ...d, severity: DiagnosticSeverity.Information }, needs: NEEDS_COMPILED });
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
      // a cycle loops whenever any of its files is compiled; reading a file twice depends on the compilation
      out.push({ diagnostic: { range: doc.range(inc.start, inc.end), severity: DiagnosticSeverity.Warning, source: SOURCE, code: issue.kind === 'cycle' ? 'include-cycle' : 'duplicate-include', message }, needs: issue.kind === 'cycle' ? [] : NEEDS_COMPILED });
    }
    yield;
    for (const p of doc.problems()) {
      if (inVerbatim(p.start) || verbatim.has(p.env)) continue;
      out.push({ diagnostic: { range: doc.range(p.start, p.end), severity: DiagnosticSeverity.Warning, source: SOURCE, code: p.code, message: p.message }, needs: NEEDS_COMPILED });
    }
  }
  return out;
}

/** A key that can name a label: not a placeholder (`\ref{...}`, `\ref{}`) nor one built from macros. */
function isKey(name: string): boolean {
  return /[\p{L}\p{N}]/u.test(name) && !isComputedName(name);
}

/** Names of labels of `doc` referenced anywhere: in its project or through xr prefixes. */
function usedLabelNames(ws: Workspace, doc: Doc): Set<string> {
  const used = new Set<string>();
  for (const d of ws.all()) {
    const names = [...d.refs().map((r) => r.name), ...macroUses(d, projectMacros(ws, d), inheritedState(ws, d)).filter((u) => u.kind === 'ref').map((u) => u.name)];
    for (const name of names) {
      for (const loc of ws.findLabel(d, name)) if (loc.doc === doc) used.add(loc.label.name);
    }
  }
  return used;
}

/** `file:line` of an include. */
function where(ws: Workspace, at: { doc: Doc; index: number }): string {
  const inc = ws.includesOf(at.doc)[at.index];
  return `${baseName(at.doc.uri)}:${inc ? at.doc.positionAt(inc.start).line + 1 : '?'}`;
}

