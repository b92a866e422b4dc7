// Runs the real bundled CLI (server/dist/mathsense.cjs) on fixture folders and on the HoTT
// book: output formats, exit codes, usage errors.
import { after, before, describe, it } from 'node:test';
import { LspClient } from '../protocol/lspClient.js';
import * as assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..', '..');
const bundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');
const sharedRoot = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(repoRoot, '..', 'shared');
const hottMain = path.join(sharedRoot, 'data', 'latex', 'hott-book', 'main.tex');

function mathsense(args: string[], cwd: string): SpawnSyncReturns<string> {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw r.error;
  return r;
}

const TEXT_LINE = /^(.+):(\d+):(\d+): (error|warning|information|hint): (.+) \[([a-z-]+)\]$/;
const SEVERITY: Record<string, number> = { error: 1, warning: 2, information: 3, hint: 4 };

interface JsonDiagnostic {
  file: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code: string;
  source: string;
  message: string;
}

/** 1-based line and column of the `occurrence`-th `needle` (shifted by `delta`) in `text`. */
function lineCol(text: string, needle: string, delta = 0, occurrence = 0): { line: number; col: number } {
  let at = -1;
  for (let k = 0; k <= occurrence; k++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `'${needle}' not found`);
  }
  const before = text.slice(0, at + delta);
  return { line: before.split('\n').length, col: at + delta - before.lastIndexOf('\n') };
}

const CLEAN_MAIN = String.raw`\documentclass{article}
\usepackage{amsthm}
\newtheorem{lemma}{Lemma}
\begin{document}
\input{part}
By \ref{lem:one}, done.
\end{document}
`;

const CLEAN_PART = String.raw`\section{Part}\label{sec:part}
\begin{lemma}\label{lem:one}
$x = x$.
\end{lemma}
See \ref{sec:part}.
`;

const BROKEN = String.raw`\documentclass{article}
\begin{document}
\section{One}\label{sec:one}
Text \ref{sec:one} and \ref{nope}.
\begin{itemize}
\item open list
\label{twice}\label{twice}
\end{document}
`;

const WARN_ONLY = String.raw`\documentclass{article}
\begin{document}
\begin{center}
never closed
\end{document}
`;

