// LaTeX → Expr: the compute engine's standalone LaTeX parser (non-canonical MathJSON, so
// juxtaposition and parentheses are still visible), then a strict conversion that accepts
// only what can be evaluated as real numbers. Notation decisions that avoid false alarms:
// * `f(x)` is a function application (unsupported) unless `f` also occurs on its own in the
//   step, as in `x(x+1)`;
// * `e` is Euler's number only when some power in the step has base `e` (otherwise it is
//   usually an identity element or an index);
// * `\sin^{-1}` is ambiguous (inverse or reciprocal) and `1/2x` is ambiguous: unsupported;
// * variables in factorials, binomials, sum bounds, subscripts and exponents named like
//   indices (n, k, …) are integers.
import { LatexSyntax } from '@cortex-js/compute-engine/latex-syntax';
import { type Expr, type VarRole, Unsupported, freeVars, num, op } from './expr.js';

type Json = unknown;

let syntax: LatexSyntax | undefined;

/** LaTeX → non-canonical MathJSON; null when the parser gives up. */
export function parseLatex(latex: string): Json | null {
  syntax ??= new LatexSyntax();
  try {
    return syntax.parse(latex, {}) as Json;
  } catch {
    return null;
  }
}

const GREEK = 'alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|xi|rho|sigma|tau|upsilon|phi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Sigma|Upsilon|Phi|Psi|Omega';
const VAR_NAME = new RegExp(`^([A-Za-z]|${GREEK})(_[A-Za-z0-9]+)?$`);
/** Styled letters (\\mathcal, \\mathfrak, \\mathbf, …) name objects, not numbers. */
const STYLED = /_(calligraphic|fraktur|bold|upright|script|blackboard|double|italic|sans|mono|bold_italic|tt)/;
const INDEX_NAMES = /^[nmkijlpqrNMK](_.*)?$/;
/** Letters that conventionally name functions. */
const FUNCTION_LETTERS = /^[fghFGH](_.*)?$/;

const UNARY: Record<string, string> = {
  Sin: 'sin', Cos: 'cos', Tan: 'tan', Cot: 'cot', Sec: 'sec', Csc: 'csc',
  Arcsin: 'asin', Arccos: 'acos', Arctan: 'atan', Arccot: 'acot', Arcsec: 'asec', Arccsc: 'acsc',
  Sinh: 'sinh', Cosh: 'cosh', Tanh: 'tanh', Coth: 'coth', Sech: 'sech', Csch: 'csch',
  Arsinh: 'asinh', Arcosh: 'acosh', Artanh: 'atanh', Arcoth: 'acoth', Arsech: 'asech', Arcsch: 'acsch',
  Exp: 'exp', Ln: 'ln', Lb: 'log2', Sqrt: 'sqrt', Abs: 'abs', Floor: 'floor', Ceil: 'ceil',
  Factorial: 'fact', Sign: 'sign', Square: 'sq',
};
/** Function names the LaTeX parser leaves as plain symbols (`\operatorname{arccot}`). */
const FUNCTION_SYMBOLS: Record<string, string> = { arccot: 'acot', arcctg: 'acot', arctg: 'atan', tg: 'tan', ctg: 'cot', cosec: 'csc', arccosec: 'acsc' };
const TRIG = new Set(['Sin', 'Cos', 'Tan', 'Cot', 'Sec', 'Csc', 'Sinh', 'Cosh', 'Tanh', 'Coth', 'Sech', 'Csch']);
const INT_ARGS = new Set(['Factorial', 'Binomial', 'GCD', 'LCM', 'Mod', 'Floor', 'Ceil']);

export interface ParseContext {
  /** Symbols that occur other than directly before a parenthesis. */
  standalone: Set<string>;
  /** Some power in the step has base `e`. */
  eIsEuler: boolean;
  roles: Map<string, VarRole>;
  /** `\log` without a base occurs: the checker also tries bases 10 and 2. */
  logAmbiguous: boolean;
  /** The source text has `/`: `a/bc` is ambiguous. */
  slash: boolean;
  /** Named constants the text fixes (`\\phi` = the golden mean when the text says so). */
  constants: ReadonlyMap<string, number>;
  /** The reading where index-like letters (n, k, m, …) are integers everywhere. */
  intIndices: boolean;
}

/** The symbol a juxtaposed term starts from: `f`, `-f`, `f^{-1}`, `f_i` all apply `f` to `(…)`. */
function headSymbol(j: Json): string | undefined {
  if (typeof j === 'string') return j;
  if (Array.isArray(j) && (j[0] === 'Negate' || j[0] === 'Power' || j[0] === 'Subscript')) return headSymbol(j[1]);
  return undefined;
}

