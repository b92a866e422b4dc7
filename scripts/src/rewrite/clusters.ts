// Clusters of equivalent formulas: the seed plus members made by 1–6 random rewrite steps
// (from the seed, or continuing from an earlier member within the same step budget), each
// verified numerically against the seed, deduplicated. A formula is one expression or an
// equation/inequality (sides rewritten independently; an equation may also be turned round).
import { type Expr, exprKey } from 'mathsense-server/api/math';
import { rewrite, type RewriteOptions } from './engine.js';
import { numericallyEqual } from './verify.js';

export type Relation = '=' | '<' | '>' | '\\leq' | '\\geq' | '\\neq';

export interface Formula {
  sides: Expr[];
  /** Relation between consecutive sides (equations and inequalities). */
  rel?: Relation;
}

export interface Member {
  formula: Formula;
  /** Rules applied from the seed, in order (empty for the seed itself). */
  rules: string[];
  /** Sides written in the opposite order (`b = a`, `b \geq a`). */
  swapped: boolean;
}

export interface ClusterOptions extends RewriteOptions {
  /** Members including the seed: a target is drawn from [min, max]. */
  min?: number;
  max?: number;
  /** Rewrite steps per member, at most. */
  maxSteps?: number;
  /** Fewer verified members than this: no cluster. */
  minKeep?: number;
}

export interface ClusterStats {
  attempts: number;
  unverified: number;
  duplicates: number;
}

const FLIP: Record<Relation, Relation> = { '=': '=', '\\neq': '\\neq', '<': '>', '>': '<', '\\leq': '\\geq', '\\geq': '\\leq' };

export function formulaKey(f: Formula): string {
  return f.sides.map(exprKey).join(` ${f.rel ?? '='} `);
}

/** The member with its sides put back in the seed's order (for verification). */
function seedOrder(m: Member): Expr[] {
  return m.swapped ? [...m.formula.sides].reverse() : m.formula.sides;
}

/**
 * A cluster for `seed` (the seed first), or undefined when fewer than `minKeep` verified
 * distinct members came out. Deterministic for a given `rnd` state.
 */
export function makeCluster(seed: Formula, rnd: () => number, opts: ClusterOptions = {}, stats?: ClusterStats): Member[] | undefined {
  const min = opts.min ?? 8;
  const max = opts.max ?? 16;
  const maxSteps = opts.maxSteps ?? 6;
  const target = min + Math.floor(rnd() * (max - min + 1));
  const members: Member[] = [{ formula: seed, rules: [], swapped: false }];
  const seen = new Set([formulaKey(seed)]);
  const multi = seed.sides.length > 1;
  for (let attempt = 0; attempt < target * 8 && members.length < target; attempt++) {
    if (stats) stats.attempts++;
    // most members start from the seed; some continue a member that has steps to spare
    const from = rnd() < 0.7 ? members[0] : members[Math.floor(rnd() * members.length)];
    const budget = maxSteps - from.rules.length;
    if (budget <= 0) continue;
    const steps = 1 + Math.floor(rnd() * budget);
    const sides = [...from.formula.sides];
    const rules = [...from.rules];
    // spread the steps over the sides
    const perSide = sides.map(() => 0);
    for (let s = 0; s < steps; s++) perSide[Math.floor(rnd() * sides.length)]++;
    sides.forEach((e, i) => {
      if (perSide[i] === 0) return;
      const r = rewrite(e, perSide[i], rnd, opts);
      sides[i] = r.expr;
      rules.push(...r.rules);
    });
    if (rules.length === from.rules.length) continue;
    let swapped = from.swapped;
    let rel = from.formula.rel;
    if (multi && sides.length === 2 && rnd() < 0.25) { sides.reverse(); swapped = !swapped; rel = rel && FLIP[rel]; }
    const m: Member = { formula: { sides, rel }, rules, swapped };
    const key = formulaKey(m.formula);
    if (seen.has(key)) { if (stats) stats.duplicates++; continue; }
    seen.add(key);
    const back = seedOrder(m);
    if (!back.every((e, i) => numericallyEqual(seed.sides[i], e))) { if (stats) stats.unverified++; continue; }
    members.push(m);
  }
  return members.length >= (opts.minKeep ?? 4) ? members : undefined;
}
