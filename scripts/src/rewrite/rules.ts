// Rewrite rules over Expr: each rewrites one node into an equal expression (on the positive
// reals at least: domain-restricted identities such as ln(ab) = ln a + ln b are allowed, and
// every generated expression is checked numerically against its seed before it is kept).
// A rule returns undefined when it does not apply. Groups: algebraic, trigonometric
// (incl. hyperbolic), exponential/logarithmic, inverse functions, calculus (derivative rules,
// and the reverse direction: a term replaced by the derivative of an antiderivative).
import type { Rule } from './rules/rule.js';
import { algebra } from './rules/algebra.js';
import { trig } from './rules/trig.js';
import { explog } from './rules/explog.js';
import { inverse } from './rules/inverse.js';
import { calculus } from './rules/calculus.js';

export type { Rule, RuleContext, RuleGroup } from './rules/rule.js';

/** Every rule, group by group (the engine's weighted choice depends on this order). */
export const RULES: readonly Rule[] = [...algebra, ...trig, ...explog, ...inverse, ...calculus];
