// Simple domain statements read from the text around a step: "(t > 0)", "0 < x < 1",
// "x \ge 1", "for negative x", "x \in (0, 1)", "|x| < 1". They narrow the interval a
// variable is sampled from; anything not understood leaves the default (positive reals first).

export interface Interval { lo: number; hi: number }

export type Domains = Map<string, Interval>;

// a variable on its own, not the last letter of an expression (`\\dfrac x a < 0` says nothing about a)
const V = String.raw`(?<![0-9}\])|]\s*)(?<!(?:^|[^A-Za-z\\])[A-Za-z]\s*)(?<![A-Za-z])([A-Za-z]|\\(?:alpha|beta|gamma|delta|theta|lambda|mu|sigma|tau|phi|psi|omega|epsilon|varepsilon|xi|eta|zeta|rho))`;
const NUM = String.raw`(-?\d+(?:\.\d+)?|\\pi|\\frac\{\d+\}\{\d+\}|\\tfrac\{\d+\}\{\d+\}|\\dfrac\{\d+\}\{\d+\})`;
const LT = String.raw`(<|\\lt|\\le|\\leq|\\leqslant)`;
const GT = String.raw`(>|\\gt|\\ge|\\geq|\\geqslant)`;

function numValue(s: string): number {
  if (s === '\\pi') return Math.PI;
  const f = /\\[dt]?frac\{(\d+)\}\{(\d+)\}/.exec(s);
  if (f) return Number(f[1]) / Number(f[2]);
  return Number(s);
}

function varName(s: string): string {
  return s.startsWith('\\') ? s.slice(1) : s;
}

/** Variables whose statements contradict each other (cases of a proof: "α > 1", "0 < α ≤ 1"). */
const CONFLICT = { lo: NaN, hi: NaN };

function narrow(d: Domains, v: string, lo: number, hi: number): void {
  const cur = d.get(v) ?? { lo: -Infinity, hi: Infinity };
  if (cur === CONFLICT) return;
  const next = { lo: Math.max(cur.lo, lo), hi: Math.min(cur.hi, hi) };
  d.set(v, next.lo < next.hi ? next : CONFLICT);
}

/**
 * Reads domain statements from text (prose before the display, then the step's annotation).
 * A statement holds until the text says something else of the same variable: "When $x > 0$,
 * [display]. When $x < 0$, [display]" gives the second display x < 0. Statements of one
 * sentence go together ("$0 < x$ and $x < 1$").
 */
export function readDomains(text: string): Domains {
  if (!text) return new Map();
  const t = text.replace(/\s+/g, ' ');
  // sentences, from the last one back: the latest that speaks of a variable decides it
  const sentences = t.split(/(?<=[.;:!?])\s+(?=[A-Z\\$])|\$\$|\\\]|\\end\{[a-z*]+\}/);
  const d: Domains = new Map();
  for (let k = sentences.length - 1; k >= 0; k--) {
    for (const [v, r] of readSentence(sentences[k])) if (!d.has(v)) d.set(v, r);
  }
  // contradictory statements in one sentence belong to different cases: sample such a variable by default
  for (const [v, r] of d) if (r === CONFLICT) d.delete(v);
  return d;
}

function readSentence(t: string): Domains {
  const d: Domains = new Map();
  let m: RegExpExecArray | null;
  const between = new RegExp(String.raw`${NUM}\s*${LT}\s*${V}\s*${LT}\s*${NUM}`, 'g');
  while ((m = between.exec(t))) narrow(d, varName(m[3]), numValue(m[1]), numValue(m[5]));
  const betweenRev = new RegExp(String.raw`${NUM}\s*${GT}\s*${V}\s*${GT}\s*${NUM}`, 'g');
  while ((m = betweenRev.exec(t))) narrow(d, varName(m[3]), numValue(m[5]), numValue(m[1]));
  const gt = new RegExp(String.raw`${V}\s*${GT}\s*${NUM}(?!\s*${LT})`, 'g');
  while ((m = gt.exec(t))) narrow(d, varName(m[1]), numValue(m[3]), Infinity);
  const lt = new RegExp(String.raw`(?<![<>=]\s*)${V}\s*${LT}\s*${NUM}`, 'g');
  while ((m = lt.exec(t))) narrow(d, varName(m[1]), -Infinity, numValue(m[3]));
  const abs = new RegExp(String.raw`\|\s*${V}\s*\|\s*${LT}\s*${NUM}`, 'g');
  while ((m = abs.exec(t))) { const r = numValue(m[3]); narrow(d, varName(m[1]), -r, r); }
  const inInt = new RegExp(String.raw`${V}\s*\\in\s*(?:\\left)?[(\[]\s*${NUM}\s*,\s*${NUM}\s*(?:\\right)?[)\]]`, 'g');
  while ((m = inInt.exec(t))) narrow(d, varName(m[1]), numValue(m[2]), numValue(m[3]));
  const neg = /\bnegative (?:real )?(?:numbers? |reals? )?\$?([A-Za-z])\b/g;
  while ((m = neg.exec(t))) narrow(d, m[1], -Infinity, 0);
  // "x is negative", "$x$ is strictly positive"
  const is = /(?:^|[\s$(])([A-Za-z])\$? is (?:strictly )?(negative|positive)\b/g;
  while ((m = is.exec(t))) { if (m[2] === 'negative') narrow(d, m[1], -Infinity, 0); else narrow(d, m[1], 0, Infinity); }
  return d;
}
