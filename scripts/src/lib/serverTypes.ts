// Types of the server's API that the scripts name, derived from the functions it exports
// (its API exports the functions, not every type they take and give).
import type { DerivationChecker, scopeMacros } from 'mathsense-server/api/math';
import type { Workspace } from 'mathsense-server/api/project';

/** A display-math block as the derivation checker takes it. */
export type BlockInput = Parameters<DerivationChecker['checkBlock']>[0];
/** One checked step of a block. */
export type StepResult = ReturnType<DerivationChecker['checkBlock']>['steps'][number];
/** A user macro definition. */
export type MacroDef = ReturnType<typeof scopeMacros>[number];
/** A document of a workspace. */
export type Doc = ReturnType<Workspace['open']>;
