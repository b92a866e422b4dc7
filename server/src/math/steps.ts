// Step extraction: turns the rows of one display-math block into relation chains
// (`e0 R1 e1 R2 e2 …`) and the chains into steps `(e_{k-1}, R_k, e_k)`. Handles alignment
// `&`, continuation rows (`&= …` continues the previous right side), expressions broken over
// rows (`… + \\ &\quad + …`), nested aligned/split, annotations (`\text{…}`, `\quad (by …)`,
// side conditions after a comma), `\label`/`\tag`/`\notag`, trailing punctuation, `\pmod`,
// and implication arrows, which start a new chain whose first relation is a consequence, not
// an identity. Offsets are relative to the block text; dropped text is blanked in place.
import { blank, blankComments, commandEnd, groupEnd, skipSpaces } from './latexText.js';
import { REF_COMMANDS } from '../syntax/blockAnalyser.js';
import { PAIRED_COLUMN_ENVS } from '../syntax/displayMath.js';

export type Relation = '=' | '<' | '<=' | '>' | '>=' | '!=' | 'equiv' | 'approx' | 'other';

export interface Span { start: number; end: number }

export interface Side extends Span { text: string }

export interface Step {
  lhs: Side;
  rhs: Side;
  rel: Relation;
  /** Position of the relation symbol. */
  relAt: number;
  /** `\pmod{n}` of the row, for `\equiv`. */
  mod?: string;
  /** Text after the step on its row: `\text{by (3)}`, `(x \neq 1)`, … */
  annotation: string;
  /** First relation after `\implies`, `\leadsto`, "hence": an equation, not an identity. */
  implied: boolean;
  /**
   * An equation being solved rather than an identity: a chain that an implication follows
   * (`2x + 3 = 7 \implies …`), or one of consecutive one-relation rows with their own left
   * sides sharing variables (`4 \sin θ \cos 2θ = 1 \\ 4 \sin θ \cos θ \cos 2θ = \cos θ`).
   */
  equation: boolean;
  /** A `% mathsense-ignore-step` comment is on the step's lines. */
  ignored: boolean;
  /** The relation carries its own justification (`\overset{(3)}{=}`). */
  justified: boolean;
  /** The relation is `\approx`: equal at the precision the right side prints. */
  printed?: boolean;
  /** An earlier relation of the chain is `\approx`: the left side may hold the author's roundings. */
  afterApprox?: boolean;
  /** Earlier relations of the chain bound it from above (`\le`, `<`) or below: an `\approx` may round that way. */
  bound?: 'upper' | 'lower';
}

export interface MathBlockText {
  text: string;
  /** Row spans of the display-math environment, relative to `text`. */
  rows: Span[];
  /**
   * The environment's name. In `align`-like environments columns come in pairs: every second
   * `&` of a row starts another equation beside the first (`\mu &= 1/p & \sigma^2 &= (1-p)/p^2`).
   */
  env?: string;
}

export const IGNORE_MARK = 'mathsense-ignore-step';

const RELATION_CMDS: Record<string, Relation> = {
  le: '<=', leq: '<=', leqslant: '<=', leqq: '<=', ge: '>=', geq: '>=', geqslant: '>=', geqq: '>=',
  lt: '<', gt: '>', ne: '!=', neq: '!=', equiv: 'equiv', approx: 'approx', sim: 'approx', simeq: 'approx',
  cong: 'other', to: 'other', mapsto: 'other', rightarrow: 'other', longrightarrow: 'other', in: 'other',
  notin: 'other', ni: 'other', subset: 'other', subseteq: 'other', subsetneq: 'other', supset: 'other',
  supseteq: 'other', mid: 'other', nmid: 'other', perp: 'other', parallel: 'other', propto: 'other',
  ll: 'other', gg: 'other', prec: 'other', succ: 'other', preceq: 'other', succeq: 'other', vdash: 'other',
  models: 'other', coloneqq: 'other', eqqcolon: 'other', coloneq: 'other', triangleq: 'other', doteq: 'other',
  lesssim: 'approx', gtrsim: 'approx', asymp: 'approx', iso: 'other', cong_: 'other', nleq: 'other',
  ngeq: 'other', not: 'other', leftarrow: 'other', longmapsto: 'other', hookrightarrow: 'other',
  twoheadrightarrow: 'other', xrightarrow: 'other', rightleftharpoons: 'other', sqsubseteq: 'other',
  lessapprox: 'approx', gtrapprox: 'approx', stackrel: '=', overset: '=', underset: '=',
};