describe('mathsense check (bundled CLI)', { timeout: 300_000 }, () => {
  let dir: string;

  before(() => {
    assert.ok(fs.existsSync(bundle), `${bundle} missing: run node scripts/build.mjs`);
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-cli-')));
    fs.mkdirSync(path.join(dir, 'clean'));
    fs.writeFileSync(path.join(dir, 'clean', 'main.tex'), CLEAN_MAIN);
    fs.writeFileSync(path.join(dir, 'clean', 'part.tex'), CLEAN_PART);
    fs.mkdirSync(path.join(dir, 'broken'));
    fs.writeFileSync(path.join(dir, 'broken', 'main.tex'), BROKEN);
    fs.mkdirSync(path.join(dir, 'warn'));
    fs.writeFileSync(path.join(dir, 'warn', 'main.tex'), WARN_ONLY);
    fs.writeFileSync(path.join(dir, 'binary.tex'), Buffer.from([0x5c, 0x00, 0x01, 0x02, 0x00, 0xff]));
    fs.mkdirSync(path.join(dir, 'empty'));
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 with no output for a clean project (text and JSON)', () => {
    const r = mathsense(['check', 'clean/main.tex'], dir);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^2 documents checked: 0 errors, 0 other diagnostics\n$/);
    const j = mathsense(['check', '--format', 'json', 'clean/main.tex'], dir);
    assert.equal(j.status, 0, j.stderr);
    assert.deepEqual(JSON.parse(j.stdout), []);
    // the whole folder, as a directory argument
    const d = mathsense(['check', 'clean'], dir);
    assert.equal(d.status, 0, d.stderr);
    assert.equal(d.stdout, '');
  });

  it('text format: `path:line:col: severity: message [code]`, 1-based, exit 1 on errors', () => {
    const r = mathsense(['check', 'broken/main.tex'], dir);
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines.pop(), '', 'output ends with a newline');
    for (const l of lines) assert.match(l, TEXT_LINE);
    const file = path.join('broken', 'main.tex');
    const nope = lineCol(BROKEN, 'nope');
    const twice1 = lineCol(BROKEN, 'twice', 0, 0);
    const twice2 = lineCol(BROKEN, 'twice', 0, 1);
    const itemize = lineCol(BROKEN, '\\begin{itemize}');
    const expected = [
      `${file}:${nope.line}:${nope.col}: error: Undefined reference: no \\label{nope} in this project [undefined-ref]`,
      `${file}:${twice1.line}:${twice1.col}: error: Duplicate label 'twice' (also at main.tex:${twice2.line}) [duplicate-label]`,
      `${file}:${twice2.line}:${twice2.col}: error: Duplicate label 'twice' (also at main.tex:${twice1.line}) [duplicate-label]`,
    ];
    for (const e of expected) assert.ok(lines.includes(e), `missing line:\n${e}\nin:\n${r.stdout}`);
    // the unclosed itemize is reported as a warning on its \begin
    const unclosed = lines.filter((l) => l.endsWith('[unclosed-environment]'));
    assert.equal(unclosed.length, 1, r.stdout);
    const m = TEXT_LINE.exec(unclosed[0])!;
    assert.equal(m[1], file);
    assert.equal(Number(m[2]), itemize.line);
    assert.equal(m[4], 'warning');
    assert.match(r.stderr, /^1 document checked: 3 errors, 1 other diagnostic\n$/);
  });

  it('JSON format: array of {file, range (0-based), severity, code, source, message}, same content as text', () => {
    const r = mathsense(['check', '--format=json', 'broken/main.tex'], dir);
    assert.equal(r.status, 1, r.stderr);
    // stdout is the JSON alone; the summary line goes to stderr as in the text format
    assert.match(r.stderr, /^1 document checked: 3 errors, 1 other diagnostic\n$/);
    const diags = JSON.parse(r.stdout) as JsonDiagnostic[];
    assert.ok(Array.isArray(diags));
    assert.equal(diags.length, 4);
    for (const d of diags) {
      for (const k of ['code', 'file', 'message', 'range', 'severity', 'source']) assert.ok(k in d, `${k} in ${JSON.stringify(d)}`);
      assert.equal(typeof d.file, 'string');
      assert.equal(typeof d.severity, 'number');
      assert.equal(d.source, 'mathsense');
      for (const p of [d.range.start, d.range.end]) {
        assert.ok(Number.isInteger(p.line) && p.line >= 0);
        assert.ok(Number.isInteger(p.character) && p.character >= 0);
      }
    }
    const nope = diags.find((d) => d.code === 'undefined-ref')!;
    const at = lineCol(BROKEN, 'nope');
    assert.deepEqual(nope.range, { start: { line: at.line - 1, character: at.col - 1 }, end: { line: at.line - 1, character: at.col - 1 + 4 } });
    assert.equal(nope.severity, 1);
    assert.equal(nope.file, path.join('broken', 'main.tex'));
    // text and JSON agree, position for position
    const text = mathsense(['check', 'broken/main.tex'], dir).stdout.trimEnd().split('\n');
    const fromJson = diags.map((d) => {
      const sev = Object.keys(SEVERITY).find((k) => SEVERITY[k] === d.severity);
      return `${d.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${sev}: ${d.message} [${d.code}]`;
    });
    assert.deepEqual(fromJson, text);
  });

  it('warnings alone exit 0; --unused-labels adds hints', () => {
    const w = mathsense(['check', 'warn/main.tex'], dir);
    assert.equal(w.status, 0, w.stderr);
    assert.match(w.stdout, /: warning: .*\[unclosed-environment\]\n$/);
    const plain = mathsense(['check', 'clean'], dir);
    assert.equal(plain.stdout, '');
    const r = mathsense(['check', '--unused-labels', '--format', 'json', 'clean'], dir);
    assert.equal(r.status, 0, r.stderr);
    const diags = JSON.parse(r.stdout) as JsonDiagnostic[];
    // lem:one and sec:part are both referenced: nothing is unused
    assert.deepEqual(diags, []);
    // a document of its own (a file nobody compiles has no knowable references: no hint there)
    const EXTRA = '\\documentclass{article}\n\\section{Extra}\\label{sec:extra}\n';
    fs.writeFileSync(path.join(dir, 'clean', 'extra.tex'), EXTRA);
    try {
      const u = mathsense(['check', '--unused-labels', 'clean/extra.tex'], dir);
      assert.equal(u.status, 0, u.stderr);
      const pos = lineCol(EXTRA, 'sec:extra');
      assert.equal(u.stdout, `${path.join('clean', 'extra.tex')}:${pos.line}:${pos.col}: hint: Label 'sec:extra' is never referenced [unused-label]\n`);
    } finally {
      fs.rmSync(path.join(dir, 'clean', 'extra.tex'));
    }
  });

  it('usage errors exit 2', () => {
    const cases: Array<{ args: string[]; stderr: RegExp }> = [
      { args: ['check', '--bogus', 'clean/main.tex'], stderr: /unknown option --bogus/ },
      { args: ['check'], stderr: /no file or folder given/ },
      { args: ['check', 'does-not-exist.tex'], stderr: /no such file or folder: does-not-exist\.tex/ },
      { args: ['check', '--format', 'xml', 'clean/main.tex'], stderr: /--format must be text or json/ },
      { args: ['check', '--format=xml', 'clean/main.tex'], stderr: /--format must be text or json/ },
      { args: ['check', 'clean/main.tex', '--format'], stderr: /--format must be text or json/ },
      { args: ['check', 'binary.tex'], stderr: /cannot read .*binary\.tex: binary file/ },
      { args: ['frobnicate'], stderr: /unknown command 'frobnicate'/ },
      { args: [], stderr: /^$/ },
      { args: ['lsp', '--bogus'], stderr: /mathsense lsp: unknown option --bogus/ },
      { args: ['check', 'empty'], stderr: /no documents \(\.tex, \.ltx, \.md\) in empty/ },
    ];
    for (const c of cases) {
      const r = mathsense(c.args, dir);
      assert.equal(r.status, 2, `mathsense ${c.args.join(' ')}: exit ${r.status}\n${r.stderr}`);
      assert.match(r.stderr, c.stderr, `mathsense ${c.args.join(' ')}`);
      if (c.args[0] === 'check' && c.args.length > 1) assert.equal(r.stdout, '', 'nothing analysed is printed on a usage error');
    }
    const help = mathsense(['check', '--help'], dir);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: mathsense/);
  });

  it('`lsp` without a transport speaks stdio (the usage line shows --stdio as optional)', async () => {
    const client = new LspClient({ bundle, args: ['lsp'] });
    try {
      const init = await client.initialize(undefined);
      assert.ok(init.capabilities.hoverProvider);
      assert.deepEqual(await client.stop(), { code: 0, signal: null });
    } finally {
      client.kill();
    }
  });

  it('a missing path among valid ones still fails the run', () => {
    // a typo in one of several paths must not let a CI run pass silently
    const r = mathsense(['check', 'clean/main.tex', 'no-such-file.tex'], dir);
    assert.match(r.stderr, /no such file or folder: no-such-file\.tex/);
    assert.equal(r.status, 2, `exit ${r.status} although a requested file does not exist`);
  });

  it('prints its version', () => {
    const r = mathsense(['--version'], dir);
    assert.equal(r.status, 0);
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'server', 'package.json'), 'utf8')) as { version: string };
    assert.equal(r.stdout, `mathsense ${pkg.version}\n`);
    assert.equal(mathsense(['-v'], dir).stdout, r.stdout);
  });

  it('a single chapter is checked in the project the editor finds: a parent\'s %!TEX root, a root folders up, not above .git', () => {
    const files: Record<string, string> = {
      'book/main.tex': '\\documentclass{book}\n\\begin{document}\n\\input{chapters/ch1/intro}\n\\input{chapters/ch2/body}\n\\end{document}\n',
      'book/chapters/ch1/intro.tex': '\\chapter{Intro}\\label{ch:intro}\nSee \\ref{thm:main}.\n',
      'book/chapters/ch2/body.tex': '%!TEX root = ../../main.tex\n\\chapter{Body}\n\\begin{theorem}\\label{thm:main}x\\end{theorem}\n\\input{sub/part}\n',
      'book/chapters/ch2/sub/part.tex': '\\section{Part}\nSee \\ref{ch:intro} and \\ref{sec:none}.\n',
      // the root is above the repository holding the chapter: not searched
      'outer/main.tex': '\\documentclass{article}\n\\begin{document}\n\\section{Outer}\\label{sec:outer}\n\\input{repo/a/b/c}\n\\end{document}\n',
      'outer/repo/a/b/c.tex': 'See \\ref{sec:outer}.\n',
    };
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.join(dir, path.dirname(name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    fs.mkdirSync(path.join(dir, 'outer', 'repo', '.git'));
    const lines = (r: SpawnSyncReturns<string>) => r.stdout.trim().split('\n').filter(Boolean).map((l) => l.replace(/ \[[a-z-]+\]$/, ''));
    const part = mathsense(['check', '--no-derivations', 'book/chapters/ch2/sub/part.tex'], dir);
    assert.deepEqual(lines(part), ['book/chapters/ch2/sub/part.tex:2:29: error: Undefined reference: no \\label{sec:none} in this project']);
    const intro = mathsense(['check', '--no-derivations', 'book/chapters/ch1/intro.tex'], dir);
    assert.equal(intro.status, 0, intro.stdout);
    assert.deepEqual(lines(intro), []);
    const c = mathsense(['check', '--no-derivations', 'outer/repo/a/b/c.tex'], dir);
    // no root is found for it: a file no root compiles has no knowable references
    assert.deepEqual(lines(c), []);
  });

  it('the HoTT book checks clean: exit 0, zero errors', { skip: !fs.existsSync(hottMain) && `HoTT book not found at ${hottMain}` }, () => {
    const hottDir = path.dirname(hottMain);
    const r = mathsense(['check', 'main.tex'], hottDir);
    assert.equal(r.status, 0, `${r.stdout.slice(0, 3000)}\n${r.stderr}`);
    const m = /^(\d+) documents checked: (\d+) errors?, (\d+) other/m.exec(r.stderr);
    assert.ok(m, r.stderr);
    assert.ok(Number(m[1]) >= 10, `documents checked: ${m[1]}`);
    assert.equal(Number(m[2]), 0);
    assert.ok(!/: error: /.test(r.stdout), r.stdout.slice(0, 3000));
    const j = mathsense(['check', '--format', 'json', hottMain], repoRoot);
    assert.equal(j.status, 0);
    const diags = JSON.parse(j.stdout) as JsonDiagnostic[];
    assert.deepEqual(diags.filter((d) => d.severity === 1), []);
  });
});

