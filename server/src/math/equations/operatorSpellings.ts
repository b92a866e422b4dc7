// One spelling for operators written several ways, applied to canonical tokens (after
// `clean`, before renaming), so the formula encoder and the structural features read
// `\exp(x)` and `e^{x}` alike:
// * probability: `\Pr`, `\mathbb{P}`, `\mathbf{P}`, `\operatorname{P}`, `\mathrm{Pr}`, … and a
//   plain `P` applied to an event (`P(X > t)`, `P[A \mid B]`) → `\Pr`;
// * expectation: `\mathbb{E}`, `\operatorname{E}`, `\mathrm{E}`, `\mathbf{E}`, … and a plain `E`
//   before `[` or applied to a capital letter (`E(X)`) → `\mathbb{E}`;
// * `\exp(…)`, `\exp{…}`, `\exp x` → `e^{…}`;
// * a series over all integers from a start: `\sum_{k \geq 1}`, `\sum_{k > 0}` → `\sum_{k = 1}^{\infty}`
//   (the same for `\prod`);
// * a negative power of an atom or a bracketed group: `k^{-2}` → `\frac{1}{k^{2}}`, and `1/k^{2}` →
//   `\frac{1}{k^{2}}`.
import type { MathToken } from './mathLexer.js';

const PROB_NAMES = new Set(['{P}', '{Pr}', '{\\Pr}']);
const EXP_NAMES = new Set(['{E}', '{\\mathbb{E}}']);
const FONTS = new Set(['\\mathbb', '\\mathbf', '\\mathrm', '\\operatorname', '\\mathsf', '\\mathbbm', '\\mathcal', '\\mathscr', '\\boldsymbol']);
const EVENT = new Set(['=', '<', '>', '|', '\\leq', '\\geq', '\\neq', '\\in', '\\notin', '\\mid', '\\cap', '\\cup', '\\subset', '\\subseteq']);

const PR: MathToken = { type: 'cmd', text: '\\Pr' };
const EXPECT: MathToken[] = [{ type: 'cmd', text: '\\mathbb' }, { type: 'raw', text: '{E}' }];
const open = (): MathToken => ({ type: 'open', text: '{' });
const close = (): MathToken => ({ type: 'close', text: '}' });

/** Index after the bracket group opened at k (`(`, `[` or `\{` sym, or `{` open), or -1. */
function bracketEnd(t: readonly MathToken[], k: number): number {
  const o = t[k]?.text;
  const pairs: Record<string, string> = { '(': ')', '[': ']', '\\{': '\\}', '{': '}' };
  const c = o === undefined ? undefined : pairs[o];
  if (!c) return -1;
  let depth = 0;
  for (let j = k; j < t.length; j++) {
    if (t[j].text === o) depth++;
    else if (t[j].text === c && --depth === 0) return j + 1;
  }
  return -1;
}

function containsEvent(t: readonly MathToken[], from: number, to: number): boolean {
  for (let j = from; j < to; j++) if (EVENT.has(t[j].text)) return true;
  return false;
}

/** Start of the atom or bracket group that ends just before `end` (exclusive), or -1. */
function atomStart(t: readonly MathToken[], end: number): number {
  const last = t[end - 1];
  if (!last) return -1;
  if (last.type === 'letter' || last.type === 'number') return end - 1;
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  const o = pairs[last.text];
  if (!o) return -1;
  let depth = 0;
  for (let j = end - 1; j >= 0; j--) {
    if (t[j].text === last.text) depth++;
    else if (t[j].text === o && --depth === 0) {
      // a group that is a command's argument (`\frac{a}{b}`, `x_{i}`) is not an atom
      const before = t[j - 1];
      if (o === '{' && before && (before.type === 'cmd' || before.text === '_' || before.text === '^' || before.type === 'close')) return -1;
      return j;
    }
  }
  return -1;
}