const IMPLICATION_CMDS = new Set([
  'implies', 'impliedby', 'iff', 'Rightarrow', 'Leftarrow', 'Leftrightarrow', 'Longrightarrow', 'Longleftarrow',
  'Longleftrightarrow', 'leadsto', 'leadstoandfrom', 'leftrightarrow', 'therefore', 'because', 'land', 'lor', 'wedge', 'vee', 'quad\\text',
]);

/** Commands starting an annotation once the row has content: the rest of the row is prose. */
const ANNOTATION_CMDS = new Set([
  'quad', 'qquad', 'text', 'textrm', 'textup', 'textit', 'textbf', 'mbox', 'hbox', 'hspace', 'emph',
  'textnormal', 'hfill', 'tag', 'intertext', 'shortintertext', 'mathrm_by', 'forall', 'exists', 'for', 'where',
  'qquad\\text', 'textsf', 'small', 'footnotesize', 'phantom', 'because',
]);

/** Commands dropped (blanked) with their arguments: they do not change the value. */
const DROP_WITH_ARG: Record<string, number> = {
  label: 1, tag: 1, 'tag*': 1, hspace: 1, 'hspace*': 1, vspace: 1, 'vspace*': 1, intertext: 1, shortintertext: 1,
  phantom: 1, hphantom: 1, vphantom: 1, eqref: 1, ref: 1, cite: 1, nonumber: 0, notag: 0, displaystyle: 0,
  textstyle: 0, scriptstyle: 0, ds: 0, big: 0, Big: 0, bigg: 0, Bigg: 0, bigl: 0, bigr: 0, Bigl: 0, Bigr: 0,
  biggl: 0, biggr: 0, Biggl: 0, Biggr: 0, nolimits: 0, limits: 0, allowbreak: 0, nobreak: 0, quad: -1, qquad: -1,
  mathstrut: 0, strut: 0, medskip: 0, smallskip: 0, bigskip: 0, noalign: 1, hfill: 0, mathop: 0, relax: 0,
  // every reference command (syntax/blockAnalyser.ts#REF_COMMANDS): `\cref{eq:a}` in a row is an annotation
  ...Object.fromEntries(Object.entries(REF_COMMANDS).map(([name, arity]) => [name, arity === 'two' ? 2 : 1])),
};

const TEXT_PERCENT = /\\(?:text|textrm|textup|mbox|mathrm)\s*\{\s*\\%\s*\}/g;

const NESTED_ROWS = /\\(begin|end)\{(aligned|split|gathered|alignedat|alignedat\*|multlined|array)\}(\{[^}]*\})?/g;

const IMPLICATION_WORDS = /\b(hence|so|thus|then|therefore|and|which|giving|gives|yields|implies|i\.e\.|or|if|whence|since|because|where|for|with)\b/i;

interface Item { kind: 'expr'; spans: Span[] }
interface RelItem { kind: 'rel'; rel: Relation; at: number; justified: boolean; printed?: boolean }
type ChainItem = Item | RelItem;
interface Chain {
  items: ChainItem[];
  implied: boolean;
  /** Followed by ⇒: its relations are being solved, not identities (`2x + 3 = 7 ⇒ x = 2`). */
  premise?: boolean;
  /** Starts at the left edge of a row with its own left side (not a `&= …` continuation). */
  ownRow?: boolean;
  mod?: string;
  annotations: Map<number, string>;
  rowEnds: Map<number, number>;
}

/**
 * Where equations side by side begin: in each row, every second `&` at the row's own level
 * (not inside braces or a nested environment such as an array).
 */
