// ProofWiki eqn tables as display-math blocks for the derivation checker (evaluation only):
// the rendered pages hold each table as runs of fragments `\(\ds l\)`, `\(=\)`, `\(\ds r\)`.
const PW_REL = /^\s*(=|<|>|\\le|\\leq|\\ge|\\geq|\\ne|\\neq|\\equiv|\\approx|\\sim|\\lt|\\gt|\\leqslant|\\geqslant|\\subseteq|\\subset|\\in|\\iff|\\implies|\\leadsto|:=|\\cong|\\simeq|\\to|)\s*$/;
export const PW_FRAGMENT = /^\\\((.*)\\\)$/;

/** One eqn table as align rows: `rows` the row spans in `text`, `rowIndex` their starts. */
export interface ProofWikiBlock {
  text: string;
  rows: Array<{ start: number; end: number }>;
  rowIndex: number[];
}

/** The comment column as `\\text{…}` content: its inline math (`$r = t_1 + s$`) kept when it is balanced. */
function commentText(c: string): string {
  const t = c.slice(0, 400);
  let depth = 0;
  for (const ch of t.replace(/\\[{}$]/g, '')) { if (ch === '{') depth++; else if (ch === '}' && --depth < 0) break; }
  const dollars = (t.match(/(?<!\\)\$/g) ?? []).length;
  return depth === 0 && dollars % 2 === 0 ? t : t.replace(/[{}\\$]/g, ' ');
}

/**
 * ProofWiki eqn tables, rendered as runs of fragments `\(\ds l\)`, `\(=\)`, `\(\ds r\)`
 * (the relation column may be empty, the left column may hold `+` of an expression broken
 * over rows, an optional first column holds `\leadsto` or a tag), with the comment column
 * as plain text. They become align rows `l & rel & r \quad \text{comment}`, one per
 * relation column, so the extractor sees the same chains as in LaTeX.
 */
export function proofwikiBlocks(sectionText: string): ProofWikiBlock[] {
  const lines = sectionText.split('\n').map((l) => l.trim()).filter((l) => l);
  const tables: string[][] = [[]];
  let cur: string[] = [];
  let comment: string[] = [];
  let afterRel = 0;
  const flush = () => {
    // the comment column is one short line; what follows it before the next row is prose after the table
    const note = comment.length && comment[0].length <= 120 ? comment[0] : '';
    if (cur.length) tables[tables.length - 1].push(cur.join(' ') + (note ? ` \\quad \\text{${commentText(note)}}` : ''));
    // prose ending in a colon ("Therefore:") introduces the next table: its chains start afresh
    if (cur.length && /:\s*$/.test(comment.join(' '))) tables.push([]);
    cur = [];
    comment = [];
  };
  let inTable = false;
  for (const line of lines) {
    const f = PW_FRAGMENT.exec(line);
    if (!f) { if (inTable) comment.push(line); continue; }
    // spacing commands go, except thin spaces between digit groups (`3 \, 628 \, 800`)
    let frag = f[1].replace(/\\ds\b/g, ' ').replace(/(?<!\d\s*)\\[,;:! ]|\\[,;:! ](?!\s*\d{3}(?!\d))/g, ' ').trim();
    if (/^\\text\s*\{\s*\(\w+\)\s*\}\s*:?\s*\\quad$/.test(frag)) { flush(); continue; } // row tag "(1):"
    // right column; an operator alone there (`o = +` rows) takes the next fragment with it
    // (`= \(\, - \,\) term` after a relation: the row continues the right side above, the
    // relation column only repeats the row's alignment)
    if (afterRel === 1) {
      const op = /^([+-]|\\(times|cdot|pm|mp))$/.test(frag);
      if (op && /^&.+&$/.test(cur[cur.length - 1]) && f[1].includes('\\ds')) cur[cur.length - 1] = '&&';
      cur.push(frag);
      afterRel = op ? 1 : 0;
      continue;
    }
    const isRel = f[1].trim() === '' || (!/\\ds\b/.test(f[1]) && frag !== '' && PW_REL.test(frag));
    if (isRel && cur.length) {
      // a relation column: a new row starts here unless the row so far is only a left column
      cur.push(frag ? `&${frag}&` : '&&');
      afterRel = 1;
      inTable = true;
      continue;
    }
    // a further column that starts with a relation (`\(\ds = 41\)`) continues the row's chain
    if (cur.some((c) => c.startsWith('&')) && /^(=|<|>|\\(le|ge|leq|geq|ne|neq|lt|gt)(?![A-Za-z]))/.test(frag)) { cur.push(frag); continue; }
    if (cur.some((c) => c.startsWith('&'))) flush();
    cur.push(frag);
  }
  flush();
  if (!inTable) return [];
  return tables.filter((t) => t.length).map((rowTexts) => {
    let text = '';
    const spans: Array<{ start: number; end: number }> = [];
    const rowIndex: number[] = [];
    for (const r of rowTexts) {
      const s = text.length;
      text += r;
      spans.push({ start: s, end: text.length });
      rowIndex.push(s);
      text += ' \\\\\n';
    }
    return { text, rows: spans, rowIndex };
  });
}

/** Prose of a page section with its eqn tables turned back into inline math (`$l = r$`). */
export function prose(text: string): string {
  const out: string[] = [];
  let math: string[] = [];
  for (const line of text.split('\n')) {
    const f = PW_FRAGMENT.exec(line.trim());
    if (f) {
      const frag = f[1].replace(/\\ds\b/g, ' ').trim();
      // one `$l rel r$` per table row
      if (math.length >= 2 && PW_REL.test(math[math.length - 1]) && !PW_REL.test(math[math.length - 2])) { out.push(`$${[...math, frag].join(' ')}$`); math = []; continue; }
      math.push(frag);
      continue;
    }
    if (line.trim() === '') continue;
    if (math.length) { out.push(`$${math.join(' ')}$`); math = []; }
    out.push(line.trim());
  }
  if (math.length) out.push(`$${math.join(' ')}$`);
  return out.join('\n');
}

