// Labels and references: references no label of the project defines (undefined-ref, also through
// the project's own macros and when the label is only in another branch of a conditional),
// labels defined twice in one compilation (duplicate-label), labels never referenced
// (unused-label).
import { DiagnosticTag } from 'vscode-languageserver-types';
import type { Doc, LabelLocation, Workspace } from '../../project/workspace.js';
import { inheritedState, isComputedName, macroUses, projectMacros } from '../../project/userMacros.js';
import { definedElsewhere, labelUniverse } from '../../project/labelUniverse.js';
import { apart, labelsInBranches, projectBranches } from '../../project/branches.js';
import { uriBaseName as baseName } from '../../project/files.js';
import { diagnostic } from './codes.js';
import type { CheckContext } from './checkContext.js';
import type { Candidate } from './publishGate.js';

/** Blocks between pauses. */
const BLOCKS_PER_PAUSE = 256;

/** `file:line` of a label. */
const labelPlace = (o: LabelLocation) => `${baseName(o.doc.uri)}:${o.doc.positionAt(o.label.start).line + 1}`;

export function* labelChecks(cx: CheckContext): Generator<void, void> {
  const { ws, doc, settings, out } = cx;
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
  // a reference inside a test of whether a label is defined (`\oliflabeldef{x}{see \olref{y}}{…}`) is
  // printed only in the branch LaTeX takes: the first when x is defined, the other when not. Its own
  // label's test (`\oliflabeldef{x}{\ref{x}}{}`) never prints ??; a test whose branches are not
  // whole arguments leaves all it holds unchecked
  const guards = uses.filter((u) => u.kind === 'guard' && u.extentEnd !== undefined);
  const within = (at: number, s?: { start: number; end: number }) => !!s && at >= s.start && at < s.end;
  const guarded = (name: string, at: number) => guards.length > 0 && guards.some((g) => {
    if (at < g.cmdStart || at >= g.extentEnd!) return false;
    if (g.name === name || !g.ifDefined || !g.ifUndefined) return true;
    return within(at, defined(g.name) ? g.ifUndefined : g.ifDefined);
  });
  const defined = (name: string) => !refsChecked || !isKey(name) || ws.countLabel(doc, name) > 0 || madeByMacros(name);
  // a label only another compilation of the workspace defines (a draft of a section that refers to
  // the book, a document of a split site): compiled alone the reference prints ??, but that may be
  // meant, so it is said, not flagged
  let elsewhereOf: ((name: string) => Doc[]) | undefined;
  const undefinedRef = (start: number, end: number, name: string, through: string): Candidate => {
    const elsewhere = (elsewhereOf ??= definedElsewhere(ws, doc))(name);
    return {
      diagnostic: elsewhere.length
        ? diagnostic('undefined-ref', doc.range(start, end), `\\label{${name}} is only in ${elsewhere.slice(0, 3).map((d) => baseName(d.uri)).join(', ')}, which is not compiled with this document: compiled on its own, this reference prints ??${through}`, { severity: 'information' })
        : diagnostic('undefined-ref', doc.range(start, end), `Undefined reference: no \\label{${name}} in this project${through}`),
      key: name,
    };
  };
  for (const u of uses) {
    if (u.kind !== 'ref' || u.computed || defined(u.name) || guarded(u.name, u.cmdStart)) continue;
    out.push(undefinedRef(u.start, u.end, u.name, ` (through \\${u.macro})`));
  }
  const inVerbatim = (at: number) => cx.excluded(doc, at);
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
        // and nothing the project cannot show may define it where the reference is (the key)
        if (apart) {
          out.push({
            diagnostic: diagnostic('undefined-ref', doc.range(block.start + ref.start, block.start + ref.end), `Undefined reference: \\label{${ref.name}} (${apart.map(labelPlace).join(', ')}) is only in another branch of a conditional this reference is in, never compiled with it`),
            key: ref.name,
          });
        }
        continue;
      }
      // a blueprint's \proves names the statement a separate proof proves; plastexdepgraph
      // attaches a proof whose key it does not know to the statement above it
      if (ref.cmd !== 'proves') { out.push(undefinedRef(block.start + ref.start, block.start + ref.end, ref.name, '')); continue; }
      out.push({
        diagnostic: diagnostic('undefined-ref', doc.range(block.start + ref.start, block.start + ref.end), `\\proves{${ref.name}}: no \\label{${ref.name}} in this project; the dependency graph attaches this proof to the statement above it`, { severity: 'information' }),
        key: ref.name,
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
      const all = ws.findLabel(doc, name).filter((l) => l.prefix === '' && !cx.excluded(l.doc, l.label.start));
      for (const l of doc.labelMap().get(name) ?? []) {
        if (cx.excluded(doc, l.start)) continue;
        // compiled together only when certainly in no two branches of one conditional
        const here = projectBranches(ws, doc, l.start);
        const others = all.filter((o) => o.label !== l && (o.doc === doc || compilations.some((c) => c.has(doc) && c.has(o.doc)))
          && apart(here, projectBranches(ws, o.doc, o.label.start), true) === false);
        if (others.length === 0) continue;
        out.push({ diagnostic: diagnostic('duplicate-label', doc.range(l.start, l.end), `Duplicate label '${name}' (also at ${others.map(labelPlace).join(', ')})`) });
      }
    }
  }
  yield;
  if (settings.unusedLabels) {
    const used = usedLabelNames(ws, doc);
    for (const l of doc.labels()) {
      if (used.has(l.name) || isComputedName(l.name)) continue;
      out.push({ diagnostic: diagnostic('unused-label', doc.range(l.start, l.end), `Label '${l.name}' is never referenced`, { tags: [DiagnosticTag.Unnecessary] }) });
    }
  }
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