function columnStarts(raw: string, rows: readonly Span[]): Set<number> {
  const s = blankComments(raw);
  const out = new Set<number>();
  for (const row of rows) {
    let depth = 0;
    let nested = 0;
    let amps = 0;
    for (let i = row.start; i < row.end; i++) {
      const c = s[i];
      if (c === '\\') {
        const e = commandEnd(s, i + 1);
        const name = s.slice(i + 1, e);
        if (name === 'begin') nested++;
        else if (name === 'end') nested = Math.max(0, nested - 1);
        else if (name === '\\' && depth === 0 && nested === 0) amps = 0; // a `\\` left in the row (nested rows) starts a new row
        i = e - 1;
      } else if (c === '{') depth++;
      else if (c === '}') depth = Math.max(0, depth - 1);
      else if (c === '&' && depth === 0 && nested === 0 && ++amps % 2 === 0) out.add(i);
    }
  }
  return out;
}

/** Prepares the block text: comments, labels, tags, spacing commands and `&` blanked. */
function cleanBlock(raw: string): string {
  let s = blankComments(raw);
  s = s.replace(NESTED_ROWS, (m) => ' '.repeat(m.length));
  // `83.7\text{\%}`: a percent sign set in text is the sign, not a remark (same length, offsets kept)
  s = s.replace(TEXT_PERCENT, (m) => `\\%${' '.repeat(m.length - 2)}`);
  let out = s;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '&' ) { out = blank(out, i, i + 1); continue; }
    if (c === '~') { out = blank(out, i, i + 1); continue; }
    if (c !== '\\') continue;
    const e = commandEnd(s, i + 1);
    let name = s.slice(i + 1, e);
    let end = e;
    if (s[end] === '*' && (name === 'tag' || name === 'hspace' || name === 'vspace')) { name += '*'; end++; }
    if (name === ',' || name === ';' || name === '!' || name === ':' || name === ' ' || name === '>') {
      // a thin space inside a number (`3 \, 628 \, 800`) is a digit-group separator: kept for the parser
      if (name !== '!' && name !== ':' && name !== '>' && /\d\s*$/.test(s.slice(Math.max(0, i - 4), i)) && /^\s*\d{3}(?!\d)/.test(s.slice(e, e + 8))) { i = e - 1; continue; }
      out = blank(out, i, e);
      i = e - 1;
      continue;
    }
    if (name === 'left' && s[e] === '.') { out = blank(out, i, e + 1); i = e; continue; }
    if (name === 'right' && s[e] === '.') { out = blank(out, i, e + 1); i = e; continue; }
    const n = DROP_WITH_ARG[name];
    if (n === undefined || n < 0) { i = e - 1; continue; }
    let j = end;
    for (let a = 0; a < n; a++) {
      const k = skipSpaces(s, j);
      if (s[k] !== '{') break;
      const g = groupEnd(s, k);
      if (g <= 0) break;
      j = g;
    }
    out = blank(out, i, j);
    // `\intertext{which gives}` between rows ends the row before it even without `\\`
    if ((name === 'intertext' || name === 'shortintertext') && j - i >= 2) out = `${out.slice(0, i)}\\\\${out.slice(i + 2)}`;
    i = j - 1;
  }
  return out;
}

/** Splits a row further at `\\` left inside nested aligned/split environments. */
function subRows(s: string, row: Span): Span[] {
  const out: Span[] = [];
  let start = row.start;
  let depth = 0;
  for (let i = row.start; i < row.end; i++) {
    const c = s[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === '\\') {
      if (s[i + 1] === '\\' && depth <= 0) {
        out.push({ start, end: i });
        let j = i + 2;
        if (s[j] === '*') j++;
        const k = skipSpaces(s, j);
        if (s[k] === '[') { const g = groupEnd(s, k); if (g > 0 && g - k < 40) j = g; }
        start = j;
        i = j - 1;
      } else i++;
    }
  }
  out.push({ start, end: row.end });
  return out;
}

