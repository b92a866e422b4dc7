// Numbers as printed: a value written to some precision stands for every value that rounds to
// it. Two uses: an `=` whose right side is a computed value printed rounded (`1000\pi = 3142`,
// `5000/7 = 714`) is a rounding, not a slip; and an `\approx` step is checked at the precision
// its right side prints, half a unit of each printed operand's last digit carried through.

/** A side that is one number and nothing else (digit groups already joined by normalize.ts). */
const LONE_NUMBER = /^\s*[-+]?\s*(\d+)(?:\.(\d+))?\s*$/;

/**
 * The rounding unit of a side that is one printed number: a unit of its last decimal, or of its
 * last non-zero digit for an integer ending in zeros (`3140` is three figures). Undefined when
 * the side is not one number, or prints fewer than `figures` significant figures (`= 3000`
 * says too little of what was rounded to excuse a difference).
 */
export function printedUnit(text: string, figures = 1): number | undefined {
  const m = LONE_NUMBER.exec(text);
  if (!m) return undefined;
  const [int, dec] = [m[1], m[2]];
  const digits = `${int}${dec ?? ''}`.replace(/^0+/, '');
  const zeros = dec === undefined && digits !== '' ? /0*$/.exec(digits)![0].length : 0;
  const unit = dec === undefined ? 10 ** zeros : 10 ** -dec.length;
  return digits.length - zeros >= figures ? unit : undefined;
}

/**
 * Whether `value` printed as `text` is a rounding of it: `text` is one number with at least two
 * significant figures and `value` lies within half its unit. An exact integer is printed exactly
 * (`2^{10} = 1020` is a slip, not a rounding).
 */
export function isRounding(value: number, text: string): boolean {
  const unit = printedUnit(text, 2);
  if (unit === undefined || !Number.isFinite(value) || Number.isInteger(value)) return false;
  const printed = Number(text.replace(/\s+/g, ''));
  return Math.abs(value - printed) <= 0.5 * unit * (1 + 1e-9) + 1e-12 * Math.abs(value);
}

/** Decimal literals of a text, outside sub- and superscripts: the printed operands. */
export function printedOperands(text: string): Array<{ start: number; end: number; unit: number }> {
  const out: Array<{ start: number; end: number; unit: number }> = [];
  // a mantissa before `\times 10^k` is rounded too, though it may be an integer (`3 \times 10^8`)
  const re = /(?<![\d.^_{]|[\^_]\s*)(\d+)(?:\.(\d+))?(?![\d.])/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (/^\s*\^/.test(text.slice(m.index + m[0].length))) continue; // a base of a power of ten, or of a square
    const decimal = m[2] !== undefined;
    const mantissa = !decimal && /^\s*\\(?:times|cdot)\s*10\s*\^/.test(text.slice(m.index + m[0].length));
    if (decimal || mantissa) out.push({ start: m.index, end: m.index + m[0].length, unit: decimal ? 10 ** -m[2].length : 1 });
  }
  return out;
}

/**
 * How far a side may be from the value it stands for when its printed operands were rounded:
 * each operand moved by half its unit, the changes of the side's value added. `evaluate`
 * evaluates a text (NaN when it cannot). A side that is one number is its own operand
 * (`printedUnit`), integer or not.
 */
export function printedTolerance(text: string, evaluate: (t: string) => number): number | undefined {
  const unit = printedUnit(text);
  if (unit !== undefined) return 0.5 * unit;
  const ops = printedOperands(text);
  if (ops.length === 0) return undefined;
  const base = evaluate(text);
  if (!Number.isFinite(base)) return undefined;
  let tol = 0;
  for (const o of ops) {
    const literal = Number(text.slice(o.start, o.end));
    const places = Math.max(0, -Math.log10(o.unit)) + 1;
    const moved = (d: number) => Math.abs(evaluate(`${text.slice(0, o.start)}${(literal + d).toFixed(places)}${text.slice(o.end)}`) - base);
    const change = Math.max(moved(0.5 * o.unit), moved(-0.5 * o.unit));
    if (!Number.isFinite(change)) return undefined;
    tol += change;
  }
  return tol;
}