/** The tokens with one spelling per operator (see the module comment). */
export function unifyOperators(tokens: readonly MathToken[]): MathToken[] {
  let t = [...tokens];
  const out: MathToken[] = [];
  for (let k = 0; k < t.length; k++) {
    const x = t[k];
    const next = t[k + 1];
    // font-wrapped P and E
    if (x.type === 'cmd' && FONTS.has(x.text) && next?.type === 'raw') {
      if (PROB_NAMES.has(next.text)) { out.push(PR); k++; continue; }
      if (EXP_NAMES.has(next.text)) { out.push(...EXPECT); k++; continue; }
    }
    // a plain P applied to an event, a plain E to a random variable
    if (x.type === 'letter' && (x.text === 'P' || x.text === 'E') && next && (next.text === '(' || next.text === '[' || next.text === '\\{')) {
      const end = bracketEnd(t, k + 1);
      if (end > 0) {
        if (x.text === 'P' && containsEvent(t, k + 2, end - 1)) { out.push(PR); continue; }
        if (x.text === 'E' && (next.text === '[' || (t[k + 2]?.type === 'letter' && /^[A-Z]$/.test(t[k + 2].text)))) { out.push(...EXPECT); continue; }
      }
    }
    if (x.type === 'cmd' && x.text === '\\exp' && next) {
      // `\exp(x)`: the argument in braces as a power of e
      const end = bracketEnd(t, k + 1);
      if (end > 0) {
        out.push({ type: 'letter', text: 'e' }, { type: 'sym', text: '^' }, open(), ...t.slice(k + 2, end - 1), close());
        k = end - 1;
        continue;
      }
      if (next.type === 'letter' || next.type === 'number') {
        out.push({ type: 'letter', text: 'e' }, { type: 'sym', text: '^' }, open(), next, close());
        k++;
        continue;
      }
    }
    out.push(x);
  }
  t = out;
  // `\mathbb{E}(X)` and `\mathbb{E}[X]`: one bracket
  for (let k = 1; k + 1 < t.length; k++) {
    if (t[k].type !== 'raw' || t[k].text !== '{E}' || t[k - 1].text !== '\\mathbb' || t[k + 1].text !== '(') continue;
    const end = bracketEnd(t, k + 1);
    if (end > 0) { t[k + 1] = { type: 'sym', text: '[' }; t[end - 1] = { type: 'sym', text: ']' }; }
  }
  return negativePowers(series(t));
}

/** `\sum_{k \geq 1}` / `\sum_{k > 0}` with no upper bound → `\sum_{k = 1}^{\infty}`. */
function series(t: MathToken[]): MathToken[] {
  const out: MathToken[] = [];
  for (let k = 0; k < t.length; k++) {
    const x = t[k];
    out.push(x);
    if (x.type !== 'cmd' || (x.text !== '\\sum' && x.text !== '\\prod')) continue;
    // _ { v rel n } not followed by ^
    const [u, o, v, rel, n, c, after] = t.slice(k + 1, k + 8);
    if (u?.text !== '_' || o?.type !== 'open' || v?.type !== 'letter' || n?.type !== 'number' || c?.type !== 'close' || after?.text === '^') continue;
    let from: number | undefined;
    if (rel.text === '\\geq') from = Number(n.text);
    else if (rel.text === '>') from = Number(n.text) + 1;
    if (from === undefined || !Number.isInteger(from)) continue;
    out.push(u, o, v, { type: 'sym', text: '=' }, { type: 'number', text: String(from) }, c, { type: 'sym', text: '^' }, open(), { type: 'cmd', text: '\\infty' }, close());
    k += 6;
  }
  return out;
}

/** `a^{-n}` → `\frac{1}{a^{n}}`; `1 / a^{n}` → `\frac{1}{a^{n}}` (a an atom or a bracket group). */
function negativePowers(t: MathToken[]): MathToken[] {
  const out: MathToken[] = [];
  for (let k = 0; k < t.length; k++) {
    const x = t[k];
    // ^ { - n }
    if (x.text === '^' && t[k + 1]?.type === 'open' && t[k + 2]?.text === '-' && (t[k + 3]?.type === 'number' || t[k + 3]?.type === 'letter') && t[k + 4]?.type === 'close') {
      const s = atomStart(out, out.length);
      if (s >= 0 && !(out[s - 1]?.text === '^' || out[s - 1]?.text === '_')) {
        const base = out.splice(s);
        const power = t[k + 3].text === '1' ? [] : [{ type: 'sym', text: '^' } as MathToken, open(), t[k + 3], close()];
        out.push({ type: 'cmd', text: '\\frac' }, open(), { type: 'number', text: '1' }, close(), open(), ...base, ...power, close());
        k += 4;
        continue;
      }
    }
    out.push(x);
  }
  // 1 / atom^{n}
  const res: MathToken[] = [];
  for (let k = 0; k < out.length; k++) {
    const x = out[k];
    if (x.type === 'number' && x.text === '1' && out[k + 1]?.text === '/' && !(res.length && ['^', '_', '/'].includes(res[res.length - 1].text)) && res[res.length - 1]?.type !== 'letter' && res[res.length - 1]?.type !== 'number') {
      // the denominator: an atom or group, with an optional power
      let e = k + 2;
      const first = out[e];
      if (!first) { res.push(x); continue; }
      if (first.type === 'letter' || first.type === 'number') e++;
      else if (first.text === '(' || first.type === 'open') { const b = bracketEnd(out, e); if (b < 0) { res.push(x); continue; } e = b; }
      else { res.push(x); continue; }
      if (out[e]?.text === '^') { e++; if (out[e]?.type === 'open') { const b = bracketEnd(out, e); if (b < 0) { res.push(x); continue; } e = b; } else e++; }
      res.push({ type: 'cmd', text: '\\frac' }, open(), x, close(), open(), ...out.slice(k + 2, e), close());
      k = e - 1;
      continue;
    }
    res.push(x);
  }
  return res;
}
