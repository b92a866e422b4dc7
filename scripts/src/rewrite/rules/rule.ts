// A rewrite rule: one node into an equal expression, or undefined when it does not apply; the
// context gives it randomness and the formula's variables. Insertions grow a formula from
// nothing in it, so the engine tries them only now and then.
import type { Expr } from 'mathsense-server/api/math';

export type RuleGroup = 'algebra' | 'trig' | 'explog' | 'inverse' | 'calculus';

export interface RuleContext {
  rnd: () => number;
  /** Free variables of the whole formula (rules that introduce a variable take one of these). */
  vars: string[];
  /** Variables of the derivatives the node is inside (no new derivative is created there). */
  inDerivative: boolean;
}

export interface Rule {
  name: string;
  group: RuleGroup;
  /** Node heads the rule can match: op names, 'num', 'var', 'D', or '*' for any node. */
  heads: string[];
  /** Relative choice weight among the rules that match a node. */
  weight: number;
  /** Grows a formula from nothing in it (x → e^{ln x}, 1 → sin²t + cos²t, g → d/dx G): used sparingly. */
  insertion: boolean;
  apply(e: Expr, c: RuleContext): Expr | undefined;
}

const INSERTIONS = new Set(['insert-identity', 'insert-cancelling-pair', 'split-constant', 'insert-pythagorean', 'insert-exp-log', 'insert-inverse-pair', 'derivative-of-antiderivative']);

export const rule = (name: string, group: RuleGroup, heads: string[], apply: Rule['apply'], weight = 1): Rule => ({ name, group, heads, weight, apply, insertion: INSERTIONS.has(name) });
