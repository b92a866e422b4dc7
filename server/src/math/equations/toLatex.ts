// Expr → LaTeX, in a choice of styles (`\frac` or `/`, `\cdot` or juxtaposition, `\left(` or
// `(`, `e^{x}` or `\exp`), so the formula encoder sees the same expression written the ways
// people write it. The output is read back by the derivation checker's pipeline
// (`normalizeLatex`, `parseLatex`, `toExpr`) as an equivalent expression: brackets are
// placed wherever that parser would read something else (`\sin x \cdot y` is sin(xy) to it,
// `x\left(y+1\right)` a function application, a number after a factor unsupported).
// Constants: π is `\pi`, Euler's number `e^{…}` as a base and `\mathrm{e}` alone, the imaginary
// unit `i` (read back as the imaginary unit by `analyseEquation`, see notation.ts).
import type { Expr } from '../expr.js';

export interface LatexStyle {
  /** `\frac{a}{b}` or `a / b`. */
  frac: 'frac' | 'slash';
  /** `a \cdot b`, `a \times b`, or `a b` wherever juxtaposition reads unambiguously. */
  times: 'cdot' | 'times' | 'juxtapose';
  /** `\left( … \right)` or `( … )`. */
  leftRight: boolean;
  /** `e^{x}` or `\exp\left(x\right)`. */
  exp: 'power' | 'exp';
  /** Function arguments always in brackets, or bare when a single symbol (`\sin x`). */
  fnParens: 'always' | 'minimal';
}

export const DEFAULT_STYLE: LatexStyle = { frac: 'frac', times: 'cdot', leftRight: true, exp: 'power', fnParens: 'always' };

const GREEK = new Set(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'varepsilon', 'zeta', 'eta', 'theta', 'vartheta', 'iota', 'kappa',
  'lambda', 'mu', 'nu', 'xi', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'varphi', 'chi', 'psi', 'omega', 'Gamma', 'Delta', 'Theta',
  'Lambda', 'Xi', 'Sigma', 'Upsilon', 'Phi', 'Psi', 'Omega', 'ell']);

/** LaTeX of each unary function (`Expr` op name → command). */
export const FUNCTION_LATEX: Record<string, string> = {
  sin: '\\sin', cos: '\\cos', tan: '\\tan', cot: '\\cot', sec: '\\sec', csc: '\\csc',
  asin: '\\arcsin', acos: '\\arccos', atan: '\\arctan', acot: '\\operatorname{arccot}', asec: '\\operatorname{arcsec}', acsc: '\\operatorname{arccsc}',
  sinh: '\\sinh', cosh: '\\cosh', tanh: '\\tanh', coth: '\\coth', sech: '\\operatorname{sech}', csch: '\\operatorname{csch}',
  asinh: '\\operatorname{arsinh}', acosh: '\\operatorname{arcosh}', atanh: '\\operatorname{artanh}', acoth: '\\operatorname{arcoth}',
  asech: '\\operatorname{arsech}', acsch: '\\operatorname{arcsch}',
  ln: '\\ln', log: '\\log', log2: '\\log_{2}', log10: '\\log_{10}', exp: '\\exp', sign: '\\operatorname{sgn}',
};

