// Splits a LaTeX document into blocks at "clean" points: blank lines and sectioning
// commands outside any environment. Because the scanner state is empty at every boundary,
// an edit can be re-split starting from the block before it, and the scan can stop as soon
// as it lands on an old boundary again (see LatexDocument.applyEdit).
import {
  BACKSLASH, DEFINITION_COMMANDS, NEWLINE, PERCENT, SECTION_CONTAINERS, SECTION_LEVELS,
  VERBATIM_ENVS, commandNameEnd, isBlankLineAt, lineEnd, readEnvName, readParagraphGroup,
  DefinitionBraces, skipDefinition, skipIfFalse, skipVerbArg, skipVerbatimBody,
} from './lexer.js';

/**
 * Scans `text` from the clean boundary `from` and calls `onBoundary(pos)` for each block
 * boundary after it (the start of the next block). Returning false from the callback stops
 * the scan. Block ends at the end of text are not reported.
 */
export function scanBoundaries(text: string, from: number, onBoundary: (pos: number) => boolean): void {
  const limit = text.length;
  const braces = new DefinitionBraces(text, limit);
  const stack: string[] = [];
  // open-environment counts by name: a stray `\end` under deep nesting stays O(1)
  const open = new Map<string, number>();
  let blockStart = from;
  let i = from;
  const emit = (pos: number): boolean => {
    if (pos <= blockStart || pos >= limit) return true;
    blockStart = pos;
    return onBoundary(pos);
  };
  while (i < limit) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE) {
      if (stack.length === 0 && isBlankLineAt(text, i + 1, limit)) {
        // swallow the whole blank run; the next block starts on the next non-blank line
        let j = i + 1;
        while (j < limit) {
          const e = lineEnd(text, j, limit);
          if (!isBlankLineAt(text, j, limit)) break;
          j = e + 1;
        }
        if (!emit(Math.min(j, limit))) return;
        i = j;
        continue;
      }
      i++;
    } else if (c === PERCENT) {
      i = lineEnd(text, i, limit);
    } else if (c === BACKSLASH) {
      const nameEnd = commandNameEnd(text, i + 1, limit);
      const name = text.slice(i + 1, nameEnd);
      if (name === 'begin') {
        const env = readEnvName(text, nameEnd, limit);
        if (!env) { i = nameEnd; continue; }
        if (VERBATIM_ENVS.has(env.name)) i = skipVerbatimBody(text, env.next, limit, env.name);
        else {
          if (!SECTION_CONTAINERS.has(env.name)) { stack.push(env.name); open.set(env.name, (open.get(env.name) ?? 0) + 1); }
          i = env.next;
        }
      } else if (name === 'end') {
        const env = readEnvName(text, nameEnd, limit);
        if (!env) { i = nameEnd; continue; }
        if (open.get(env.name)) {
          const at = stack.lastIndexOf(env.name);
          for (let k = at; k < stack.length; k++) open.set(stack[k], open.get(stack[k])! - 1);
          stack.length = at;
        }
        i = env.next;
      } else if (SECTION_LEVELS[name] !== undefined) {
        // A sectioning command cannot sit inside a theorem, proof, list or math
        // environment: treat whatever is still open as unclosed (error recovery).
        stack.length = 0;
        open.clear();
        // start the block at the line start when only indentation precedes the command
        let ls = i;
        while (ls > 0 && (text.charCodeAt(ls - 1) === 32 || text.charCodeAt(ls - 1) === 9)) ls--;
        if (!emit(ls === 0 || text.charCodeAt(ls - 1) === NEWLINE ? ls : i)) return;
        i = nameEnd;
      } else if (name === 'verb' || name === 'lstinline') {
        i = skipVerbArg(text, nameEnd, limit, name === 'lstinline');
      } else if (name === 'iffalse') {
        i = skipIfFalse(text, nameEnd, limit); // commented-out text: never a block boundary inside
      } else if (name === 'url') {
        const g = readParagraphGroup(text, nameEnd, Math.min(limit, nameEnd + 2000));
        i = g ? g.next : nameEnd;
      } else if (DEFINITION_COMMANDS.has(name)) {
        i = skipDefinition(text, nameEnd, limit, name, braces);
      } else {
        i = nameEnd;
      }
    } else {
      i++;
    }
  }
}

/** All block start offsets of `text` (the first is always 0). */
export function splitAll(text: string): number[] {
  const starts = [0];
  scanBoundaries(text, 0, (p) => { starts.push(p); return true; });
  return starts;
}
