// What the server's related-equations search returns (ext/protocol.ts#RelatedResponse, shared with the server)
// turned into what the client shows: results-panel items (each equation as display math, its
// file:line, library paper or ProofWiki page, the score and why) and the workspace and library
// hits as peek locations.
// Pure (no VS Code API), so it is unit-tested from test/client/.
import type { LibraryRef, RelatedEquation, RelatedResponse, Why } from 'mathsense-server/protocol';

export type { RelatedResponse };
export type RelatedWhy = Why;
export type RelatedResult = RelatedEquation;

export interface RelatedItem {
  title: string;
  latex: string;
  detail: string;
  /** Workspace hit: where it is (LSP range). */
  uri?: string;
  range?: RelatedResult['range'];
  /** Index hit: its page (opened in the browser on request). */
  url?: string;
  /** Library hit: the result to cite (INSERT_CITATION_COMMAND, with the place a client picks). */
  cite?: LibraryRef;
  score: number;
}

export function isRelatedResponse(x: unknown): x is RelatedResponse {
  const r = x as RelatedResponse | undefined;
  return !!r && typeof r === 'object' && !!r.query && Array.isArray(r.results);
}

/** Display math for KaTeX: rows and alignment marks in an `aligned` block. */
export function displayMath(latex: string): string {
  const body = latex.replace(/\\(label|tag\*?)\s*\{[^{}]*\}|\\(nonumber|notag)\b/g, '').trim();
  return /\\\\|(?<!\\)&/.test(body) ? `\\[\\begin{aligned}${body}\\end{aligned}\\]` : `\\[${body}\\]`;
}

export function whyText(w: RelatedWhy, same?: boolean): string {
  // "same" only where the server confirmed it; a fingerprint collision alone is evidence
  const f = same ? (w.fingerprint === 'identity' ? 'same identity' : 'same equation') : w.fingerprint === 'side' ? 'equivalent side' : w.fingerprint ? 'equivalent form (unconfirmed)' : undefined;
  return [f, w.encoder !== undefined ? `encoder ${w.encoder.toFixed(2)}` : undefined, `structure ${w.structure.toFixed(2)}`].filter(Boolean).join(' · ');
}

/** Panel items, best first; `where` names a workspace file (relative to the workspace). */
export function relatedItems(r: RelatedResponse, where: (uri: string, line: number) => string): RelatedItem[] {
  return r.results.map((x) => {
    const score = `score ${x.score.toFixed(2)} · ${whyText(x.why, x.same)}`;
    if (x.source === 'workspace' && x.uri) {
      const at = where(x.uri, x.line ?? 1);
      const copies = x.copies?.length ? ` · also in ${x.copies.map((c) => where(c.uri, c.line)).join(', ')}` : '';
      const title = `${x.copy ? 'copy: ' : ''}${x.label ? `${at} · ${x.label}` : at}`;
      return { title, latex: displayMath(x.display ?? x.latex), detail: score + copies, uri: x.uri, range: x.range, score: x.score };
    }
    if (x.source === 'library') {
      // a display of a paper in the author's library: named as the paper prints it, opened at its line, citable
      const file = (x.file ?? '').split(/[\\/]/).pop();
      return { title: `${x.title ?? 'Equation'} · ${x.paper ?? ''}`, latex: displayMath(x.display ?? x.latex), detail: `${score} · your library · ${file}:${x.line}`, uri: x.uri, range: x.range, ...(x.cite ? { cite: x.cite } : {}), score: x.score };
    }
    // index entries are CC BY-SA: the page and its licence are always shown
    const pages = x.pages?.length ? ` · also on ${x.pages.join(', ')}` : '';
    return { title: x.title ?? 'Index entry', latex: displayMath(x.display ?? x.latex), detail: `${score}${pages} · ${x.licence ?? ''}`.replace(/ · $/, ''), url: x.url, score: x.score };
  });
}

/** The panel's heading: the equation's label, else its file and line, else its LaTeX (short). */
export function relatedHeading(r: RelatedResponse, where?: (uri: string, line: number) => string): string {
  const q = r.query;
  const latex = q.latex.replace(/\s+/g, ' ').trim();
  const name = q.label ?? (q.uri && q.line && where ? where(q.uri, q.line) : latex.length > 60 ? `${latex.slice(0, 59)}…` : latex);
  return `Related equations: ${name}`;
}
