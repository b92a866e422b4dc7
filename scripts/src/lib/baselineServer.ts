// The server as it was at an earlier commit, compiled from the repository's own history into
// .cache/ (gitignored), with an index built by that commit's own code, so an evaluation can
// rank with "today's" behaviour beside the current one in the same run. Undefined (with the
// reason on stderr) when that commit is not in the clone (a shallow checkout).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * `{ out, index }`: the compiled `server/out` folder of `commit` and the folder of an index it
 * built from `dataDir` (built once; later runs reuse both).
 */
export function baselineServer(root: string, commit: string, dataDir: string, log = (m: string) => console.error(m)): { out: string; index: string } | undefined {
  const dir = path.join(root, '.cache', `baseline-server-${commit}`);
  const out = path.join(dir, 'server', 'out');
  const index = path.join(dir, 'index');
  if (!fs.existsSync(path.join(out, 'cli', 'main.js'))) {
    const has = spawnSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: root });
    if (has.status !== 0) { log(`baseline: commit ${commit} is not in this clone`); return undefined; }
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const archive = spawnSync('git', ['archive', '--format=tar', commit, 'server', 'tsconfig.base.json'], { cwd: root, maxBuffer: 512 * 1024 * 1024 });
    if (archive.status !== 0) { log(`baseline: git archive failed: ${archive.stderr}`); return undefined; }
    const tar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
    if (tar.status !== 0) { log(`baseline: tar failed: ${tar.stderr}`); return undefined; }
    // bare imports resolve from the repository's node_modules
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    log(`baseline: compiling ${commit}`);
    const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'server')], { stdio: 'inherit' });
    if (tsc.status !== 0) { log('baseline: tsc failed'); return undefined; }
  }
  if (!fs.existsSync(path.join(index, 'index.json'))) {
    log(`baseline: building ${commit}'s index (the embedding cache makes this short after the first time)`);
    const b = spawnSync(process.execPath, [path.join(out, 'cli', 'entry.js'), 'index', 'build', '--data', dataDir, '--index', index, '--quiet'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) { log('baseline: index build failed'); return undefined; }
  }
  return { out, index };
}
