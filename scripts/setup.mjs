// `npm run setup`: prepares a fresh clone (with the shared data checkout at ../shared) for
// development, tests and CI. Non-interactive; safe to run again (steps that are already done
// are cheap or skipped).
//
// The work is a list of named steps, each timed. Later steps (building models, indexes over
// ../shared/data, ...) are added to STEPS below.
//
// Options:
//   --force-install   run `npm ci` even when node_modules looks up to date
//   --skip-build      stop after installing dependencies
//   --rebuild-index   rebuild build/index even when it matches the committed model
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

const args = new Set(process.argv.slice(2));
const sharedDir = path.resolve(root, '..', 'shared');
const dataDir = path.join(sharedDir, 'data');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

class SetupError extends Error {}

function fail(msg) {
  throw new SetupError(msg);
}

function run(cmd, cmdArgs, opts = {}) {
  console.log(`$ ${cmd} ${cmdArgs.join(' ')}`);
  const r = spawnSync(cmd, cmdArgs, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.error) fail(`${cmd} could not be started: ${r.error.message}`);
  if (r.status !== 0) fail(`${cmd} ${cmdArgs.join(' ')} exited with ${r.status ?? r.signal}`);
}

/**
 * Why node_modules needs (re)installing, or undefined when it matches package-lock.json:
 * every non-optional package in the lockfile must be installed at its locked version, and
 * every workspace link must exist.
 */
function installStaleness() {
  if (!fs.existsSync('node_modules')) return 'node_modules is missing';
  if (!fs.existsSync('package-lock.json')) return undefined; // nothing to compare against
  let lock;
  try {
    lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
  } catch (e) {
    return `package-lock.json is unreadable (${e.message})`;
  }
  const packages = lock.packages ?? {};
  for (const [key, entry] of Object.entries(packages)) {
    if (!key.includes('node_modules/')) continue; // the root and the workspace folders themselves
    if (entry.optional) continue; // platform-specific packages (e.g. @esbuild/*) may be absent
    if (entry.link) {
      if (!fs.existsSync(key)) return `workspace link ${key} is missing`;
      continue;
    }
    let installed;
    try {
      installed = JSON.parse(fs.readFileSync(path.join(key, 'package.json'), 'utf8')).version;
    } catch {
      return `${key} is not installed`;
    }
    if (entry.version && installed !== entry.version) {
      return `${key} is ${installed}, package-lock.json wants ${entry.version}`;
    }
  }
  return undefined;
}

