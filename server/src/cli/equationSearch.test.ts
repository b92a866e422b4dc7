// The real bundled CLI: `mathsense search --kind equation` on the fixture workspace
// test/fixtures/related-equations (JSON shape kept stable for checks; readable text; exit codes
// as `mathsense search`; index hits: scripts/src/indexBuild/cli.test.ts).
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const bundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');
const fixture = path.join(repoRoot, 'test', 'fixtures', 'related-equations');

function cli(args: string[], cwd = repoRoot) {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', timeout: 300_000, cwd });
  if (r.error) throw r.error;
  return r;
}

describe('CLI: search --kind equation', { timeout: 600_000 }, () => {
  let tmp: string;
  let empty: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-cli-eq-'));
    empty = path.join(tmp, 'no-index');
    fs.mkdirSync(empty);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('--json: workspace hits {latex, score, file, line, label}, best first, twins in other letters first', () => {
    const r = cli(['search', '--kind', 'equation', '--in', fixture, '--index', empty, '--json', '(p+q)^2 = p^2 + 2pq + q^2']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /no index at .*searching .* only/);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    assert.ok(rows.length >= 2 && rows.length <= 20);
    for (const x of rows) {
      assert.deepEqual(Object.keys(x), ['latex', 'score', 'file', 'line', 'label', 'source', 'why', 'same']);
      assert.equal(typeof x.latex, 'string');
      assert.equal(typeof x.score, 'number');
      assert.ok(path.isAbsolute(x.file as string) && fs.existsSync(x.file as string));
      assert.ok(Number.isInteger(x.line) && (x.line as number) >= 1);
      assert.ok(x.label === null || typeof x.label === 'string');
      assert.equal(x.source, 'workspace');
    }
    // confirmed equivalents first, then by score
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].same === rows[i].same ? (rows[i - 1].score as number) >= (rows[i].score as number) : rows[i - 1].same === true);
    assert.deepEqual(rows.slice(0, 2).map((x) => x.label).sort(), ['eq:binomial-square', 'eq:square-of-sum']);
    assert.deepEqual(rows.slice(0, 2).map((x) => (x.why as { fingerprint?: string }).fingerprint), ['identity', 'identity']);
    assert.deepEqual(rows.slice(0, 2).map((x) => x.same), [true, true]);
    const top = rows.find((x) => x.label === 'eq:square-of-sum')!;
    assert.equal(top.file, path.join(fixture, 'chapters', 'analysis.tex'));
    assert.equal(top.line, 3);
    assert.equal(top.latex, '(x+y)^2 = x^2 + 2xy + y^2');
    // a note's equation, no label
    const gauss = JSON.parse(cli(['search', '--kind=equation', '--in', fixture, '--index', empty, '--json', '--limit', '2', '\\sum_{r=1}^{s} r = \\frac{s(s+1)}{2}']).stdout) as Array<Record<string, unknown>>;
    assert.equal(gauss.length, 2);
    assert.deepEqual(gauss.map((x) => path.basename(x.file as string)).sort(), ['algebra.tex', 'notes.md']);
    assert.ok(gauss.every((x) => x.label === null));
  });

  it('text: one readable line per result', () => {
    const r = cli(['search', '--kind', 'equation', '--in', fixture, '--index', empty, '--limit', '3', 'x^2 - 5x + 6 = 0']);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0], /^ 1\. 1\.000 {2}test\/fixtures\/related-equations\/chapters\/algebra\.tex:9 \\label\{eq:quadratic\} {2}x\^2 - 5x \+ 6 = 0 {2}\[same equation, (encoder 1\.00, )?structure 1\.00\]$/);
    assert.match(lines[1], /^ 2\. 0\.\d{3} {2}.*analysis\.tex:11 \\label\{eq:scaled-quadratic\} {2}2\\sq\{t\} - 10t = -12 {2}\[same equation, /);
  });

  it('usage errors exit 2; no index and no folder exit 1', () => {
    assert.equal(cli(['search', '--kind', 'equation', '--in', fixture, '--index', empty]).status, 2);
    assert.equal(cli(['search', '--kind', 'equation', '--limit', '0', 'x=1']).status, 2);
    assert.equal(cli(['search', '--kind', 'equation', '--bogus', 'x=1']).status, 2);
    assert.equal(cli(['search', '--kind', 'equation', '--in', path.join(tmp, 'nope'), 'x=1']).status, 2);
    const none = cli(['search', '--kind', 'equation', '--index', empty, '--json', 'x=1']);
    assert.equal(none.status, 1);
    assert.match(none.stderr, /no index at .*npm run index:build/);
  });
});
