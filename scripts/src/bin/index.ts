// `node scripts/out/bin/index.js build [options]` (npm run index:build): builds the index the
// server and its CLI read (build/index unless --index DIR), from ../shared/data unless --data DIR.
import { buildCommand } from '../indexBuild/command.js';

const code = await buildCommand(process.argv.slice(2), { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) });
process.exitCode = code;
