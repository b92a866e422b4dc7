// The server's declared API for the offline package (scripts/), through package.json exports:
// the CLI's option parsing and progress output.
export { parseOptions } from '../cli/indexCommands.js';
export { progressBar } from '../cli/progress.js';
