// Command-line entry: `mathsense lsp|check|...`.
import { runCheck } from './check.js';
import { progressBar } from './progress.js';
import { INDEX_USAGE } from './indexCommands.js';
import { GRAPH_USAGE } from './graph.js';
import { LIBRARY_USAGE } from './libraryCommands.js';

const USAGE = `Usage: mathsense <command> [options]

Commands:
  lsp [--stdio|--node-ipc|--socket=PORT|--pipe=NAME]
                                        run the language server (stdio by default)
  check [--format text|json] [--unused-labels] [--no-derivations] [--show-unknown] <file-or-dir>...
                                        analyse documents and print diagnostics
                                        exit 0: no errors, 1: errors, 2: usage/internal failure
${GRAPH_USAGE}  models info [--accelerator auto|cpu|cuda|webgpu] [--models DIR] [--json]
                                        show the embedding model and the execution provider in use
${INDEX_USAGE}${LIBRARY_USAGE}  --version                             print the version
`;

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'lsp': {
      // vscode-languageserver reads the transport from process.argv and throws without one:
      // stdio is the default, and anything else is a usage error, not a stack trace
      const transports = /^--(stdio|node-ipc|socket=\d+|pipe=.+)$/;
      const bad = rest.find((a) => !transports.test(a) && !/^--clientProcessId(=\d+)?$/.test(a) && !/^\d+$/.test(a));
      if (bad) { process.stderr.write(`mathsense lsp: unknown option ${bad} (transports: --stdio, --node-ipc, --socket=PORT, --pipe=NAME)\n`); return 2; }
      if (!rest.some((a) => transports.test(a))) process.argv.push('--stdio');
      const { startServer } = await import('../protocol/server.js');
      startServer();
      return -1; // keeps running
    }
    case 'check': {
      let format: 'text' | 'json' = 'text';
      let unusedLabels = false;
      let derivations = true;
      let showUnknown = false;
      const paths: string[] = [];
      for (let i = 0; i < rest.length; i++) {
        const a = rest[i];
        if (a === '--format') {
          const f = rest[++i];
          if (f !== 'text' && f !== 'json') { process.stderr.write(`mathsense check: --format must be text or json\n`); return 2; }
          format = f;
        } else if (a.startsWith('--format=')) {
          const f = a.slice(9);
          if (f !== 'text' && f !== 'json') { process.stderr.write(`mathsense check: --format must be text or json\n`); return 2; }
          format = f;
        } else if (a === '--unused-labels') unusedLabels = true;
        else if (a === '--no-derivations') derivations = false;
        else if (a === '--show-unknown') showUnknown = true;
        else if (a === '--help' || a === '-h') { process.stdout.write(USAGE); return 0; }
        else if (a.startsWith('-')) { process.stderr.write(`mathsense check: unknown option ${a}\n${USAGE}`); return 2; }
        else paths.push(a);
      }
      return runCheck({ paths, format, settings: { unusedLabels }, derivations, showUnknown, progress: process.stderr.isTTY ? progressBar((s) => process.stderr.write(s), true) : undefined });
    }
    case 'graph': {
      if (rest.includes('--help') || rest.includes('-h')) { process.stdout.write(USAGE); return 0; }
      const { graphCommand } = await import('./graph.js');
      return graphCommand(rest, { out: (s) => { process.stdout.write(s); }, err: (s) => { process.stderr.write(s); } });
    }
    case 'models': {
      if (rest[0] !== 'info') { process.stderr.write(`mathsense models: expected 'info'\n${USAGE}`); return 2; }
      const { modelsInfo } = await import('../embeddings/modelsInfo.js');
      return modelsInfo(rest.slice(1), (s) => process.stdout.write(s), (s) => process.stderr.write(s));
    }
    case 'index': case 'search': case 'disambiguate': {
      const cli = await import('./indexCommands.js');
      const io = { out: (s: string) => { process.stdout.write(s); }, err: (s: string) => { process.stderr.write(s); } };
      if (rest.includes('--help') || rest.includes('-h')) { process.stdout.write(USAGE); return 0; }
      // an installed extension's index may still be packed (util/packedFiles.ts)
      const { ensureUnpacked } = await import('../util/packedFiles.js');
      const { packageRoot } = await import('../util/packageRoot.js');
      try { await ensureUnpacked(packageRoot(), (m) => process.stderr.write(`mathsense: ${m}\n`)); } catch (e) { process.stderr.write(`mathsense: ${(e as Error).message}\n`); return 2; }
      if (cmd === 'search' && (await import('./equationSearch.js')).isEquationSearch(rest)) return (await import('./equationSearch.js')).equationSearch(rest, io);
      return cmd === 'index' ? cli.indexCommand(rest, io) : cmd === 'search' ? cli.searchCommand(rest, io) : cli.disambiguateCommand(rest, io);
    }
    case 'library': {
      if (rest.includes('--help') || rest.includes('-h')) { process.stdout.write(USAGE); return 0; }
      const { libraryCommand } = await import('./libraryCommands.js');
      return libraryCommand(rest, { out: (s) => { process.stdout.write(s); }, err: (s) => { process.stderr.write(s); } });
    }
    case '--version': case '-v':
      process.stdout.write('mathsense 0.1.0\n');
      return 0;
    case undefined: case '--help': case '-h': case 'help':
      process.stdout.write(USAGE);
      return cmd === undefined ? 2 : 0;
    default:
      process.stderr.write(`mathsense: unknown command '${cmd}'\n${USAGE}`);
      return 2;
  }
}
