// The real-world gate (`npm run test:real-world`, part of `npm run test:corpus`): every project of
// ../shared/data/latex-wild (real LaTeX nobody here wrote), plus the Stacks project and the
// HoTT book, is checked the way `mathsense check <folder>` checks it (the bundled CLI: root
// detection, includes, packages, derivation steps), and every error and warning must be in
// the committed ledger (test/real-world/ledger.json), read by hand and judged a real problem
// in the source, with the reason. A diagnostic not in the ledger fails the test, and so does
// a ledger entry nothing reports any more (the ledger stays exact). A false diagnostic is
// fixed at its cause; it never goes into the ledger. Prints a table per project.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'server/dist/mathsense.cjs');
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const data = path.join(shared, 'data');
const ledgerFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ledger.json');

/** The projects of the gate: every latex-wild folder, then Stacks and HoTT. */
function projects() {
  const wild = path.join(data, 'latex-wild');
  const out = fs.readdirSync(wild, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => ({ name: e.name, dir: path.join(wild, e.name) }));
  out.sort((a, b) => a.name.localeCompare(b.name));
  for (const name of ['stacks-project', 'hott-book']) out.push({ name, dir: path.join(data, 'latex', name) });
  return out;
}

const SEVERITY = { 1: 'error', 2: 'warning' };

function table(rows) {
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r, k) => {
    const line = '| ' + r.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |';
    return k === 0 ? `${line}\n|${w.map((n) => '-'.repeat(n + 2)).join('|')}|` : line;
  }).join('\n');
}

const keyOf = (e) => `${e.project}\u0000${e.file}\u0000${e.line}\u0000${e.code}`;

test('real-world gate: every error and warning on real projects is in the ledger, read and judged real', { timeout: 900_000, skip: !fs.existsSync(path.join(data, 'latex-wild')) && `no ${path.join(data, 'latex-wild')}` }, () => {
  assert.ok(fs.existsSync(cli), `${cli} missing: run npm run build`);
  const ledger = JSON.parse(fs.readFileSync(ledgerFile, 'utf8'));
  for (const e of ledger.entries) {
    for (const k of ['project', 'file', 'line', 'code', 'reason']) assert.ok(e[k] !== undefined && e[k] !== '', `ledger entry without ${k}: ${JSON.stringify(e)}`);
  }
  const expected = new Map();
  for (const e of ledger.entries) expected.set(keyOf(e), (expected.get(keyOf(e)) ?? 0) + 1);
  const rows = [['project', 'files', 'errors', 'warnings', 'by code', 'ledger hits', 'unexplained', 'information']];
  const unexplained = [];
  const seen = new Map();
  let totalFiles = 0;
  for (const p of projects()) {
    const r = spawnSync(process.execPath, [cli, 'check', '--format', 'json', p.dir], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 600_000 });
    assert.ok(r.status === 0 || r.status === 1, `check ${p.name} exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
    const diags = JSON.parse(r.stdout);
    const files = Number((/^(\d+) documents? checked/m.exec(r.stderr) ?? [])[1] ?? 0);
    totalFiles += files;
    const byCode = {};
    let errors = 0, warnings = 0, hits = 0, info = 0, bad = 0;
    for (const d of diags) {
      if (d.severity !== 1 && d.severity !== 2) { info++; continue; }
      if (d.severity === 1) errors++; else warnings++;
      byCode[d.code] = (byCode[d.code] ?? 0) + 1;
      const file = path.relative(p.dir, path.resolve(d.file)).split(path.sep).join('/');
      const entry = { project: p.name, file, line: d.range.start.line + 1, code: d.code };
      const k = keyOf(entry);
      const used = seen.get(k) ?? 0;
      if (used < (expected.get(k) ?? 0)) { hits++; seen.set(k, used + 1); } else { bad++; unexplained.push(`${p.name}/${file}:${entry.line}: ${SEVERITY[d.severity]} [${d.code}] ${d.message}`); }
    }
    rows.push([p.name, files, errors, warnings, Object.entries(byCode).map(([c, n]) => `${c} ${n}`).join(', ') || '-', hits, bad, info]);
  }
  const total = rows.slice(1).reduce((t, r) => t.map((x, i) => (i === 0 ? 'total' : i === 4 ? '' : x + r[i])), ['total', 0, 0, 0, '', 0, 0, 0]);
  total[1] = totalFiles;
  rows.push(total);
  console.log(`\nReal-world gate (ledger: ${ledger.entries.length} entries)\n\n${table(rows)}\n`);
  const stale = [];
  for (const [k, n] of expected) for (let i = seen.get(k) ?? 0; i < n; i++) stale.push(k.split('\u0000'));
  if (unexplained.length) console.log(`Unexplained (${unexplained.length}):\n${unexplained.map((u) => `- ${u}`).join('\n')}\n`);
  if (stale.length) console.log(`Ledger entries no longer reported (${stale.length}):\n${stale.map(([p, f, l, c]) => `- ${p}/${f}:${l} [${c}]`).join('\n')}\n`);
  assert.deepEqual(unexplained, [], 'errors or warnings that are not in the ledger: fix their cause, or read them and add them with the reason they are real');
  assert.deepEqual(stale.map(([p, f, l, c]) => `${p}/${f}:${l} [${c}]`), [], 'ledger entries nothing reports any more: remove them');
});
