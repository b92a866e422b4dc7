// `npm run eval`: compiles the server, then runs every scripts/eval-*.mjs in turn (each prints
// its own table). Extra arguments are passed to each script.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const tsc = spawnSync('npx', ['tsc', '-p', 'server'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
let failed = 0;
for (const f of fs.readdirSync('scripts').filter((f) => /^eval-.+\.mjs$/.test(f)).sort()) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, [path.join('scripts', f), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) { failed++; console.error(`${f} failed (${r.status ?? r.signal})`); }
}
process.exit(failed ? 1 : 0);
