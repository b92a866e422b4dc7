// Process entry point of the bundled CLI/server (server/dist/mathsense.cjs).
import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => { if (code >= 0) process.exitCode = code; },
  (e) => { process.stderr.write(`mathsense: internal error: ${(e as Error).stack ?? e}\n`); process.exitCode = 2; },
);
