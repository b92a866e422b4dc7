// What LaTeX prints for a reference: the name of the kind (`Problem` for a counter declared
// `\newtheorem{xproblem}[problem]{Problem}`, a `\crefname` override, `\Crefname` for `\Cref`,
// the plural for `\cref{a,b}`, an `\autoref` name) and the number as the `.aux` has it, with
// its symbols written out (`3A$^{\dagger}$` → `3A†`). What cannot be known is left out, never guessed.
import type { Doc, Workspace } from './workspace.js';
import { texText } from './texText.js';

/** Names cleveref and hyperref print for LaTeX's own counters (singular, plural). */
const STANDARD: Record<string, [string, string]> = {
  equation: ['Equation', 'Equations'], section: ['Section', 'Sections'], subsection: ['Section', 'Sections'],
  subsubsection: ['Section', 'Sections'], chapter: ['Chapter', 'Chapters'], part: ['Part', 'Parts'],
  appendix: ['Appendix', 'Appendices'], figure: ['Figure', 'Figures'], table: ['Table', 'Tables'],
  item: ['Item', 'Items'], enumi: ['Item', 'Items'], footnote: ['Footnote', 'Footnotes'], page: ['Page', 'Pages'],
  paragraph: ['Paragraph', 'Paragraphs'], line: ['Line', 'Lines'], algorithm: ['Algorithm', 'Algorithms'],
  listing: ['Listing', 'Listings'], note: ['Note', 'Notes'],
};

/** `\crefname{type}{singular}{plural}` (and `\Crefname`, `\typeautorefname`) of a project, cached per document version. */
interface Overrides { cref: Map<string, [string, string]>; Cref: Map<string, [string, string]>; autoref: Map<string, string> }

const overrideCache = new WeakMap<Doc, { version: number; o: Overrides }>();

function overridesOf(d: Doc): Overrides {
  const hit = overrideCache.get(d);
  if (hit && hit.version === d.version) return hit.o;
  const o: Overrides = { cref: new Map(), Cref: new Map(), autoref: new Map() };
  const text = d.latexText;
  if (text.includes('refname')) {
    for (const m of text.matchAll(/\\(c|C)refname\s*\{([^{}]+)\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}/g)) {
      (m[1] === 'c' ? o.cref : o.Cref).set(m[2].trim(), [texText(m[3]) ?? m[3], texText(m[4]) ?? m[4]]);
    }
    for (const m of text.matchAll(/\\(?:def|renewcommand\*?|newcommand\*?|providecommand\*?)\s*\{?\\([A-Za-z]+)autorefname\}?\s*\{([^{}]*)\}/g)) o.autoref.set(m[1], texText(m[2]) ?? m[2]);
  }
  overrideCache.set(d, { version: d.version, o });
  return o;
}

export type NameStyle = 'cref' | 'Cref' | 'autoref';

/**
 * The name LaTeX prints for a reference of kind `kind` (a counter or cleveref type) made with
 * `style`, plural when it names several; undefined when the project does not say and the kind
 * is no counter of LaTeX's own.
 */
export function printedName(ws: Workspace, doc: Doc, kind: string, style: NameStyle = 'Cref', plural = false): string | undefined {
  let cref: [string, string] | undefined;
  let capital: [string, string] | undefined;
  let auto: string | undefined;
  for (const d of ws.scope(doc)) {
    const o = overridesOf(d);
    cref ??= o.cref.get(kind);
    capital ??= o.Cref.get(kind);
    auto ??= o.autoref.get(kind);
  }
  const pick = (pair: [string, string]) => (plural ? pair[1] : pair[0]);
  if (style === 'autoref' && auto) return auto;
  if (style === 'Cref' && capital) return pick(capital);
  if (cref) return style === 'cref' ? pick(cref) : capitalize(pick(cref));
  // `\cref` prints its names in lower case unless cleveref is loaded with `capitalise`
  const lower = style === 'cref' && !capitalised(ws, doc);
  const cased = (name: string) => (lower ? name.charAt(0).toLowerCase() + name.slice(1) : name);
  // a theorem-like environment: the name its declaration prints (`\newtheorem{xproblem}[problem]{Problem}`)
  const registry = ws.theorems(doc);
  const declared = registry.get(kind) ?? registry.all().find((k) => k.counter === kind && k.env === kind);
  if (declared?.title) return cased(plural ? `${declared.title}s` : declared.title);
  const std = STANDARD[kind];
  if (std) return lower && kind === 'equation' ? (plural ? 'eqs.' : 'eq.') : cased(pick(std));
  return undefined;
}

/** Whether the project loads cleveref with `capitalise` (`capitalize`): `\cref` then prints names capitalised. */
function capitalised(ws: Workspace, doc: Doc): boolean {
  for (const d of ws.scope(doc)) if (/\\usepackage\s*\[[^\]]*capitali[sz]e[^\]]*\]\s*\{[^}]*cleveref/.test(d.latexText)) return true;
  return false;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