/** `(x)`, `(x_1)`: a parenthesised single symbol after a term reads as an argument. */
function simpleDelimiter(j: Json): boolean {
  return isDelimiter(j) && j.length === 2 && (typeof j[1] === 'string' || (Array.isArray(j[1]) && j[1][0] === 'Subscript'));
}

/**
 * Parses the sides of one step or equation together: one context, so notation (`f(x)` as a
 * product, `e` as Euler's number, integer indices) is decided across all sides. A string says
 * why they cannot be read as real expressions.
 */
export function parseSides(texts: readonly string[], constants?: ReadonlyMap<string, number>, intIndices = false): { sides: Expr[]; ctx: ParseContext } | string {
  const jsons = texts.map((t) => parseLatex(t));
  if (jsons.some((j) => j === null || JSON.stringify(j).includes('"Error"'))) return 'cannot parse';
  const ctx = newContext(jsons, texts.some((t) => t.includes('/')), constants, intIndices);
  try {
    return { sides: jsons.map((j) => toExpr(j, ctx)), ctx };
  } catch (e) {
    if (e instanceof Unsupported) return e.message;
    throw e;
  }
}

export function newContext(jsons: Json[], slash: boolean, constants: ReadonlyMap<string, number> = new Map(), intIndices = false): ParseContext {
  const ctx: ParseContext = { standalone: new Set(), eIsEuler: false, roles: new Map(), logAmbiguous: false, slash, constants, intIndices };
  const visit = (j: Json, applied = false): void => {
    if (typeof j === 'string') { if (!applied) ctx.standalone.add(j); return; }
    if (!Array.isArray(j)) return;
    if (j[0] === 'Power' && j[1] === 'e') ctx.eIsEuler = true;
    for (let i = 1; i < j.length; i++) {
      const a = j[i];
      const next = j[i + 1];
      const app = j[0] === 'InvisibleOperator' && isDelimiter(next) && headSymbol(a) !== undefined;
      // the head of an application is not a standalone occurrence (`f^{-1}(x)`: f is applied)
      visit(a, (applied && i === 1 && ['Negate', 'Power', 'Subscript'].includes(j[0] as string)) || app);
    }
  };
  for (const j of jsons) visit(j);
  return ctx;
}

function isDelimiter(j: Json): j is unknown[] {
  return Array.isArray(j) && j[0] === 'Delimiter';
}

function setRole(ctx: ParseContext, name: string, role: VarRole): void {
  if (role === 'int' || !ctx.roles.has(name)) ctx.roles.set(name, role);
}

