// Applies rewrite rules at random subterms: positions in random order, at each a rule among
// those whose head matches the node (weighted, without replacement) until one applies. Results
// larger than a size limit are refused, so expansion rules cannot blow a formula up.
import { type Expr, freeVars } from 'mathsense-server/api/math';
import { type Path, at, derivativeVarsAbove, depth, positions, replaceAt, same, size } from './build.js';
import { RULES, type Rule } from './rules.js';

export interface RewriteOptions {
  /** Largest node count of a result. */
  maxSize?: number;
  maxDepth?: number;
}

export interface Rewritten {
  expr: Expr;
  /** Names of the rules applied, in order. */
  rules: string[];
}

/** Rules by the node heads they match (op name, 'op', 'num', 'var', 'D'). */
const BY_HEAD = new Map<string, Rule[]>();
for (const r of RULES) for (const h of r.heads) BY_HEAD.set(h, [...(BY_HEAD.get(h) ?? []), r]);

function rulesFor(node: Expr): Rule[] {
  const heads = node.k === 'op' ? [node.op, 'op'] : [node.k];
  return [...new Set(heads.flatMap((h) => BY_HEAD.get(h) ?? []))];
}

function weightedTake(cands: Rule[], rnd: () => number): Rule {
  const total = cands.reduce((n, r) => n + r.weight, 0);
  let x = rnd() * total;
  let i = 0;
  for (; i < cands.length - 1; i++) { x -= cands[i].weight; if (x < 0) break; }
  return cands.splice(i, 1)[0];
}

/** Share of steps that insert structure (x → e^{ln x}, g → d/dx G) rather than rewrite what is there. */
const INSERT_P = 0.18;

function shuffledPositions(ps: Path[], rnd: () => number): Path[] {
  const a = [...ps];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * One rule application at a random position, or undefined when none applies. A step is an
 * insertion with probability INSERT_P (else a rewrite of existing structure; insertions only
 * when no rewrite applies anywhere), since insertions match every leaf and would crowd out
 * the rules that need a pattern.
 */
export function rewriteOnce(e: Expr, rnd: () => number, opts: RewriteOptions = {}): { expr: Expr; rule: string } | undefined {
  const maxSize = opts.maxSize ?? 48;
  const maxDepth = opts.maxDepth ?? 9;
  const vars = [...freeVars(e)].sort();
  const order = shuffledPositions(positions(e), rnd);
  const first = rnd() < INSERT_P;
  for (const insertion of [first, !first]) {
    for (const p of order) {
      const node = at(e, p);
      const cands = rulesFor(node).filter((r) => r.insertion === insertion);
      const ctx = { rnd, vars, inDerivative: derivativeVarsAbove(e, p).length > 0 || node.k === 'D' };
      while (cands.length) {
        const r = weightedTake(cands, rnd);
        const out = r.apply(node, ctx);
        if (!out || same(out, node)) continue;
        const next = replaceAt(e, p, out);
        if (size(next) > maxSize || depth(next) > maxDepth) continue;
        return { expr: next, rule: r.name };
      }
    }
  }
  return undefined;
}

/** `steps` successive rewrites (fewer when nothing applies). */
export function rewrite(e: Expr, steps: number, rnd: () => number, opts: RewriteOptions = {}): Rewritten {
  let cur = e;
  const applied: string[] = [];
  for (let i = 0; i < steps; i++) {
    const r = rewriteOnce(cur, rnd, opts);
    if (!r) break;
    cur = r.expr;
    applied.push(r.rule);
  }
  return { expr: cur, rules: applied };
}

