// The server's declared API for the offline package (scripts/), through package.json exports:
// the language features offline evaluations measure.
export { EquationAnalyses } from '../features/equationAnalyses.js';
export { copyText } from '../features/equationClaims.js';
export { MatchCache, matchLenses } from '../features/equationLenses.js';
export { documentEquations } from '../features/equationSites.js';
export { FormulaVectors } from '../features/formulaVectors.js';
export { bodyText } from '../index/workspaceResults.js';
export { findRelatedEquations, shownLatex } from '../features/relatedEquations.js';
export { WorkspaceEquations } from '../features/workspaceEquations.js';
