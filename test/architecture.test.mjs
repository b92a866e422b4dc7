// The rules ARCHITECTURE.md states about the code's shape, checked on the sources:
// * the layer table (the fenced `layers` block under "## Layers"): a module of server/src imports
//   only from its own layer and the layers below; every folder of server/src is in the table;
// * no import cycle among the server's modules (type-only imports count: a cycle of types is
//   still two modules that cannot be understood apart);
// * testing/ is for tests; the server never imports the offline package or the client;
// * the client and the offline package reach the server only through the subpaths its
//   package.json `exports` declares;
// * ARCHITECTURE.md stays short and names only modules and folders that exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SERVER = path.join(root, 'server/src');

/** The layer table: rows of folder names, top first. */
function layerTable() {
  const md = fs.readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
  const block = /^## Layers\b[\s\S]*?^```layers\n([\s\S]*?)^```/m.exec(md);
  assert.ok(block, 'ARCHITECTURE.md has a ```layers block under "## Layers"');
  const rows = [];
  for (const line of block[1].split('\n')) {
    const folders = [];
    for (const tok of line.trim().split(/\s+/)) {
      const m = /^([a-z]+)\/$/.exec(tok);
      if (!m) break;
      folders.push(m[1]);
    }
    if (folders.length) rows.push(folders);
  }
  return rows;
}

/** Every .ts module under dir (tests apart when `tests` is false). */
function modules(dir, { tests = false } = {}) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && (tests || !e.name.endsWith('.test.ts'))) out.push(f);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** Import specifiers of a module: static, type-only, re-exports and dynamic imports. */
function importsOf(file) {
  return ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
}

/** A relative specifier resolved to the .ts file it names. */
function resolveTs(from, spec) {
  return path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts');
}

const rel = (f) => path.relative(root, f);
const folderOf = (f) => path.relative(SERVER, f).split(path.sep)[0];

