// The server's declared API for the offline package (scripts/), through package.json exports:
// the derivation checker, formula parsing and equation analysis.
export { macroSignature, mathBlocks, scopeMacros } from '../math/blocks.js';
export { DerivationChecker } from '../math/checker.js';
export { canonicalFormula } from '../math/equations/canonicalLatex.js';
export { egenDir, readEgenClusters } from '../math/equations/egenClusters.js';
export { analyseEquation, displayRelations } from '../math/equations/equation.js';
export { confirmSameDisplay } from '../math/equations/equivalence.js';
export { expressionFingerprint, sameClass } from '../math/equations/fingerprint.js';
export { parsePrefix } from '../math/equations/prefix.js';
export { structuralSimilarity } from '../math/equations/structural.js';
export { toLatex } from '../math/equations/toLatex.js';
export { Evaluator } from '../math/evaluate.js';
export { type Expr, exprKey, freeVars, num, op } from '../math/expr.js';
export { expandMacros, macroTable, type MacroTable } from '../math/macros.js';
export { normalizeLatex } from '../math/normalize.js';
export { parseSides } from '../math/parse.js';
export { DerivationService, inProcessRunner } from '../math/service.js';
export { extractSteps, type Relation, type Span } from '../math/steps.js';
export { checkStep, verdictMessage } from '../math/verdict.js';
export { workerRunner } from '../math/workerRunner.js';
