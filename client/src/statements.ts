// Pure text helpers for the results panel: the environment around a label, and the LaTeX of a
// statement without its \begin/\end/\label scaffolding. No `vscode` import (unit-tested in
// test/client/statements.test.mjs).

export interface EnvSpan {
  name: string;
  /** Offset of `\begin`. */
  start: number;
  /** Offset just after the matching `\end{name}` (or the end of the text when unclosed). */
  end: number;
  /** Offset just after `\begin{name}` and its optional argument. */
  bodyStart: number;
  /** Offset of the matching `\end`. */
  bodyEnd: number;
  /** The optional argument (`\begin{lemma}[Title]`), if any. */
  title?: string;
}

const ENV_RE = /\\(begin|end)\s*\{([^{}]+)\}/g;

/** Removes `%` comments (keeps `\%`), preserving offsets by replacing with spaces. */
export function blankComments(text: string): string {
  return text.replace(/(^|[^\\])(%[^\n]*)/g, (_m, pre: string, c: string) => pre + ' '.repeat(c.length));
}

const TRANSPARENT = new Set(['document']);

/** The innermost environment (other than `document`) that contains `offset`. */
export function enclosingEnvironment(text: string, offset: number): EnvSpan | undefined {
  const src = blankComments(text);
  const stack: Array<{ name: string; start: number; after: number }> = [];
  ENV_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ENV_RE.exec(src)) && m.index < offset) {
    const name = m[2].trim();
    if (m[1] === 'begin') stack.push({ name, start: m.index, after: m.index + m[0].length });
    else {
      const i = stack.map((s) => s.name).lastIndexOf(name);
      if (i >= 0) stack.length = i;
    }
  }
  const open = [...stack].reverse().find((s) => !TRANSPARENT.has(s.name));
  if (!open) return undefined;
  // the matching \end after the offset
  let depth = 0;
  let bodyEnd = src.length;
  let end = src.length;
  const re = new RegExp(ENV_RE.source, 'g');
  re.lastIndex = open.after;
  while ((m = re.exec(src))) {
    if (m[2].trim() !== open.name) continue;
    if (m[1] === 'begin') depth++;
    else if (depth-- === 0) { bodyEnd = m.index; end = m.index + m[0].length; break; }
  }
  let bodyStart = open.after;
  let title: string | undefined;
  const opt = /^\s*\[/.exec(src.slice(bodyStart, bodyStart + 400));
  if (opt) {
    let d = 0;
    for (let i = bodyStart + opt[0].length - 1; i < Math.min(src.length, bodyStart + 400); i++) {
      if (src[i] === '{') d++;
      else if (src[i] === '}') d--;
      else if (src[i] === ']' && d === 0) { title = text.slice(bodyStart + opt[0].length, i).trim(); bodyStart = i + 1; break; }
    }
  }
  return { name: open.name, start: open.start, end, bodyStart, bodyEnd, title };
}

export const MATH_ENVS = new Set([
  'equation', 'equation*', 'align', 'align*', 'alignat', 'alignat*', 'flalign', 'flalign*', 'gather', 'gather*',
  'multline', 'multline*', 'eqnarray', 'eqnarray*', 'displaymath', 'math', 'split',
]);

/** The LaTeX the panel renders for an environment: a math environment whole, otherwise its body. */
export function statementLatex(text: string, env: EnvSpan): string {
  const raw = MATH_ENVS.has(env.name) ? text.slice(env.start, env.end) : text.slice(env.bodyStart, env.bodyEnd);
  return blankComments(raw).replace(/\\label\s*\{[^{}]*\}/g, '').replace(/[ \t]+\n/g, '\n').trim();
}

/** The label name in a `\ref`-like or `\label` command around `character` on one line. */
export function labelAt(line: string, character: number): string | undefined {
  const re = /\\([A-Za-z]*ref|label|cref|Cref|autoref|nameref)\*?\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) {
    const argStart = m.index + m[0].lastIndexOf('{') + 1;
    if (character < m.index || character > m.index + m[0].length) continue;
    // cleveref lists: the name under the cursor, else the first
    let pos = argStart;
    for (const part of m[2].split(',')) {
      if (character >= pos && character <= pos + part.length) return part.trim() || undefined;
      pos += part.length + 1;
    }
    return m[2].split(',')[0].trim() || undefined;
  }
  return undefined;
}