const TRIG_POWERABLE = new Set(['sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'sinh', 'cosh', 'tanh', 'coth', 'sech', 'csch']);

/** Binding strength: a sub-expression weaker than its slot needs brackets. */
const SUM = 1;
const NEG = 2;
const PROD = 3;
const POW = 4;
const ATOM = 5;

interface Printed {
  s: string;
  prec: number;
  /** Starts with a minus sign (`-3`, `-x`). */
  minus?: boolean;
  /** Starts with a digit. */
  digit?: boolean;
  /** Ends with a number (`2`, `-3`, `x \cdot 25`). */
  endsNumber?: boolean;
  /** Starts with `\frac`: a number before it reads as a mixed number. */
  frac?: boolean;
  /** Ends with `… / b`: a factor after it would join the denominator. */
  endsSlash?: boolean;
  /** Starts with a bracket. */
  paren?: boolean;
  /** Ends with a bare function argument or a derivative operand: nothing may be juxtaposed after it. */
  open?: boolean;
}

/** A number without exponent notation (`6.705522537231445e-8` → `0.00000006705522537231445`). */
export function plainNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return Math.abs(v) < 1e21 ? v.toFixed(0) : BigInt(v).toString();
  const s = String(v);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = m[2] + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp < 0) return `${m[1]}0.${'0'.repeat(-exp - 1)}${digits}`;
  const point = 1 + exp;
  return m[1] + (digits.length <= point ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`);
}

/** LaTeX of a variable name as the checker's parser writes it (`theta`, `x_1`, `x_alpha`, `x_{"n"}`). */
export function variableLatex(name: string): string {
  if (/^[A-Za-z]$/.test(name)) return name;
  if (GREEK.has(name)) return `\\${name}`;
  const m = /^([A-Za-z]+)_(.+)$/.exec(name);
  if (m && (m[1].length === 1 || GREEK.has(m[1]))) {
    let sub = m[2];
    if (sub.startsWith('{') && sub.endsWith('}')) {
      try {
        const j: unknown = JSON.parse(sub.slice(1, -1));
        sub = typeof j === 'number' ? plainNumber(j) : typeof j === 'string' ? j : sub.slice(1, -1).replace(/"/g, '');
      } catch { sub = sub.slice(1, -1).replace(/"/g, ''); }
    }
    return `${variableLatex(m[1])}_{${GREEK.has(sub) ? `\\${sub}` : sub}}`;
  }
  return `\\mathit{${name}}`;
}

class Printer {
  constructor(private readonly st: LatexStyle) {}

  private paren(s: string): string {
    return this.st.leftRight ? `\\left(${s}\\right)` : `(${s})`;
  }

  private wrap(p: Printed, min: number, noMinus = false): string {
    return p.prec < min || (noMinus && p.minus) ? this.paren(p.s) : p.s;
  }

  /** A function argument in brackets, or bare when it is one symbol and nothing follows. */
  private arg(a: Expr, closed: boolean): { s: string; open: boolean } {
    const p = this.print(a);
    const bare = this.st.fnParens === 'minimal' && !closed && (a.k === 'var' || (a.k === 'num' && a.v >= 0 && Number.isInteger(a.v)));
    return bare ? { s: ` ${p.s}`, open: true } : { s: this.paren(p.s), open: false };
  }

  /** `closed`: something is written right after this expression (a factor, `!`, `/ b`). */
  print(e: Expr, closed = false): Printed {
    switch (e.k) {
      case 'num': return this.num(e.v);
      case 'var': return { s: variableLatex(e.name), prec: ATOM };
      case 'D': return { s: `\\frac{d}{d${variableLatex(e.v)}}${this.paren(this.print(e.body).s)}`, prec: PROD, open: true };
      case 'sum': case 'prod': {
        const body = this.print(e.body);
        const b = body.prec >= POW && !body.minus ? ` ${body.s}` : this.paren(body.s);
        return { s: `\\${e.k}_{${variableLatex(e.v)}=${this.print(e.lo).s}}^{${this.print(e.hi).s}}${b}`, prec: PROD, open: true };
      }
      case 'op': return this.op(e.op, e.args, closed);
    }
  }

  private num(v: number): Printed {
    if (v === Math.PI) return { s: '\\pi', prec: ATOM };
    if (v === Math.E) return { s: '\\mathrm{e}', prec: ATOM };
    if (v === Infinity) return { s: '\\infty', prec: ATOM };
    if (v < 0) return { s: `-${plainNumber(-v)}`, prec: NEG, minus: true, endsNumber: true };
    return { s: plainNumber(v), prec: ATOM, digit: true, endsNumber: true };
  }

  private op(o: string, args: Expr[], closed: boolean): Printed {
    if (args.length === 0 && o === 'i') return { s: 'i', prec: ATOM };
    const a = args[0];
    switch (o) {
      case 'add': return this.add(args);
      case 'sub': {
        const l = this.print(a);
        const r = this.print(args[1], closed);
        return { s: `${l.s} - ${this.wrap(r, NEG + 1, true)}`, prec: SUM, minus: l.minus, digit: l.digit, paren: l.paren };
      }
      case 'neg': {
        const p = this.print(a, closed);
        // `-\operatorname{arccot}(x)` reads as an application of -arccot: bracket it
        const s = p.s.startsWith('\\operatorname') ? this.paren(p.s) : this.wrap(p, NEG + 1, true);
        return { s: `-${s}`, prec: NEG, minus: true, open: p.open && s === p.s, endsSlash: p.endsSlash && s === p.s };
      }
      case 'mul': return this.mul(args, closed);
      case 'div': {
        if (this.st.frac === 'frac') return { s: `\\frac{${this.print(a).s}}{${this.print(args[1]).s}}`, prec: ATOM, frac: true };
        const n = this.print(a, true);
        const d = this.print(args[1], closed);
        // `/ \operatorname{arccot}(x)` is a juxtaposition in the denominator to the parser: ambiguous
        const den = d.s.startsWith('\\operatorname') ? this.paren(d.s) : this.wrap(d, POW, true);
        return { s: `${this.wrap(n, POW, true)} / ${den}`, prec: PROD, digit: n.prec >= POW && n.digit, paren: n.prec < POW || n.paren, endsSlash: true };
      }
      case 'pow': return this.pow(a, args[1], closed);
      case 'sq': return this.pow(a, { k: 'num', v: 2 }, closed);
      case 'exp':
        if (this.st.exp === 'power') return { s: `e^{${this.print(a).s}}`, prec: POW };
        return this.fn('\\exp', a, closed);
      case 'sqrt': return { s: `\\sqrt{${this.print(a).s}}`, prec: ATOM };
      case 'root': return { s: `\\sqrt[${this.print(args[1]).s}]{${this.print(a).s}}`, prec: ATOM };
      case 'logb': return this.fn(`\\log_{${this.print(args[1]).s}}`, a, closed);
      // always `\left|`: `||x||` would read as a norm
      case 'abs': return { s: `\\left|${this.print(a).s}\\right|`, prec: ATOM };
      case 'floor': return { s: `\\left\\lfloor ${this.print(a).s}\\right\\rfloor`, prec: ATOM };
      case 'ceil': return { s: `\\left\\lceil ${this.print(a).s}\\right\\rceil`, prec: ATOM };
      case 'fact': return { s: `${this.wrap(this.print(a, true), ATOM, true)}!`, prec: POW };
      case 'binom': return { s: `\\binom{${this.print(a).s}}{${this.print(args[1]).s}}`, prec: ATOM };
      case 'max': case 'min': case 'gcd': case 'lcm': {
        const name = o === 'lcm' ? '\\operatorname{lcm}' : `\\${o}`;
        return { s: `${name}${this.paren(args.map((x) => this.print(x).s).join(', '))}`, prec: ATOM };
      }
      case 'mod': return { s: `${this.wrap(this.print(a, true), POW, true)} \\bmod ${this.wrap(this.print(args[1], closed), POW, true)}`, prec: PROD };
      default: {
        const f = FUNCTION_LATEX[o];
        if (f && args.length === 1) return this.fn(f, a, closed);
        // an op this printer does not know: written as a named function, so it is never mistaken for another
        return { s: `\\operatorname{${o}}${this.paren(args.map((x) => this.print(x).s).join(', '))}`, prec: ATOM };
      }
    }
  }

  private fn(name: string, a: Expr, closed: boolean): Printed {
    const r = this.arg(a, closed);
    return { s: `${name}${r.s}`, prec: r.open ? PROD : ATOM, open: r.open };
  }

  private add(args: Expr[]): Printed {
    let s = '';
    let first: Printed | undefined;
    args.forEach((t, k) => {
      if (k === 0) { first = this.print(t); s = first.s; return; }
      // `x + (-y)`, `x + (-3)`, `x + (-2) y` are written `x - y`, `x - 3`, `x - 2 y`
      if (t.k === 'op' && t.op === 'neg') { s += ` - ${this.wrap(this.print(t.args[0]), NEG + 1, true)}`; return; }
      if (t.k === 'num' && t.v < 0) { s += ` - ${this.num(-t.v).s}`; return; }
      if (t.k === 'op' && t.op === 'mul' && t.args[0].k === 'num' && t.args[0].v < 0) {
        const c = -t.args[0].v;
        const rest = c === 1 ? t.args.slice(1) : [{ k: 'num', v: c } as Expr, ...t.args.slice(1)];
        s += ` - ${this.wrap(rest.length === 1 ? this.print(rest[0]) : this.mul(rest, false), NEG + 1, true)}`;
        return;
      }
      s += ` + ${this.wrap(this.print(t), SUM, true)}`;
    });
    return { s, prec: args.length > 1 ? SUM : first?.prec ?? ATOM, minus: first?.minus, digit: first?.digit, paren: first?.paren };
  }

  private mul(args: Expr[], closed: boolean): Printed {
    let s = '';
    let prev: Printed | undefined;
    let head: Printed | undefined;
    args.forEach((f, k) => {
      const last = k === args.length - 1;
      const p = this.print(f, !last || closed);
      // the first factor may carry the sign (`-3 x`); later ones are bracketed
      const needsParen = (p.prec < PROD && !(k === 0 && p.prec === NEG)) || (k > 0 && p.minus) || (!!p.endsSlash && !last);
      const text = needsParen ? this.paren(p.s) : p.s;
      const cur: Printed = needsParen ? { s: text, prec: ATOM, paren: true } : p;
      if (k === 0) { s = text; head = cur; } else s += this.separator(prev!, cur) + text;
      prev = cur;
    });
    return { s, prec: head?.minus ? NEG : PROD, minus: head?.minus, digit: head?.digit, paren: head?.paren, frac: head?.frac, endsNumber: prev?.endsNumber, endsSlash: prev?.endsSlash, open: prev?.open };
  }

  private separator(prev: Printed, next: Printed): string {
    if (this.st.times === 'times') return ' \\times ';
    if (this.st.times === 'cdot') return ' \\cdot ';
    // juxtapose only where the parser reads a product: not after a bare argument, not before a
    // number, not `x (…)` (a function application to it), not `2 \frac{…}{…}` (a mixed number)
    const ok = !prev.open && !next.digit && !next.minus && (!next.paren || (prev.digit && prev.prec === ATOM)) && !(prev.endsNumber && next.frac);
    return ok ? ' ' : ' \\cdot ';
  }

  private pow(base: Expr, exp: Expr, closed: boolean): Printed {
    const e = this.print(exp).s;
    if (base.k === 'num' && base.v === Math.E) return { s: `e^{${e}}`, prec: POW };
    // `\sin^{2}\left(x\right)`: the usual way to write a power of a trigonometric function
    if (base.k === 'op' && TRIG_POWERABLE.has(base.op) && base.args.length === 1 && exp.k === 'num' && Number.isInteger(exp.v) && exp.v > 0) {
      const r = this.arg(base.args[0], closed);
      return { s: `${FUNCTION_LATEX[base.op]}^{${e}}${r.s}`, prec: r.open ? PROD : ATOM, open: r.open };
    }
    const b = this.print(base, true);
    const simple = (base.k === 'var' || (base.k === 'num' && base.v >= 0) || (base.k === 'op' && base.args.length === 0)) && !b.minus;
    return { s: `${simple ? b.s : this.paren(b.s)}^{${e}}`, prec: POW, digit: simple && b.digit, paren: !simple };
  }
}

/** LaTeX of an expression in the given style (defaults: `\frac`, `\cdot`, `\left(`, `e^{x}`, bracketed arguments). */
export function toLatex(e: Expr, style: Partial<LatexStyle> = {}): string {
  return new Printer({ ...DEFAULT_STYLE, ...style }).print(e).s;
}
