// The derivation checker as it was at an earlier commit, bundled from the repository's own
// history into .cache/ (gitignored), so an evaluation can run it beside today's checker in
// the same run on the same blocks. Undefined when that commit is not in the clone (a shallow
// checkout): the evaluation then says so instead of comparing.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DerivationChecker, macroSignature, mathBlocks, scopeMacros } from 'mathsense-server/api/math';

/** The checker's entry points, as the bundle exports them (the evaluation calls both checkers alike). */
export interface CheckerApi {
  DerivationChecker: typeof DerivationChecker;
  mathBlocks: typeof mathBlocks;
  scopeMacros: typeof scopeMacros;
  macroSignature: typeof macroSignature;
}

/**
 * `{ DerivationChecker, mathBlocks, scopeMacros, macroSignature }` of `commit`'s
 * server/src/math, or undefined (with the reason on stderr).
 */
export async function baselineChecker(root: string, commit: string): Promise<CheckerApi | undefined> {
  const dir = path.join(root, '.cache', `baseline-checker-${commit}`);
  const bundle = path.join(dir, 'checker.mjs');
  if (!fs.existsSync(bundle)) {
    const has = spawnSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: root });
    if (has.status !== 0) { console.error(`baseline checker: commit ${commit} is not in this clone`); return undefined; }
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const archive = spawnSync('git', ['archive', '--format=tar', commit, 'server/src'], { cwd: root, maxBuffer: 512 * 1024 * 1024 });
    if (archive.status !== 0) { console.error(`baseline checker: git archive failed: ${archive.stderr}`); return undefined; }
    const tar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
    if (tar.status !== 0) { console.error(`baseline checker: tar failed: ${tar.stderr}`); return undefined; }
    const esbuild = await import('esbuild');
    await esbuild.build({
      stdin: {
        contents: "export { DerivationChecker } from './math/checker.ts';\nexport { mathBlocks, scopeMacros, macroSignature } from './math/blocks.ts';\n",
        resolveDir: path.join(dir, 'server', 'src'),
        loader: 'ts',
      },
      bundle: true, platform: 'node', target: 'node20', format: 'esm', outfile: bundle, packages: 'external', logLevel: 'warning',
      nodePaths: [path.join(root, 'node_modules')],
    });
    // bare imports (the compute engine) resolve from the repository's node_modules, above .cache
  }
  return import(pathToFileURL(bundle).href);
}