test('every folder of server/src is in the layer table', () => {
  const listed = new Set(layerTable().flat());
  const folders = fs.readdirSync(SERVER, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  const missing = folders.filter((f) => f !== 'testing' && !listed.has(f));
  assert.deepEqual(missing, [], `folders not in ARCHITECTURE.md's layer table: ${missing.join(', ')}`);
});

test('server modules import only from their own layer and the layers below', () => {
  const rank = new Map();
  layerTable().forEach((row, i) => { for (const f of row) rank.set(f, i); });
  const violations = [];
  for (const file of modules(SERVER)) {
    const from = folderOf(file);
    for (const spec of importsOf(file)) {
      if (/^mathsense-(offline|client)(\/|$)/.test(spec)) { violations.push(`${rel(file)} imports ${spec}: the server never depends on the packages beside it`); continue; }
      if (!spec.startsWith('.')) continue;
      const target = resolveTs(file, spec);
      if (!target.startsWith(SERVER + path.sep)) { violations.push(`${rel(file)} imports ${spec}, outside the server`); continue; }
      const to = folderOf(target);
      if (to === 'testing' && from !== 'testing') { violations.push(`${rel(file)} imports test support ${rel(target)}`); continue; }
      if (from === 'testing' || to === from) continue;
      if (!rank.has(from) || !rank.has(to)) continue; // reported by the test above
      if (rank.get(to) < rank.get(from)) violations.push(`${rel(file)} (${from}/) imports ${rel(target)} (${to}/), a layer above`);
    }
  }
  assert.deepEqual(violations, [], `imports against the layer table:\n${violations.join('\n')}`);
});

test('no import cycle among the server modules', () => {
  const files = modules(SERVER);
  const known = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f).filter((s) => s.startsWith('.')).map((s) => resolveTs(f, s)).filter((t) => known.has(t))]));
  // Tarjan's strongly connected components: every component of more than one module is a cycle
  let counter = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), cycles = [];
  const visit = (v) => {
    index.set(v, counter); low.set(v, counter); counter++;
    stack.push(v); onStack.add(v);
    for (const w of edges.get(v)) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const comp = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); comp.push(rel(w)); } while (w !== v);
      if (comp.length > 1) cycles.push(comp.sort().join(' ↔ '));
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join('\n')}`);
});

/** The subpaths the server package declares (`mathsense-server/<subpath>`). */
function declaredExports() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'server/package.json'), 'utf8'));
  return new Set(Object.keys(pkg.exports ?? {}).map((k) => (k === '.' ? 'mathsense-server' : `mathsense-server/${k.replace(/^\.\//, '')}`)));
}

for (const [pkg, dir] of [['client', 'client/src'], ['offline package', 'scripts/src']]) {
  test(`the ${pkg} reaches the server only through its declared exports`, () => {
    const src = path.join(root, dir);
    const allowed = declaredExports();
    const violations = [];
    for (const file of modules(src, { tests: true })) {
      for (const spec of importsOf(file)) {
        if (spec.startsWith('.') && !resolveTs(file, spec).startsWith(src + path.sep)) violations.push(`${rel(file)} imports ${spec}, outside ${dir}`);
        if (/(^|\/)server\/(out|src|dist)\b/.test(spec)) violations.push(`${rel(file)} imports the server's internals: ${spec}`);
        if (spec.startsWith('mathsense-server') && !allowed.has(spec)) violations.push(`${rel(file)} imports ${spec}, which server/package.json does not export`);
      }
    }
    assert.deepEqual(violations, [], violations.join('\n'));
  });
}

test('the rules see real imports (the checks cannot pass vacuously)', () => {
  const server = modules(SERVER);
  assert.ok(server.length > 100, `found ${server.length} server modules`);
  assert.ok(importsOf(path.join(SERVER, 'protocol/server.ts')).some((s) => s.startsWith('../session/')), 'protocol/server.ts imports the session');
  assert.ok(layerTable().length >= 8, 'the layer table has its rows');
  assert.ok(declaredExports().has('mathsense-server/protocol'), 'the custom protocol is exported');
});

test('one macro expander: only syntax/macroExpander.ts writes out macro parameters (#1..#9)', () => {
  const expander = path.join(SERVER, 'syntax/macroExpander.ts');
  // a parameter substituted by hand: `.replace(/#(` or `.replace(/#([1-9])` on a body or template
  const bySubstitution = /\.replace\(\s*\/#\(/;
  const found = modules(SERVER).concat(modules(path.join(root, 'scripts/src'))).filter((f) => f !== expander && bySubstitution.test(fs.readFileSync(f, 'utf8')));
  assert.deepEqual(found.map(rel), []);
  assert.ok(bySubstitution.test(fs.readFileSync(expander, 'utf8')), 'the expander itself is seen by the rule');
});

/** The layers below protocol/ (every row of the table but the first). */
function belowProtocol() {
  const rows = layerTable();
  assert.ok(rows[0].includes('protocol'), 'the first row is the protocol layer');
  return new Set(rows.slice(1).flat());
}

test('no LSP connection or protocol types below the protocol layer: session/, features/ and what they build on use only LSP data types', () => {
  const below = belowProtocol();
  const violations = [];
  for (const file of modules(SERVER)) {
    if (!below.has(folderOf(file))) continue;
    for (const spec of importsOf(file)) {
      if (/^vscode-languageserver(-protocol)?(\/|$)/.test(spec)) violations.push(`${rel(file)} imports ${spec}`);
    }
  }
  assert.deepEqual(violations, [], violations.join('\n'));
});

test('no stateful services in features/: nothing outside it constructs a class features/ declares', () => {
  const classes = new Map();
  for (const file of modules(path.join(SERVER, 'features'))) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/^export class (\w+)/gm)) classes.set(m[1], rel(file));
  }
  const violations = [];
  for (const file of modules(SERVER)) {
    if (folderOf(file) === 'features' || folderOf(file) === 'testing') continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bnew (\w+)\s*[(<]/g)) if (classes.has(m[1])) violations.push(`${rel(file)} constructs ${m[1]} (${classes.get(m[1])}): a long-lived service belongs to session/ or its domain's layer`);
  }
  assert.deepEqual(violations, [], violations.join('\n'));
});

test('ARCHITECTURE.md stays a map: at most 15 KB, and every module or folder it names exists', () => {
  const md = fs.readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
  assert.ok(Buffer.byteLength(md) <= 15000, `ARCHITECTURE.md is ${Buffer.byteLength(md)} bytes; long notes belong in docs/`);
  const named = [];
  const missing = [];
  for (const m of md.matchAll(/`([^`\s]+)`/g)) {
    const name = m[1].replace(/#.*$/, '');
    // paths only: not wildcards, placeholders (x.ts), packages or LSP methods (mathsense/status)
    if (!name.includes('/') || /[*<>]/.test(name) || /^(mathsense|vscode)-|^mathsense\/|^@/.test(name) || /(^|\/)x\.ts$/.test(name)) continue;
    const base = /^(scripts|client|test|docs|server|models|media)\//.test(name) ? root : SERVER;
    named.push(name);
    if (!fs.existsSync(path.join(base, name))) missing.push(m[1]);
  }
  assert.ok(named.length > 40, `the check sees the paths ARCHITECTURE.md names (${named.length})`);
  assert.deepEqual(missing, [], `ARCHITECTURE.md names paths that do not exist: ${missing.join(', ')}`);
});
