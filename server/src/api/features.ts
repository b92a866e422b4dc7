// The server's declared API for the offline package (scripts/), through package.json exports:
// the language features offline evaluations measure.
export { EquationAnalyses } from '../index/equationAnalyses.js';
export { copyText } from '../features/equations/equationClaims.js';
export { lensSummary, matchLenses, worthOpening } from '../features/equations/equationLenses.js';
export { MatchCache } from '../index/matchCache.js';
export { documentEquations } from '../analysis/equationSites.js';
export { FormulaVectors } from '../index/formulaVectors.js';
export { bodyText } from '../analysis/structure.js';
export { findRelatedEquations, shownLatex } from '../features/equations/relatedEquations.js';
export { WorkspaceEquations } from '../index/workspaceEquations.js';
export { byResult, type ResultGroup, shownSuggestion } from '../features/index/candidateProofs.js';