const STEPS = [
  {
    name: 'check node',
    run() {
      const [major] = process.versions.node.split('.').map(Number);
      if (major < 20) fail(`Node >= 20 is required, this is ${process.version} (${process.execPath})`);
      console.log(`node ${process.version}`);
    },
  },
  {
    name: 'check shared data',
    run() {
      if (!fs.existsSync(dataDir) || !fs.statSync(dataDir).isDirectory()) {
        fail(
          `the shared data directory ${dataDir} does not exist.\n` +
            `MathSense expects the shared checkout next to this repository, at ../shared ` +
            `(so that ../shared/data resolves from ${root}). Clone or link it there and run ` +
            '`npm run setup` again.',
        );
      }
      const entries = fs.readdirSync(dataDir);
      if (entries.length === 0) fail(`${dataDir} is empty`);
      console.log(`${dataDir}: ${entries.join(', ')}`);
    },
  },
  {
    name: 'install dependencies',
    run() {
      const why = args.has('--force-install') ? '--force-install given' : installStaleness();
      if (!why) {
        console.log('node_modules is up to date with package-lock.json; skipping install');
        return;
      }
      console.log(`installing: ${why}`);
      const flags = ['--no-audit', '--no-fund'];
      if (fs.existsSync('package-lock.json')) run(npm, ['ci', ...flags]);
      else {
        console.log('no package-lock.json: falling back to `npm install`');
        run(npm, ['install', ...flags]);
      }
    },
  },
  {
    name: 'build',
    skip: () => (args.has('--skip-build') ? '--skip-build given' : undefined),
    run() {
      run(npm, ['run', 'build']);
      if (!fs.existsSync('server/dist/mathsense.cjs')) fail('build did not produce server/dist/mathsense.cjs');
    },
  },
  {
    // the committed models (models/, built by `npm run train`) must load; training is not part of setup
    name: 'check models',
    skip: () => (args.has('--skip-build') ? '--skip-build given' : undefined),
    run() {
      run(process.execPath, ['server/dist/mathsense.cjs', 'models', 'info', '--accelerator', 'cpu']);
    },
  },
  {
    // the bundled ProofWiki/MathD2/PlanetMath index (build/index, gitignored) from ../shared/data;
    // ~4 min on 2 busy cores the first time (encoding ~46k texts), far less again (the embeddings
    // are cached in .cache/index-embeddings)
    name: 'build index',
    skip: async () => {
      if (args.has('--skip-build')) return '--skip-build given';
      if (args.has('--rebuild-index')) return undefined;
      try {
        // the index carries the term ranker fitted at build time: changed features mean a rebuild
        // (the server's declared API: mathsense-server/api/index, compiled by the build step)
        const { usableTermRanker, INDEX_CONTENT_VERSION, FEATURES_VERSION } = await import('mathsense-server/api/index');
        const h = JSON.parse(fs.readFileSync('build/index/index.json', 'utf8'));
        const model = JSON.parse(fs.readFileSync('models/mathsense-encoder/config.json', 'utf8'));
        // the index carries a copy of the reference rankers: a refitted file means a rebuild
        let rankers = null;
        try { rankers = JSON.parse(fs.readFileSync('models/reference-ranker/ranker.json', 'utf8')); } catch { /* none: the index has none either */ }
        const sameRankers = JSON.stringify(h.referenceRankers ?? null) === JSON.stringify(rankers);
        // entries written by an older extraction (titles, equations) and equations analysed by an
        // older analyser (fingerprint keys, canonical text) are rebuilt too
        const sameContent = h.contentVersion === INDEX_CONTENT_VERSION && (h.equations == null || h.equations.featuresVersion === FEATURES_VERSION);
        if (h.modelVersion === model.version && h.stats?.slice == null && sameRankers && sameContent && usableTermRanker(h.termRanker)) return `build/index is current (model ${model.version}; --rebuild-index to rebuild)`;
      } catch { /* missing or unreadable: build */ }
      return undefined;
    },
    run() {
      // the offline package's index build (compiled by the build step)
      run(process.execPath, ['scripts/out/bin/index.js', 'build', '--data', dataDir]);
    },
  },
];

function fmt(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const timings = [];
const t0 = performance.now();
let failed;
for (const step of STEPS) {
  const skipReason = await step.skip?.();
  if (skipReason) {
    console.log(`\n== ${step.name}: skipped (${skipReason})`);
    timings.push([step.name, 'skipped']);
    continue;
  }
  console.log(`\n== ${step.name}`);
  const start = performance.now();
  try {
    await step.run();
  } catch (e) {
    const ms = performance.now() - start;
    timings.push([step.name, `FAILED after ${fmt(ms)}`]);
    failed = { step, error: e };
    break;
  }
  const ms = performance.now() - start;
  timings.push([step.name, fmt(ms)]);
  console.log(`== ${step.name}: done in ${fmt(ms)}`);
}

console.log('\nsetup timings:');
const width = Math.max(...timings.map(([n]) => n.length));
for (const [name, t] of timings) console.log(`  ${name.padEnd(width)}  ${t}`);
console.log(`  ${'total'.padEnd(width)}  ${fmt(performance.now() - t0)}`);

if (failed) {
  const msg = failed.error instanceof SetupError ? failed.error.message : failed.error?.stack ?? String(failed.error);
  console.error(`\nsetup failed in step "${failed.step.name}": ${msg}`);
  process.exit(1);
}
console.log('\nsetup complete');
