// The elementary functions the rules write, as Expr constructors.
import { type Expr } from 'mathsense-server/api/math';
import { fn, pow, TWO } from '../build.js';

export const sin = (a: Expr) => fn('sin', a);
export const cos = (a: Expr) => fn('cos', a);
export const sq = (a: Expr) => pow(a, TWO);
export const exp = (a: Expr) => fn('exp', a);
export const ln = (a: Expr) => fn('ln', a);
