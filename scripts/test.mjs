// Compiles, bundles, then runs one tier of the *.test.(m)js files under server/out, scripts/out
// (the offline package) and test/ with Node's test runner:
//   `npm test`             tier unit: unit and protocol tests, several files at a time;
//   `npm run test:corpus`  tier corpus (files named *.corpus.test.*): the real-world gate, the
//                          corpora, fuzz and crafted inputs, fits and evaluations on real data;
//   `node scripts/test.mjs --tier all`: both. .ci/run runs each tier as a phase of its own.
// Further arguments keep the files whose path contains one of them. Fails when a test fails or
// when none ran.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
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
const args = process.argv.slice(2);
const tierAt = args.indexOf('--tier');
const tier = tierAt >= 0 ? args.splice(tierAt, 2)[1] : 'unit';
if (!['unit', 'corpus', 'all'].includes(tier)) {
  console.error(`unknown tier ${tier}: unit, corpus or all`);
  process.exit(2);
}
const only = args;
const isCorpus = (f) => /\.corpus\.test\.m?js$/.test(f);
const inTier = (f) => tier === 'all' || (tier === 'corpus') === isCorpus(f);
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
const selected = files.filter((f) => inTier(f) && (only.length === 0 || only.some((o) => f.includes(o))));
if (selected.length === 0) {
  console.error(`no test files found (tier ${tier})`);
  process.exit(1);
}
// Unit and protocol files wait on child processes, workers or I/O much of the time, so more of
// them than cores run at once. Corpus files are busy throughout and some hold time limits (the
// protocol fuzz's request ceiling), so they run one at a time. MATHSENSE_TEST_CONCURRENCY
// overrides.
const concurrency = Number(process.env.MATHSENSE_TEST_CONCURRENCY) || (tier === 'unit' ? os.availableParallelism() + 1 : 1);
const started = Date.now();
// the tests' servers and CLI runs read no user's list of library folders (mathsense library add)
const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-test-config-'));
const r = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...selected], {
  stdio: 'inherit',
  env: { ...process.env, XDG_CONFIG_HOME: configHome },
});
fs.rmSync(configHome, { recursive: true, force: true });
const tap = fs.existsSync(tapFile) ? fs.readFileSync(tapFile, 'utf8') : '';
const count = (k) => Number((new RegExp(`^# ${k} (\\d+)`, 'm').exec(tap) ?? [])[1] ?? 0);
const pass = count('pass');
const fail = count('fail');
const skipped = count('skipped');
console.log(`\n${pass} passed, ${fail} failed, ${skipped} skipped`);
console.log(`tier ${tier}: ${selected.length} files, ${concurrency} at a time, ${((Date.now() - started) / 1000).toFixed(1)} s`);
if (pass + fail === 0) {
  console.error('no tests ran');
  process.exit(1);
}
process.exit(r.status === 0 && fail === 0 ? 0 : 1);
