// The server's declared API for the offline package (scripts/), through package.json exports:
// workspaces, project files and user macros.
export { findDocumentFiles } from '../project/files.js';
export { macroRefs } from '../project/userMacros.js';
export { isMacroSource, Workspace } from '../project/workspace.js';
