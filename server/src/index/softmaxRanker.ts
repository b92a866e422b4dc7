// The project's linear rankers at run time (term disambiguation, results to cite, candidate
// proofs): a weight per feature, read from an index header or a models/ file and refused when its
// features are not this code's. Fitting is offline (scripts/src/rankers/softmaxFit.ts).

import * as fs from 'node:fs';
import * as path from 'node:path';

export const dot = (w: ArrayLike<number>, x: ArrayLike<number>) => { let s = 0; for (let i = 0; i < x.length; i++) s += w[i] * x[i]; return s; };

/**
 * Whether a stored model (from an index header or a models/ file) names exactly `features`, in
 * order: a model fitted before a feature change is refused rather than misread. Every stored
 * ranker (linear or network) is checked with this and finiteNumbers.
 */
export function namesFeatures(m: unknown, features: readonly string[]): m is { features: string[] } {
  const x = m as { features?: unknown } | undefined;
  return !!x && Array.isArray(x.features) && x.features.join('\u0000') === features.join('\u0000');
}

/** Whether `v` is an array of `n` finite numbers. */
export function finiteNumbers(v: unknown, n: number): v is number[] {
  return Array.isArray(v) && v.length === n && v.every((y) => Number.isFinite(y));
}

/**
 * A fitted model stored as JSON in a models folder (`npm run train:rankers`), when `usable`
 * accepts it as reading this code's features, or why there is none.
 */
export function loadFittedModel<T>(modelsDir: string | undefined, file: string, usable: (m: T) => T | undefined): { model?: T; problem?: string } {
  if (!modelsDir) return { problem: 'no models folder' };
  const p = path.join(modelsDir, file);
  try {
    const model = usable(JSON.parse(fs.readFileSync(p, 'utf8')) as T);
    return model ? { model } : { problem: `${p}: features do not match this version (run \`npm run train:rankers\`)` };
  } catch (e) {
    return { problem: `${p}: ${(e as Error).message}` };
  }
}

/** Whether a stored linear model reads exactly `features` with finite weights. */
export function readsFeatures(m: unknown, features: readonly string[]): m is { features: string[]; weights: number[] } {
  return namesFeatures(m, features) && finiteNumbers((m as { weights?: unknown }).weights, features.length);
}

/** One query: its candidates' feature rows and which of them are right. */
export interface SoftmaxGroup { x: number[][]; gold: readonly number[] }