interface RowScan {
  pieces: Array<{ kind: 'expr'; start: number; end: number } | { kind: 'rel'; rel: Relation; at: number; justified: boolean; printed?: boolean } | { kind: 'imp' }>;
  annotation: string;
  mod?: string;
}

/** Scans one row at top level into expressions, relations and implication markers. */
function scanRow(s: string, row: Span): RowScan {
  const pieces: RowScan['pieces'] = [];
  let exprStart = row.start;
  let depth = 0;
  let content = false;
  let sawRel = false;
  let annotation = '';
  let mod: string | undefined;
  let end = row.end;
  const flush = (to: number): void => { pieces.push({ kind: 'expr', start: exprStart, end: to }); };
  let i = row.start;
  while (i < end) {
    const c = s[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '{') { const g = groupEnd(s, i); i = g > 0 && g <= end ? g : end; content = true; continue; }
    if (c === '(' || c === '[') { depth++; i++; content = true; continue; }
    if (c === ')' || c === ']') { depth = Math.max(0, depth - 1); i++; continue; }
    if (c === '\\') {
      const e = commandEnd(s, i + 1);
      const name = s.slice(i + 1, e);
      if (name === 'left' || name === '{' || name === 'langle' || name === 'lvert' || name === 'lVert' || name === 'lfloor' || name === 'lceil') {
        depth++; i = name === 'left' ? Math.min(end, e + (s[e] === '\\' ? commandEnd(s, e + 1) - e : 1)) : e; content = true; continue;
      }
      if (name === 'right' || name === '}' || name === 'rangle' || name === 'rvert' || name === 'rVert' || name === 'rfloor' || name === 'rceil') {
        depth = Math.max(0, depth - 1); i = name === 'right' ? Math.min(end, e + (s[e] === '\\' ? commandEnd(s, e + 1) - e : 1)) : e; continue;
      }
      if (depth === 0) {
        // modulus of a congruence: `\pmod{n}`, `\mod{n}`, `\pod{n}`, `\bmod` stays an operator
        if (name === 'pmod' || name === 'mod' || name === 'pod') {
          const k = skipSpaces(s, e);
          const g = s[k] === '{' ? groupEnd(s, k) : -1;
          if (g > 0) { mod = s.slice(k + 1, g - 1).trim(); end = i; break; }
        }
        if (IMPLICATION_CMDS.has(name)) {
          if (content || pieces.length) flush(i);
          pieces.push({ kind: 'imp' });
          exprStart = e; content = false; i = e; continue;
        }
        const rel = RELATION_CMDS[name];
        if (rel !== undefined) {
          let j = e;
          let justified = false;
          let r = rel;
          if (name === 'stackrel' || name === 'overset' || name === 'underset') {
            // `\overset{(3)}{=}`: a relation with its own justification
            const a = skipSpaces(s, j);
            const g1 = s[a] === '{' ? groupEnd(s, a) : -1;
            const b = g1 > 0 ? skipSpaces(s, g1) : -1;
            const g2 = b > 0 && s[b] === '{' ? groupEnd(s, b) : -1;
            if (g2 < 0) { i = e; continue; }
            const base = s.slice(b + 1, g2 - 1).trim();
            r = base === '=' ? '=' : base.startsWith('\\le') ? '<=' : base.startsWith('\\ge') ? '>=' : base === '<' ? '<' : base === '>' ? '>' : 'other';
            if (/def|:|\\triangle/.test(s.slice(a, g1))) r = 'other';
            justified = true;
            j = g2;
          } else if (name === 'not') {
            j = skipSpaces(s, e);
            j = s[j] === '\\' ? commandEnd(s, j + 1) : j + 1;
            r = s.slice(e, j).trim() === '=' ? '!=' : 'other';
          }
          flush(i);
          pieces.push({ kind: 'rel', rel: r, at: i, justified, printed: name === 'approx' });
          sawRel = true;
          exprStart = j; content = false; i = j; continue;
        }
        if (ANNOTATION_CMDS.has(name) || name === 'mathrm' && /^\{\s*(by|since|using|from)/.test(s.slice(e, e + 12))) {
          if (content || sawRel) {
            annotation = s.slice(i, end).trim();
            end = i;
            break;
          }
          // prose before the chain: "hence", "so" make what follows a consequence
          let j = e;
          const k = skipSpaces(s, j);
          if (s[k] === '{') { const g = groupEnd(s, k); if (g > 0) { if (IMPLICATION_WORDS.test(s.slice(k, g))) pieces.push({ kind: 'imp' }); j = g; } }
          exprStart = j; i = j; continue;
        }
      }
      i = e; content = true; continue;
    }
    if (depth === 0) {
      if (c === '=' || c === '<' || c === '>' || (c === ':' && s[i + 1] === '=') || (c === '!' && s[i + 1] === '=')) {
        let j = i + 1;
        let rel: Relation = c === '=' ? '=' : c === '<' ? '<' : c === '>' ? '>' : 'other';
        if (c === '!') { rel = '!='; j++; }
        if (c === ':') { rel = 'other'; j++; }
        if (c === '=' && s[j] === ':') { rel = 'other'; j++; }
        if ((c === '<' || c === '>') && s[j] === '=') { rel = c === '<' ? '<=' : '>='; j++; }
        flush(i);
        pieces.push({ kind: 'rel', rel, at: i, justified: false });
        sawRel = true;
        exprStart = j; content = false; i = j; continue;
      }
      // `37; 55` (sexagesimal) is one number, not a number and a remark
      if (c === ';' && /\d\s*$/.test(s.slice(Math.max(row.start, i - 3), i)) && /^\s*\d/.test(s.slice(i + 1, i + 4))) { content = true; i++; continue; }
      // `36,000,000`: a comma between digit groups is part of the number
      if (c === ',' && /\d$/.test(s.slice(row.start, i)) && /^\d{3}(?!\d)/.test(s.slice(i + 1, i + 5))) { content = true; i++; continue; }
      if (c === ',' || c === ';') {
        if (sawRel) { annotation = s.slice(i, end).trim(); end = i; break; }
        // a list before any relation (`a, b = 0`): not a chain start
        pieces.push({ kind: 'imp' });
        exprStart = i + 1; content = false; i++; continue;
      }
      if (c === '.' && !/[0-9]/.test(s[i + 1] ?? '') && s.slice(i + 1, end).trim() === '') { end = i; break; }
    }
    content = true;
    i++;
  }
  flush(Math.max(exprStart, end));
  return { pieces, annotation, mod };
}

const BINOP_START = /^\s*(\+|-|\\cdot\b|\\times\b|\\pm\b|\\mp\b|\/)/;
const BINOP_END = /(\+|-|\\cdot|\\times|\\pm|\\mp|\/)\s*$/;

function spansText(s: string, spans: Span[]): string {
  return spans.map((sp) => s.slice(sp.start, sp.end)).join(' ').replace(/\s+/g, ' ').trim();
}

function trimSpan(s: string, sp: Span): Span {
  let a = sp.start;
  let b = sp.end;
  while (a < b && /\s/.test(s[a])) a++;
  while (b > a && /\s/.test(s[b - 1])) b--;
  return { start: a, end: b };
}

/** Extracts the steps of one display-math block. */
export function extractSteps(block: MathBlockText): Step[] {
  const raw = block.text;
  const s = cleanBlock(raw);
  const chains: Chain[] = [];
  let cur: Chain | undefined;
  const newChain = (implied: boolean): Chain => {
    const c: Chain = { items: [], implied, annotations: new Map(), rowEnds: new Map() };
    chains.push(c);
    return c;
  };
  const starts = block.env && PAIRED_COLUMN_ENVS.has(block.env) ? columnStarts(raw, block.rows) : undefined;
  // the chain each column pair continues (`&= …` in the next row continues its own column)
  const byColumn: Array<Chain | undefined> = [];
  for (const row of block.rows) {
    for (const sub of subRows(s, row)) {
      // equations side by side: each column pair is a row of its own; a pair with no relation
      // (`&& \text{by (3)}`) annotates the equation before it
      const cuts = starts ? [...starts].filter((p) => p > sub.start && p < sub.end).sort((a, b) => a - b) : [];
      const segments = cuts.length ? [sub.start, ...cuts].map((a, k) => ({ start: a, end: k < cuts.length ? cuts[k] : sub.end })) : [sub];
      // the chain each column of this row ended in, and whether it began with its own left side
      const rowChain: Array<Chain | undefined> = [];
      const rowOwn: boolean[] = [];
      for (const [col, seg] of segments.entries()) {
        const scan = scanRow(s, seg);
        const head = scan.pieces[0];
        const leadsWithRel = head?.kind === 'expr' && s.slice(head.start, head.end).trim() === '' && scan.pieces[1]?.kind === 'rel';
        if (segments.length > 1 || byColumn.length > 1) cur = byColumn[col];
        // `t_1 &= t_0 + 1 &= 1`: a relation aligned in a later column continues the equation
        // this row began, not the one above it in that column (which may be another equation)
        if (col > 0 && leadsWithRel && rowChain[col - 1] && (rowOwn[col - 1] || !byColumn[col])) cur = rowChain[col - 1];
        if (col > 0 && !scan.pieces.some((p) => p.kind === 'rel')) {
          const prev = byColumn[col - 1];
          const note = s.slice(seg.start, seg.end).trim();
          if (prev && note) prev.annotations.set(prev.items.length - 1, `${prev.annotations.get(prev.items.length - 1) ?? ''} ${note}`.trim());
          continue;
        }
        let implied = false;
        let first = true;
        for (const p of scan.pieces) {
          if (p.kind === 'imp') {
            if (cur && cur.items.some((x) => x.kind === 'rel')) cur.premise = true;
            cur = undefined; implied = true; first = false; continue;
          }
          if (p.kind === 'expr') {
            const sp = trimSpan(s, p);
            const text = s.slice(sp.start, sp.end);
            const last = cur?.items[cur.items.length - 1];
            if (text === '') {
              if (first && last?.kind === 'expr') { first = false; continue; } // continuation row `&= …`
              if (!cur || last?.kind !== 'rel') cur = newChain(implied);
              first = false;
              continue;
            }
            // a row starting with `-` continues the expression above only right of an alignment
            // point (`& - c`); `-4 \cos a = 1` at the left edge is an equation of its own
            const startsBinop = BINOP_START.test(text) && (!/^\s*-/.test(text) || raw.slice(seg.start, sp.start).includes('&'));
            if (first && cur && last?.kind === 'expr' && (startsBinop || BINOP_END.test(spansText(s, last.spans)))) {
              last.spans.push(sp); // an expression broken over rows
            } else if (first && cur && last?.kind === 'rel') {
              cur.items.push({ kind: 'expr', spans: [sp] }); // `a = \\ b`
            } else if (cur && !first && last?.kind === 'rel') {
              cur.items.push({ kind: 'expr', spans: [sp] });
            } else {
              cur = newChain(implied);
              cur.ownRow = first;
              cur.items.push({ kind: 'expr', spans: [sp] });
            }
            first = false;
            continue;
          }
          // relation
          if (!cur) { cur = newChain(implied); }
          const last = cur.items[cur.items.length - 1];
          if (!last || last.kind !== 'expr') { cur = newChain(implied); cur.items.push({ kind: 'expr', spans: [] }); }
          cur.items.push({ kind: 'rel', rel: p.rel, at: p.at, justified: p.justified, printed: p.printed });
          if (scan.mod) cur.mod = scan.mod;
          first = false;
        }
        if (cur && scan.annotation) cur.annotations.set(cur.items.length - 1, scan.annotation);
        byColumn[col] = cur;
        rowChain[col] = cur;
        rowOwn[col] = !leadsWithRel && head?.kind === 'expr' && s.slice(head.start, head.end).trim() !== '';
      }
    }
  }
  const equations = equationRows(s, chains);
  const steps: Step[] = [];
  for (const c of chains) {
    let firstStep = true;
    let afterApprox = false;
    let upper = false;
    let lower = false;
    const bound = (): Step['bound'] => (upper && !lower ? 'upper' : lower && !upper ? 'lower' : undefined);
    const saw = (rel: Relation) => {
      afterApprox ||= rel === 'approx';
      upper ||= rel === '<' || rel === '<=';
      lower ||= rel === '>' || rel === '>=';
    };
    for (let k = 1; k + 1 < c.items.length; k += 2) {
      const l = c.items[k - 1];
      const r = c.items[k];
      const rr = c.items[k + 1];
      if (l.kind !== 'expr' || r.kind !== 'rel' || rr.kind !== 'expr') break;
      if (l.spans.length === 0 || rr.spans.length === 0) { firstStep = false; saw(r.rel); continue; }
      const lhs = side(s, l.spans);
      const rhs = side(s, rr.spans);
      steps.push({
        lhs, rhs, rel: r.rel, relAt: r.at, mod: r.rel === 'equiv' ? c.mod : undefined,
        annotation: c.annotations.get(k + 1) ?? '', implied: c.implied && firstStep, equation: !!c.premise || equations.has(c),
        ignored: ignoredAt(raw, r.at, rhs.end), justified: r.justified, printed: r.printed, afterApprox, ...(bound() && { bound: bound() }),
      });
      firstStep = false;
      saw(r.rel);
    }
  }
  return steps;
}

/** Letters and Greek names of a text, with commands and `\text{…}` left out: what rows share. */
export function identifiers(t: string): Set<string> {
  const out = new Set<string>();
  const re = /\\([A-Za-z]+)|([A-Za-z])/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) {
    if (m[1] !== undefined) { if (GREEK_NAMES.has(m[1])) out.add(m[1]); } else out.add(m[2]);
  }
  return out;
}

