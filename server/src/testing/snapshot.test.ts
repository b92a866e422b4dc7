// The inline snapshot helper: raw escapes, normalization, the diff of a mismatch, and the
// rewrite of snapshots in a TypeScript source (a temporary test module compiled with a source
// map and run as the real tests run, with and without UPDATE_SNAPSHOTS=1).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { check, escapeRaw, expect, lineDiff, normalize, snapshotLiteral, unescapeRaw } from './snapshot.js';

test('raw snapshots: TeX backslashes stay, \\` and \\${ are the only escapes', () => {
  assert.equal(expect`\ref{a} \\ \$x\$`.text, String.raw`\ref{a} \\ \$x\$`);
  assert.equal(expect`a \`code\` and \${x}`.text, 'a `code` and ${x}');
  for (const s of ['\\ref{x}', 'a `b` c', 'cost ${x}', '\\\\', 'ends with \\', '']) assert.equal(unescapeRaw(escapeRaw(s)), s);
  // a backslash before a backtick has no raw spelling
  assert.throws(() => escapeRaw('\\`'), /cannot be written/);
  assert.throws(() => (expect as (s: TemplateStringsArray, ...v: unknown[]) => unknown)(Object.assign(['a', 'b'], { raw: ['a', 'b'] }), 1), /no \$\{…\} substitutions/);
});

test('normalization: surrounding blank lines, trailing spaces and common indentation are not compared', () => {
  assert.equal(normalize('\n\n    a  \n      b\n\n    c\n  \n'), 'a\n  b\n\nc');
  check('a\n  b', expect`
    a
      b
  `);
  check('one line', expect`one line`);
  check('', expect``);
  // trailing spaces of the actual text are shown (a Markdown line break), the snapshot's are not
  check('**Name**  \nnext\t\n', expect`
    **Name**␠␠
    next␉
  `);
});

test('literal layout: a short line inline, anything else indented under the call', () => {
  assert.equal(snapshotLiteral('x `y`', '    '), 'x \\`y\\`');
  assert.equal(snapshotLiteral('a\n\n  b', '  '), '\n    a\n\n      b\n  ');
  assert.equal(snapshotLiteral('x'.repeat(61), ''), `\n  ${'x'.repeat(61)}\n`);
  // a trailing backslash would escape the closing backtick inline
  assert.equal(snapshotLiteral('a \\', ''), '\n  a \\\n');
});

test('a mismatch fails with a line diff and the way to update', () => {
  assert.equal(lineDiff('a\nb\nc', 'a\nB\nc\nd'), '  a\n- b\n+ B\n  c\n+ d');
  const saved = process.env.UPDATE_SNAPSHOTS;
  delete process.env.UPDATE_SNAPSHOTS;
  try {
    assert.throws(() => check('first\nsecond', expect`
      first
      third
    `), (e: Error) => e instanceof assert.AssertionError && e.message.includes('  first\n- third\n+ second') && e.message.includes('UPDATE_SNAPSHOTS=1'));
    // a Markdown line break is a difference
    assert.throws(() => check('**Name**  \nnext', expect`
      **Name**
      next
    `), /snapshot mismatch[\s\S]*\+ \*\*Name\*\*␠␠/);
  } finally {
    if (saved !== undefined) process.env.UPDATE_SNAPSHOTS = saved;
  }
});

const snapshotModule = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'snapshot.js')).href;

/** A test module as written by a person: a stale snapshot, a missing one, one up to date, a nested one. */
const SOURCE = `import { check, expect } from '${snapshotModule}';

const lines = ['\\\\section{Intro}', 'see \`code\` and \${x}'].join('\\n');
check('fresh', expect\`stale\`);
check(lines, expect\`\`);
check('same', expect\`same\`);
function nested(): void {
    if (lines) {
        check('a\\n  b', expect\`
          old
        \`);
    }
}
nested();
`;

const UPDATED = `import { check, expect } from '${snapshotModule}';

const lines = ['\\\\section{Intro}', 'see \`code\` and \${x}'].join('\\n');
check('fresh', expect\`fresh\`);
check(lines, expect\`
  \\section{Intro}
  see \\\`code\\\` and \\\${x}
\`);
check('same', expect\`same\`);
function nested(): void {
    if (lines) {
        check('a\\n  b', expect\`
          a
            b
        \`);
    }
}
nested();
`;

test('UPDATE_SNAPSHOTS=1 rewrites the snapshots in the .ts source of a compiled test; then it passes', () => {
  const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-snap-'));
  try {
    fs.mkdirSync(path.join(dir, 'src'));
    fs.mkdirSync(path.join(dir, 'out'));
    fs.writeFileSync(path.join(dir, 'out', 'package.json'), '{"type":"module"}');
    const tsFile = path.join(dir, 'src', 'x.test.ts');
    const jsFile = path.join(dir, 'out', 'x.test.js');
    // compiled the way tsc -b compiles the tests: out/ beside src/, a .map naming ../src/x.test.ts
    const compile = (): void => {
      const r = ts.transpileModule(fs.readFileSync(tsFile, 'utf8'), {
        fileName: tsFile,
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, sourceMap: true },
      });
      const map = JSON.parse(r.sourceMapText!) as { sources: string[] };
      map.sources = ['../src/x.test.ts'];
      fs.writeFileSync(jsFile, r.outputText.replace(/\/\/# sourceMappingURL=.*/, '//# sourceMappingURL=x.test.js.map'));
      fs.writeFileSync(`${jsFile}.map`, JSON.stringify(map));
    };
    const run = (update: boolean) => spawnSync(process.execPath, [jsFile], {
      encoding: 'utf8', env: { ...process.env, UPDATE_SNAPSHOTS: update ? '1' : '' },
    });
    fs.writeFileSync(tsFile, SOURCE);
    compile();
    const failing = run(false);
    assert.notEqual(failing.status, 0);
    assert.match(failing.stderr, /snapshot mismatch[\s\S]*- stale\n\+ fresh/);
    assert.equal(fs.readFileSync(tsFile, 'utf8'), SOURCE);
    const updating = run(true);
    assert.equal(updating.status, 0, updating.stderr);
    assert.equal(fs.readFileSync(tsFile, 'utf8'), UPDATED);
    assert.equal(updating.stderr.match(/updated snapshot .*x\.test\.ts:\d+/g)?.length, 3);
    compile();
    const passing = run(false);
    assert.equal(passing.status, 0, passing.stderr);
    // a source edited after compiling: the snapshot is not found, nothing is written
    fs.writeFileSync(tsFile, SOURCE);
    compile();
    fs.writeFileSync(tsFile, SOURCE.replace('expect`stale`', 'expect`edited`'));
    const stale = run(true);
    assert.notEqual(stale.status, 0);
    assert.match(stale.stderr, /snapshot not found in .*x\.test\.ts near line 4/);
    assert.equal(fs.readFileSync(tsFile, 'utf8'), SOURCE.replace('expect`stale`', 'expect`edited`'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
