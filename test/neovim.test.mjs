// Real-editor test: headless Neovim (0.7+) starts the bundled language server with its
// built-in LSP client on test/fixtures/nvim-project, opens chapters/two.tex, collects the
// published diagnostics, hovers a cross-file \cref, asks for folding ranges, highlights and
// document links, and renames a label with Neovim applying the edit (test/neovim/lsp_check.lua).
//
// Needs `nvim` on PATH (Debian: apt-get install neovim). Without it the test is skipped
// locally, but fails under CI (process.env.CI set) so that CI cannot silently lose it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = path.join(root, 'test/fixtures/nvim-project');
const script = path.join(root, 'test/neovim/lsp_check.lua');
const server = path.join(root, 'server/dist/mathsense.cjs');
const NVIM = process.env.NVIM_BIN || 'nvim';

function nvimVersion() {
  const r = spawnSync(NVIM, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0) return undefined;
  return r.stdout.split('\n')[0].trim();
}

/** 0-based line and character of the first occurrence of `needle` in a fixture file. */
function locate(rel, needle) {
  const lines = fs.readFileSync(path.join(fixture, rel), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `${needle} not found in ${rel}`);
  return { line, character: lines[line].indexOf(needle) };
}

test('neovim: diagnostics and cross-file hover through the built-in LSP client', { timeout: 120_000 }, (t) => {
  const version = nvimVersion();
  if (!version) {
    const why = `\`${NVIM}\` is not installed or does not run (Debian: apt-get install neovim)`;
    if (process.env.CI) assert.fail(`CI is set but ${why}; the real-editor test cannot run`);
    t.skip(why);
    return;
  }
  assert.ok(fs.existsSync(server), `${server} is missing: run \`npm run build\``);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-nvim-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const out = path.join(tmp, 'result.json');
  const r = spawnSync(NVIM, ['--headless', '--clean', '-c', `luafile ${script}`], {
    cwd: fixture,
    encoding: 'utf8',
    timeout: 90_000,
    killSignal: 'SIGKILL',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // keep Neovim's state, cache (lsp.log) and config out of the user's home
      XDG_CONFIG_HOME: path.join(tmp, 'config'),
      XDG_DATA_HOME: path.join(tmp, 'data'),
      XDG_STATE_HOME: path.join(tmp, 'state'),
      XDG_CACHE_HOME: path.join(tmp, 'cache'),
      MATHSENSE_SERVER: server,
      MATHSENSE_NODE: process.execPath,
      MATHSENSE_ROOT: fixture,
      MATHSENSE_FILE: 'chapters/two.tex',
      MATHSENSE_HOVER_AT: '\\cref{lem:pigeonhole}',
      MATHSENSE_OUT: out,
    },
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  if (r.error) assert.fail(`${version} failed to run: ${r.error.message}\n${output}`);
  assert.equal(r.status, 0, `${version} exited with ${r.status ?? r.signal}\n${output}`);
  assert.ok(fs.existsSync(out), `lsp_check.lua wrote no result file\n${output}`);
  const res = JSON.parse(fs.readFileSync(out, 'utf8'));
  const context = `\n${JSON.stringify(res, null, 2)}`;
  assert.equal(res.error, null, `lsp_check.lua failed: ${res.error}${context}`);
  assert.equal(res.server_info?.name, 'mathsense', context);

  // Diagnostics: exactly the deliberate undefined \ref, on the right line.
  const missing = locate('chapters/two.tex', 'thm:missing');
  assert.ok(res.publishes > 0, `no diagnostics were published${context}`);
  assert.equal(res.diagnostics.length, 1, `expected exactly one diagnostic${context}`);
  const [d] = res.diagnostics;
  assert.equal(d.code, 'undefined-ref', context);
  assert.equal(d.source, 'mathsense', context);
  assert.equal(d.severity, 1, `undefined-ref should be an error${context}`);
  assert.match(d.message, /thm:missing/, context);
  assert.equal(d.range.start.line, missing.line, context);
  assert.equal(d.range.end.line, missing.line, context);
  assert.ok(
    d.range.start.character <= missing.character && d.range.end.character >= missing.character + 'thm:missing'.length,
    `range should cover thm:missing at character ${missing.character}${context}`,
  );
  // and Neovim took them into its own diagnostic list
  assert.equal(res.nvim_diagnostics, 1, context);

  // Hover on \cref{lem:pigeonhole}: the lemma defined in chapters/one.tex, whose environment
  // (keylemma -> "Key Lemma") is declared by \newtheorem in main.tex.
  assert.equal(typeof res.hover, 'string', `no hover${context}`);
  assert.match(res.hover, /Key Lemma/, context);
  assert.match(res.hover, /Pigeonhole principle/, context);
  assert.match(res.hover, /some box contains at least two objects/, context);
  assert.match(res.hover, /one\.tex:7/, `hover should point at the label's file and line${context}`);

  // Folding ranges of chapters/two.tex: the section, to the end of the file.
  const twoLines = fs.readFileSync(path.join(fixture, 'chapters/two.tex'), 'utf8').trimEnd().split('\n').length;
  assert.deepEqual(res.folds.map((f) => [f.startLine, f.endLine]), [[0, twoLines - 1]], context);
  // Highlights at \cref{lem:pigeonhole}: both references in this file (the label is in one.tex).
  assert.deepEqual(res.highlights.map((h) => h.range.start.line), [locate('chapters/two.tex', 'lem:pigeonhole').line, locate('chapters/two.tex', '\\ref{lem:pigeonhole}').line], context);
  // Document links of main.tex: the two \input's, to their files.
  assert.deepEqual(res.links.map((l) => path.relative(fixture, fileURLToPath(l.target))).sort(), ['chapters/one.tex', 'chapters/two.tex'], context);
  // Rename of the label from a reference: both chapters, applied by Neovim to the definition.
  assert.deepEqual(res.rename_files, ['chapters/one.tex', 'chapters/two.tex'], context);
  assert.equal(res.renamed_label_line, locate('chapters/one.tex', 'lem:pigeonhole').line, context);
});
