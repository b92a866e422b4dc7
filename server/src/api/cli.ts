// The server's declared API for the offline package (scripts/), through package.json exports:
// the CLI's option parsing and progress output, and a stdio client of the server.
export { parseOptions } from '../cli/indexCommands.js';
export { progressBar } from '../cli/progress.js';
// a client of the bundled server over stdio (benchmarks and evaluations drive it as an editor would)
export { LspClient, type LspClientOptions } from '../protocol/lspClient.js';
