// `npm run eval`: compiles the server and this package, then runs every bin/eval*.ts in turn
// (each prints its own table). Extra arguments are passed to each script.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../lib/repo.js';

const root = repoRoot;
process.chdir(root);
const tsc = spawnSync('npx', ['tsc', '-b', 'server', 'scripts'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
let failed = 0;
const bin = path.join('scripts', 'out', 'bin');
for (const f of fs.readdirSync(bin).filter((f) => /^eval.+\.js$/.test(f)).sort()) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, [path.join(bin, f), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) { failed++; console.error(`${f} failed (${r.status ?? r.signal})`); }
}
process.exit(failed ? 1 : 0);
