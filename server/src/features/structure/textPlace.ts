// What kind of text a position is in: the prose a reader reads, or math, a comment, the preamble,
// or the argument of a command that takes a name (a label, a reference, a file, an environment
// name, a length). Features that read words as words (term hovers) act only in prose, and in
// the text arguments of commands (\emph, \textbf, \section, \footnote, \text inside math).
import type { Doc } from '../../project/workspace.js';
import { DISPLAY_MATH_ENVS } from '../../syntax/displayMath.js';

export type TextPlace = 'prose' | 'math' | 'comment' | 'preamble' | 'argument';

/**
 * Commands whose brace arguments are text a reader reads there (the rest take names, paths,
 * sizes, code; `\index{…}` too: its entry is read in the index, not where it is written).
 */
const TEXT_ARGUMENT = new Set([
  'emph', 'textbf', 'textit', 'textsl', 'textsc', 'textup', 'textrm', 'textsf', 'textnormal', 'textmd', 'underline', 'uline',
  'text', 'mbox', 'hbox', 'fbox', 'intertext', 'shortintertext', 'footnote', 'footnotetext', 'marginpar', 'marginnote', 'caption',
  'part', 'chapter', 'section', 'subsection', 'subsubsection', 'paragraph', 'subparagraph', 'title', 'thanks',
  'item', 'defn', 'define', 'term', 'textcolor', 'colorbox', 'mathrm', 'operatorname',
  'noindent', 'centerline', 'parbox', 'minipage', 'framebox', 'makebox', 'em', 'bf', 'it',
]);
/** Text commands whose argument is math-mode free text even inside math. */
const TEXT_IN_MATH = new Set(['text', 'textrm', 'textit', 'textbf', 'textup', 'textsf', 'textnormal', 'mbox', 'hbox', 'intertext', 'shortintertext']);
/** Of TEXT_ARGUMENT, those whose argument is read after other arguments that are names (\textcolor{red}{text}). */
const NAME_FIRST = new Set(['textcolor', 'colorbox', 'parbox', 'makebox', 'framebox']);

/** How far back a scan for the state at a position may start: a paragraph (blank line) or this many characters. */
const MAX_SCAN = 6000;

/** A brace group: the command whose argument it is (inherited by plain groups inside), which argument, and the math mode outside it. */
interface Group { cmd: string; arg: number; own: boolean; outerMath: boolean }

/** The kind of text at `offset` of `doc`. */
export function textPlaceAt(doc: Doc, offset: number): TextPlace {
  const text = doc.text;
  const begin = text.indexOf('\\begin{document}');
  if (begin >= 0 && offset < begin) return 'preamble';
  // display math: the environment the block analyser found (\text{…} inside it is prose)
  const envs = doc.envs();
  for (let i = doc.envAt(offset); i >= 0; i = envs[i].parent) {
    const e = envs[i];
    if (DISPLAY_MATH_ENVS[e.name] !== undefined || /^(?:math|darray|IEEEeqnarray)\*?$/.test(e.name)) {
      return offset < e.bodyStart ? 'argument' : scan(text, Math.max(e.bodyStart, offset - MAX_SCAN), offset, true);
    }
  }
  // a paragraph starts in prose (a display's math starts with its environment: handled above)
  let from = text.lastIndexOf('\n\n', offset);
  from = from < 0 || offset - from > MAX_SCAN ? Math.max(0, offset - MAX_SCAN) : from;
  return scan(text, from, offset, false);
}

/** Reads from `from` (in math when `math`) to `offset`, tracking math switches, comments and brace groups. */
function scan(text: string, from: number, offset: number, math: boolean): TextPlace {
  const stack: Group[] = [];
  let inMath = math;
  let cmd = ''; // the command whose next argument a `{` or `[` would be
  let arg = 0;
  for (let i = from; i < offset; i++) {
    const c = text[i];
    if (c === '%') {
      const nl = text.indexOf('\n', i);
      if (nl < 0 || nl >= offset) return 'comment';
      i = nl;
      cmd = '';
      continue;
    }
    if (c === '\\') {
      const m = /^\\(?:([A-Za-z@]+)\*?|([^A-Za-z@]))/.exec(text.slice(i, i + 40));
      if (!m) continue;
      i += m[0].length - 1;
      if (m[1] !== undefined) { cmd = m[1]; arg = 0; continue; }
      if (m[2] === '(' || m[2] === '[') inMath = true;
      else if (m[2] === ')' || m[2] === ']') inMath = false;
      cmd = '';
      continue;
    }
    if (c === '$') {
      if (text[i + 1] === '$') i++;
      inMath = !inMath;
      cmd = '';
      continue;
    }
    if (c === '{') {
      const parent = stack[stack.length - 1];
      stack.push(cmd ? { cmd, arg, own: true, outerMath: inMath } : { cmd: parent?.cmd ?? '', arg: parent?.arg ?? 0, own: false, outerMath: inMath });
      if (cmd && inMath && TEXT_IN_MATH.has(cmd)) inMath = false;
      cmd = '';
      continue;
    }
    if (c === '}') {
      const g = stack.pop();
      if (g) {
        inMath = g.outerMath;
        // the command's next argument may follow
        if (g.own) { cmd = g.cmd; arg = g.arg + 1; } else cmd = '';
      }
      continue;
    }
    if (c === '[' && cmd) {
      // an optional argument: text for \begin{…}[title], \item[…], \section[…]; a name otherwise
      const close = text.indexOf(']', i);
      if (close < 0 || close >= offset) return inMath ? 'math' : cmd === 'begin' || TEXT_ARGUMENT.has(cmd) ? 'prose' : 'argument';
      i = close;
      continue;
    }
    if (!/\s/.test(c)) cmd = '';
  }
  if (inMath) return 'math';
  const g = stack[stack.length - 1];
  if (g?.cmd && (!TEXT_ARGUMENT.has(g.cmd) || (NAME_FIRST.has(g.cmd) && g.arg === 0))) return 'argument';
  return 'prose';
}
