// `npm test`: compiles, bundles, then runs every *.test.(m)js under server/out, scripts/out (the
// offline package) and test/ with Node's test runner. Fails when a test fails or when none ran.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run('npx', ['tsc', '-b', 'server', 'client', 'scripts']);
run(process.execPath, ['scripts/build.mjs']);

fs.mkdirSync('test-output', { recursive: true });
const tapFile = `test-output/tap-${process.pid}.txt`;
const only = process.argv.slice(2);
const files = [];
// a compiled test whose source was moved or deleted is left in out/ by tsc: not run
const hasSource = (f) => {
  const m = /^(server|scripts)[\\/]out[\\/](.*)\.js$/.exec(f);
  return !m || fs.existsSync(path.join(m[1], 'src', `${m[2]}.ts`));
};
const walk = (dir) => {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== 'node_modules' && e.name !== 'fixtures') walk(full); }
    else if (/\.test\.(m?js)$/.test(e.name) && hasSource(full)) files.push(full);
  }
};
walk('server/out');
walk('scripts/out');
walk('test');
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
if (selected.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...selected], {
  stdio: 'inherit',
  env: { ...process.env },
});
const tap = fs.existsSync(tapFile) ? fs.readFileSync(tapFile, 'utf8') : '';
const count = (k) => Number((new RegExp(`^# ${k} (\\d+)`, 'm').exec(tap) ?? [])[1] ?? 0);
const pass = count('pass');
const fail = count('fail');
const skipped = count('skipped');
console.log(`\n${pass} passed, ${fail} failed, ${skipped} skipped`);
if (pass + fail === 0) {
  console.error('no tests ran');
  process.exit(1);
}
process.exit(r.status === 0 && fail === 0 ? 0 : 1);
