// Installs code-server 4.100.3 (VS Code 1.100.3 in a browser) for the end-to-end suite into
// .cache/code-server/, following ../shared/notes/feasibility.md: ripgrep pre-seeded from Debian's
// `rg` (code-server's postinstall would download it), install scripts allowed for code-server's
// own native modules (npm 11 blocks dependency install scripts by default). Idempotent: returns
// at once when code-server is already installed. Needs apt packages libkrb5-dev libsecret-1-dev
// libxkbfile-dev ripgrep chromium (.ci/run installs them).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const installDir = path.join(root, '.cache', 'code-server');
export const codeServerBin = path.join(installDir, 'node_modules', '.bin', 'code-server');

function installedVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(installDir, 'node_modules', 'code-server', 'package.json'), 'utf8')).version;
  } catch { return undefined; }
}

const ready = () => installedVersion() === CODE_SERVER_VERSION
  && fs.existsSync(path.join(installDir, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules', 'node-pty', 'build', 'Release', 'pty.node'));

/** Seeds @vscode/ripgrep's download cache with Debian's rg, so its postinstall stays offline. */
function seedRipgrep() {
  const rg = ['/usr/bin/rg', '/bin/rg'].find((p) => fs.existsSync(p));
  if (!rg) throw new Error('ripgrep is not installed (apt-get install ripgrep)');
  const dir = path.join(os.tmpdir(), 'vscode-ripgrep-cache-1.15.11');
  const tarball = path.join(dir, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (fs.existsSync(tarball)) return;
  fs.mkdirSync(dir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rg-seed-'));
  fs.copyFileSync(rg, path.join(tmp, 'rg'));
  fs.chmodSync(path.join(tmp, 'rg'), 0o755);
  const r = spawnSync('tar', ['czf', tarball, '-C', tmp, 'rg'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('could not create the ripgrep cache tarball');
}

export function ensureCodeServer({ log = console.log } = {}) {
  if (ready()) return codeServerBin;
  if (process.arch !== 'x64' || process.platform !== 'linux') throw new Error(`the e2e setup supports linux-x64 only (this is ${process.platform}-${process.arch})`);
  seedRipgrep();
  fs.mkdirSync(installDir, { recursive: true });
  fs.writeFileSync(path.join(installDir, 'package.json'), JSON.stringify({
    name: 'mathsense-e2e-code-server', private: true,
    // npm >= 11.? runs dependency install scripts only when allowed here
    allowScripts: { 'code-server': true, argon2: true },
  }, null, 2) + '\n');
  log(`installing code-server@${CODE_SERVER_VERSION} into ${path.relative(root, installDir)} (a few minutes)`);
  const env = {
    ...process.env,
    npm_config_yes: 'true', npm_config_unsafe_perm: 'true', npm_config_fund: 'false', npm_config_audit: 'false',
    // code-server's postinstall runs `npm install` inside lib/vscode, whose native modules
    // (node-pty, spdlog, watcher, …) need their install scripts too
    npm_config_dangerously_allow_all_scripts: 'true',
    // compile native modules locally: node-pre-gyp/prebuild-install would try GitHub first
    npm_config_build_from_source: 'true',
  };
  const r = spawnSync('npm', ['install', '--no-save', '--foreground-scripts', `code-server@${CODE_SERVER_VERSION}`], { cwd: installDir, stdio: 'inherit', env, timeout: 25 * 60_000 });
  if (r.status !== 0) throw new Error(`npm install code-server@${CODE_SERVER_VERSION} failed (exit ${r.status ?? r.signal})`);
  if (!ready()) {
    // older npm ran the scripts already; newer npm may have skipped them: run them explicitly
    const rb = spawnSync('npm', ['rebuild', '--foreground-scripts', 'code-server', 'argon2'], { cwd: installDir, stdio: 'inherit', env, timeout: 25 * 60_000 });
    if (rb.status !== 0 || !ready()) throw new Error('code-server is installed but its postinstall did not complete (lib/vscode/node_modules/node-pty missing)');
  }
  return codeServerBin;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(`code-server ready: ${ensureCodeServer()}`);
  } catch (e) {
    console.error(`e2e setup failed: ${e.message}`);
    process.exit(1);
  }
}
