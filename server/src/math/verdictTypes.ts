// The verdict on one derivation step, and the step as the checker takes it.
import type { Setting } from './setting.js';
import type { Relation } from './steps.js';

export type VerdictKind = 'proven' | 'equal' | 'refuted' | 'unknown' | 'skipped';

export interface Verdict {
  kind: VerdictKind;
  reason: string;
  /** Counterexample (refuted): variable values and both sides' values there. */
  point?: Array<[string, number]>;
  left?: number;
  right?: number;
}

export interface StepInput {
  lhs: string;
  rhs: string;
  rel: Relation;
  mod?: string;
  annotation?: string;
  /** Prose before the display (domain statements). */
  context?: string;
  /** What the wider setting says of the letters (blocks.ts#BlockInput.setting, setting.ts). */
  setting?: Setting;
  implied?: boolean;
  /** One of the equations being solved or substituted into (see `Step.equation`). */
  equation?: boolean;
  /**
   * Read as an identity even with sides in different variables: a row of a display whose other
   * rows, each with its own left side, hold as identities (checker.ts#identityRows).
   */
  identity?: boolean;
  justified?: boolean;
  /** `\\approx`: checked at the precision the right side prints (steps.ts#Step.printed). */
  printed?: boolean;
  /** An earlier relation of the chain is `\\approx`: the left side's printed operands are rounded too. */
  afterApprox?: boolean;
  /** Earlier relations of the chain bound it from above or below (steps.ts#Step.bound). */
  bound?: 'upper' | 'lower';
  /** Other prose of the block (annotations of its other rows): named constants. */
  notes?: string;
}