/** MathJSON → Expr; throws Unsupported with a reason. `role` is how enclosing operators use a variable. */
export function toExpr(j: Json, ctx: ParseContext, inExponent = false, intArg = false): Expr {
  if (typeof j === 'number') return num(j);
  if (typeof j === 'string') return symbol(j, ctx, inExponent, intArg);
  if (!Array.isArray(j)) {
    const o = j as { num?: string; sym?: string; fn?: Json };
    if (o && typeof o.num === 'string') {
      if (/[()]/.test(o.num)) throw new Unsupported('repeating decimal');
      const v = Number(o.num);
      if (!Number.isFinite(v)) throw new Unsupported(`number ${o.num}`);
      return num(v);
    }
    if (o && typeof o.sym === 'string') return symbol(o.sym, ctx, inExponent, intArg);
    if (o && o.fn !== undefined) return toExpr(o.fn, ctx, inExponent, intArg);
    throw new Unsupported('unknown node');
  }
  const head = j[0];
  const args = j.slice(1);
  const sub = (a: Json, exp = inExponent, int = intArg): Expr => toExpr(a, ctx, exp, int);
  const arity = (n: number): void => { if (args.length !== n) throw new Unsupported(`${String(head)} with ${args.length} arguments`); };
  switch (head) {
    case 'Add': return op('add', ...args.map((a) => sub(a)));
    case 'Subtract': arity(2); return op('sub', sub(args[0]), sub(args[1]));
    case 'Negate': arity(1); return op('neg', sub(args[0]));
    case 'Multiply': return op('mul', ...args.map((a) => sub(a)));
    case 'Divide': {
      arity(2);
      if (ctx.slash && Array.isArray(args[1]) && args[1][0] === 'InvisibleOperator') throw new Unsupported('ambiguous a/bc');
      return op('div', sub(args[0]), sub(args[1]));
    }
    case 'Rational': arity(2); return op('div', sub(args[0]), sub(args[1]));
    case 'Power': {
      arity(2);
      if (Array.isArray(args[0]) && TRIG.has(args[0][0] as string)) {
        const e = args[1];
        if (e === -1 || (Array.isArray(e) && e[0] === 'Negate' && e[1] === 1)) throw new Unsupported('ambiguous \\sin^{-1}');
      }
      // superscripts that are indices, not powers: F^0, T^{(n)}
      if (args[1] === 0) throw new Unsupported('superscript 0 (an index)');
      if (isDelimiter(args[1])) throw new Unsupported('superscript in parentheses (an index)');
      if (args[0] === 'e' && ctx.eIsEuler) return op('exp', sub(args[1], true));
      return op('pow', sub(args[0]), sub(args[1], true));
    }
    case 'Sqrt': arity(1); return op('sqrt', sub(args[0]));
    case 'Root': arity(2); return op('root', sub(args[0]), sub(args[1], inExponent, true));
    case 'Lg': arity(1); ctx.logAmbiguous = true; return op('log', sub(args[0])); // \\lg: base 10 or 2 by author
    case 'Log': {
      if (args.length === 1) { ctx.logAmbiguous = true; return op('log', sub(args[0])); }
      arity(2);
      return op('logb', sub(args[0]), sub(args[1]));
    }
    case 'Delimiter': {
      if (args.length !== 1 && !(args.length === 2 && isParenStyle(args[1]))) throw new Unsupported('delimiter');
      const inner = args[0];
      if (Array.isArray(inner) && inner[0] === 'Sequence') {
        if (inner.length !== 2) throw new Unsupported('tuple');
        return sub(inner[1]);
      }
      return sub(inner);
    }
    case 'InvisibleOperator': {
      const parts: Expr[] = [];
      for (let i = 0; i < args.length; i++) {
        const a = args[i];
        if (typeof a === 'string' && FUNCTION_SYMBOLS[a] && i + 1 < args.length) {
          parts.push(op(FUNCTION_SYMBOLS[a], sub(args[i + 1])));
          i++;
          continue;
        }
        const head = headSymbol(a);
        // `f(…)`, `g(-x)`: the letters that name functions are applied, even where they also stand
        // alone (`(f \\cdot g)(-x) = f(-x) g(-x)`)
        if (head !== undefined && isDelimiter(args[i + 1]) && (!ctx.standalone.has(head) || simpleDelimiter(args[i + 1]) || FUNCTION_LETTERS.test(head))) throw new Unsupported(`function ${head}(…)`);
        if (isDelimiter(a) && simpleDelimiter(args[i + 1])) throw new Unsupported('(…)(x) application');
        if (typeof a === 'number' && typeof args[i + 1] === 'number') throw new Unsupported('juxtaposed numbers');
        // `\\paren {10 + 10} 2`, `x 2`: a number written after a factor is not how products are written
        if (i > 0 && isNumber(a)) throw new Unsupported('a number juxtaposed after a factor');
        if (typeof a === 'number' && Array.isArray(args[i + 1]) && (args[i + 1] as unknown[])[0] === 'Divide' && i === 0) throw new Unsupported('mixed number');
        parts.push(sub(a));
      }
      return parts.length === 1 ? parts[0] : op('mul', ...parts);
    }
    case 'Binomial': arity(2); return op('binom', sub(args[0], inExponent, true), sub(args[1], inExponent, true));
    case 'Max': case 'Min': if (args.length < 1) throw new Unsupported('empty max'); return op(head.toLowerCase(), ...args.map((a) => sub(a)));
    case 'GCD': case 'LCM': case 'Mod': arity(2); return op(head.toLowerCase(), sub(args[0], inExponent, true), sub(args[1], inExponent, true));
    case 'D': {
      arity(2);
      if (typeof args[1] !== 'string' || !VAR_NAME.test(args[1])) throw new Unsupported('derivative variable');
      setRole(ctx, args[1], 'real');
      return { k: 'D', body: sub(args[0]), v: args[1] };
    }
    case 'Sum': case 'Product': {
      arity(2);
      const t = args[1];
      if (!Array.isArray(t) || t[0] !== 'Tuple' || t.length !== 4 || typeof t[1] !== 'string') throw new Unsupported('sum without bounds');
      const v = t[1];
      const body = sub(args[0]);
      // `\\sum_i a_i`: the index inside a subscripted name is not visible to evaluation
      for (const name of freeVars(body)) if (name.includes('_') && name.slice(name.indexOf('_')).includes(v)) throw new Unsupported('indexed terms in a sum');
      // `\\sum_{n=1}^{\\infty}`: a series, summed as far as it converges fast (evaluate.ts#Evaluator.series)
      const hi = head === 'Sum' && t[3] === 'PositiveInfinity' ? num(Infinity) : sub(t[3], false, true);
      return { k: head === 'Sum' ? 'sum' : 'prod', v, body, lo: sub(t[2], false, true), hi };
    }
    case 'Subscript': {
      arity(2);
      if (typeof args[0] !== 'string' || !VAR_NAME.test(args[0])) throw new Unsupported('subscript');
      const s = JSON.stringify(args[1]);
      if (s.length > 40 || /Error|Sequence/.test(s)) throw new Unsupported('subscript');
      const name = `${args[0]}_{${s}}`;
      setRole(ctx, name, intArg ? 'int' : 'real');
      return { k: 'var', name };
    }
    default: {
      const u = typeof head === 'string' ? UNARY[head] : undefined;
      if (u) {
        arity(1);
        return op(u, sub(args[0], inExponent, INT_ARGS.has(head)));
      }
      throw new Unsupported(typeof head === 'string' ? `contains ${describeHead(head)}` : 'expression');
    }
  }
}

