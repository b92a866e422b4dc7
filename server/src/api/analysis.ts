// The server's declared API for the offline package (scripts/), through package.json exports:
// document structure and rendering.
export { latexToPlain } from '../analysis/render.js';
export { statements } from '../analysis/structure.js';
export { dependencyIndex, type DepEdge, type DependencyIndex, type DepNode } from '../analysis/dependencies/dependencyGraph.js';