const GREEK_NAMES = new Set(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'varepsilon', 'zeta', 'eta', 'theta', 'vartheta', 'iota',
  'kappa', 'lambda', 'mu', 'nu', 'xi', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'varphi', 'chi', 'psi', 'omega', 'Gamma', 'Delta',
  'Theta', 'Lambda', 'Xi', 'Sigma', 'Phi', 'Psi', 'Omega']);

/**
 * Consecutive rows that are each one equation with its own left side (`l_1 = r_1 \\ l_2 = r_2`)
 * and share a variable are an equation being transformed (solved, substituted into), not a
 * chain of identities: none of their relations is checked as an identity.
 */
function equationRows(s: string, chains: Chain[]): Set<Chain> {
  const out = new Set<Chain>();
  const single = (c: Chain | undefined): c is Chain => !!c && !!c.ownRow && c.items.length === 3 && c.items[1].kind === 'rel' && c.items[1].rel === '=';
  const ids = (c: Chain): Set<string> => identifiers(c.items.map((x) => (x.kind === 'expr' ? spansText(s, x.spans) : '')).join(' '));
  for (let k = 0; k + 1 < chains.length; k++) {
    const a = chains[k];
    const b = chains[k + 1];
    if (!single(a) || !single(b)) continue;
    const ia = ids(a);
    const ib = ids(b);
    // shared variables, or a variable-free equation derived from one with variables
    // (`b + 1 = b \\ 1 = 0` in a proof by contradiction)
    if ([...ib].some((v) => ia.has(v)) || (ib.size === 0 && ia.size > 0)) { out.add(a); out.add(b); }
  }
  return out;
}

function side(s: string, spans: Span[]): Side {
  return { start: spans[0].start, end: spans[spans.length - 1].end, text: spansText(s, spans) };
}

/** Whether a `% mathsense-ignore-step` comment sits on a line of the step. */
function ignoredAt(raw: string, from: number, to: number): boolean {
  const a = raw.lastIndexOf('\n', from - 1) + 1;
  let b = raw.indexOf('\n', to);
  if (b < 0) b = raw.length;
  const seg = raw.slice(a, b);
  return seg.includes(IGNORE_MARK) && /%[^\n]*mathsense-ignore-step/.test(seg);
}