// What a user reads in "step not checked: …" (`mathsense check --show-unknown`, the editor's
// information diagnostics) instead of the parser's MathJSON names
const HEADS: Record<string, string> = {
  Limit: 'a limit', Integrate: 'an integral', D: 'a derivative', Derivative: 'a derivative', PartialDerivative: 'a partial derivative',
  Product: 'a product ∏', Matrix: 'a matrix', Set: 'a set', List: 'a list', Tuple: 'a tuple', Interval: 'an interval', Element: '∈',
  NotElement: '∉', Subset: '⊂', SubsetEqual: '⊆', Union: '∪', Intersection: '∩', Binomial: 'a binomial coefficient', Mod: 'mod',
  Congruent: 'a congruence', Floor: 'a floor', Ceil: 'a ceiling', Arg: 'arg', Conjugate: 'a complex conjugate', Re: 'Re', Im: 'Im',
  Gamma: 'Γ', Zeta: 'ζ', Apply: 'a function application', Subscript: 'a subscript', Prime: 'a prime', Error: 'a LaTeX fragment that does not parse',
  Assign: 'a definition (:=)', And: 'a logical and', Or: 'a logical or', Not: 'a logical not', Implies: '⇒', Equivalent: '⇔',
};
const SYMBOLS: Record<string, string> = {
  PositiveInfinity: '∞', NegativeInfinity: '−∞', ComplexInfinity: 'complex ∞', EmptySet: '∅', Nothing: 'an empty expression',
  ImaginaryUnit: 'i', Integers: 'ℤ', RealNumbers: 'ℝ', ComplexNumbers: 'ℂ', RationalNumbers: 'ℚ', NaturalNumbers: 'ℕ',
};

/** A MathJSON head as words ('Limit' -> 'a limit'; an unlisted 'FooBar' -> 'foo bar'). */
export function describeHead(head: string): string {
  return HEADS[head] ?? head.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function isNumber(j: Json): boolean {
  return typeof j === 'number' || (typeof j === 'object' && j !== null && !Array.isArray(j) && typeof (j as { num?: unknown }).num === 'string');
}

function isParenStyle(j: Json): boolean {
  const s = (j as { str?: string } | undefined)?.str ?? (typeof j === 'string' ? j : '');
  return /^'?\(,?\)'?$/.test(s);
}

function symbol(name: string, ctx: ParseContext, inExponent: boolean, intArg: boolean): Expr {
  if (name === 'Pi') return num(Math.PI);
  if (name === 'ExponentialE') return num(Math.E);
  if (name === 'Half') return num(0.5);
  if (name === 'e' && ctx.eIsEuler) return num(Math.E);
  if (name === 'GoldenRatio') name = 'varphi';
  const c = ctx.constants.get(name);
  if (c !== undefined) return num(c);
  if ((!VAR_NAME.test(name) || STYLED.test(name)) && name !== 'varphi') throw new Unsupported(`contains the symbol ${SYMBOLS[name] ?? name}`);
  setRole(ctx, name, intArg || ((inExponent || ctx.intIndices) && INDEX_NAMES.test(name)) ? 'int' : 'real');
  return { k: 'var', name };
}