it('mathsense library add|index|info|search|remove on a folder of papers (keyword search, no encoder needed)', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-cli-library-'));
  const lib = path.join(home, 'papers');
  fs.mkdirSync(path.join(lib, '2203.04567'), { recursive: true });
  fs.writeFileSync(path.join(lib, '2203.04567', 'paper.tex'), '\\documentclass{amsart}\n\\newtheorem{theorem}{Theorem}\n\\title{Sums of squares}\n\\begin{document}\n\\begin{theorem}\\label{thm:two}\nEvery prime congruent to one modulo four is a sum of two squares.\n\\end{theorem}\nFor instance\n\\[ (u+v)^2 = u^2 + 2uv + v^2 \\]\n\\end{document}\n');
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache') };
  const run = (args: string[]) => spawnSync(process.execPath, [bundle, 'library', ...args], { cwd: home, encoding: 'utf8', timeout: 120_000, env });
  try {
    const added = run(['add', lib, '--no-vectors']);
    assert.equal(added.status, 0, added.stderr);
    assert.match(added.stdout, /1 papers, 1 entries \(1 added.*keyword search only/);
    const info = run(['info', '--json']);
    assert.equal(info.status, 0, info.stderr);
    assert.deepEqual((JSON.parse(info.stdout) as Array<{ folder: string; papers: number }>).map((i) => [i.folder, i.papers]), [[lib, 1]]);
    const found = run(['search', '--json', '--limit', '3', 'prime sum of two squares']);
    assert.equal(found.status, 0, found.stderr);
    const hits = JSON.parse(found.stdout) as Array<{ file: string; line: number; arxiv: string; name: string; number: string; title: string }>;
    assert.deepEqual([hits[0].file, hits[0].line, hits[0].arxiv, hits[0].name, hits[0].number, hits[0].title], [path.join(lib, '2203.04567', 'paper.tex'), 5, '2203.04567', 'Theorem', '1', 'Sums of squares']);
    const text = run(['search', 'two squares']);
    assert.match(text.stdout, /paper\.tex:5 {2}Theorem 1 — Sums of squares/);
    // how to cite it from a project's bibliography: its entry when one is the paper, else a new one
    fs.writeFileSync(path.join(home, 'refs.bib'), '@article{fermat, title = {Sums of squares}, eprint = {2203.04567}}\n');
    const cited = JSON.parse(run(['search', '--json', '--bib', path.join(home, 'refs.bib'), 'two squares']).stdout) as Array<{ cite: string; bibtex?: string }>;
    assert.deepEqual([cited[0].cite, cited[0].bibtex], ['\\cite[Theorem~1]{fermat}', undefined]);
    fs.writeFileSync(path.join(home, 'refs.bib'), '@article{other, title = {Something else}}\n');
    const fresh = JSON.parse(run(['search', '--json', '--bib', path.join(home, 'refs.bib'), 'two squares']).stdout) as Array<{ cite: string; bibtex?: string }>;
    assert.match(fresh[0].bibtex ?? '', /^@misc\{\w+,\n {2}title = \{\{Sums of squares\}\},\n {2}year = \{2022\},\n {2}eprint = \{2203\.04567\}/);
    assert.match(fresh[0].cite, /^\\cite\[Theorem~1\]\{\w+\}$/);
    assert.equal(run(['search']).status, 2, 'a query is needed');
    // the library's displays in the related-equations search
    const eq = spawnSync(process.execPath, [bundle, 'search', '--kind', 'equation', '--library', lib, '--json', '(a+b)^2 = a^2 + 2ab + b^2'], { cwd: home, encoding: 'utf8', timeout: 120_000, env });
    assert.equal(eq.status, 0, eq.stderr);
    const rows = JSON.parse(eq.stdout) as Array<{ source: string; file?: string; line?: number; title?: string; paper?: string; same: boolean }>;
    const mine = rows.find((r) => r.source === 'library');
    assert.deepEqual(mine && [mine.file, mine.line, mine.title, mine.paper, mine.same], [path.join(lib, '2203.04567', 'paper.tex'), 9, 'Equation', 'Sums of squares', true], eq.stdout.slice(0, 600));
    const removed = run(['remove', lib]);
    assert.match(removed.stdout, /removed .*its index deleted/);
    const none = run(['search', 'two squares']);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /no library/);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
