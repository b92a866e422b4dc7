// The layering of ARCHITECTURE.md, read from the sources: a server module imports only from its
// own layer or the layers below, never from testing/ or the offline package (scripts/); the index
// has no import cycles; the offline package reaches the server only through its declared API
// (`exports` of server/package.json).
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths.js';

/** Lowest first; protocol/ and cli/ share the top, api/ re-exports for the offline package. */
const LAYERS = ['util', 'syntax', 'model', 'project', 'math', 'analysis', 'embeddings', 'index', 'features', ['cli', 'protocol'], 'api'];
const rank = (layer: string) => LAYERS.findIndex((l) => (Array.isArray(l) ? l.includes(layer) : l === layer));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(f));
    else if (e.name.endsWith('.ts')) out.push(f);
  }
  return out;
}

/** Module specifiers of static imports, re-exports and dynamic imports. */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const re = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  return [...text.matchAll(re)].map((m) => m[1] ?? m[2]);
}

const serverSrc = path.join(repoRoot, 'server', 'src');
const scriptsSrc = path.join(repoRoot, 'scripts', 'src');
const layerOf = (file: string) => path.relative(serverSrc, file).split(path.sep)[0];

describe('layers', () => {
  const modules = sources(serverSrc).filter((f) => !f.endsWith('.test.ts'));

  it('a server module imports its own layer or those below, never tests or the offline package', () => {
    const bad: string[] = [];
    for (const f of modules) {
      const from = layerOf(f);
      for (const s of specifiers(f)) {
        if (s === 'mathsense-offline' || s.startsWith('mathsense-offline/')) { bad.push(`${path.relative(serverSrc, f)} -> ${s}`); continue; }
        if (!s.startsWith('.')) continue;
        const target = path.resolve(path.dirname(f), s);
        if (!target.startsWith(serverSrc + path.sep)) { bad.push(`${path.relative(serverSrc, f)} -> ${s} (outside the server)`); continue; }
        const to = layerOf(target);
        // testing/ serves the tests: it may use any layer, and no module may use it
        if (from !== 'testing' && (to === 'testing' || rank(to) > rank(from))) bad.push(`${path.relative(serverSrc, f)} -> ${path.relative(serverSrc, target)}`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('the index has no import cycles', () => {
    const index = new Set(modules.filter((f) => layerOf(f) === 'index'));
    const deps = new Map([...index].map((f) => [f, specifiers(f).filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(f), s).replace(/\.js$/, '.ts')).filter((t) => index.has(t))]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, trail: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') { cycles.push([...trail.slice(trail.indexOf(f)), f].map((x) => path.basename(x)).join(' -> ')); return; }
      state.set(f, 'open');
      for (const d of deps.get(f) ?? []) visit(d, [...trail, f]);
      state.set(f, 'done');
    };
    for (const f of index) visit(f, []);
    assert.deepEqual(cycles, []);
  });

  it('the offline package imports the server only through the subpaths it exports', { skip: !fs.existsSync(scriptsSrc) && 'no scripts/src' }, () => {
    const exported = Object.keys((JSON.parse(fs.readFileSync(path.join(repoRoot, 'server', 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports);
    const bad: string[] = [];
    for (const f of sources(scriptsSrc)) {
      for (const s of specifiers(f)) {
        const where = path.relative(scriptsSrc, f);
        if (s.startsWith('mathsense-server')) { if (!exported.includes(`.${s.slice('mathsense-server'.length)}`)) bad.push(`${where} -> ${s} (not exported)`); }
        else if (s.startsWith('.') && !path.resolve(path.dirname(f), s).startsWith(scriptsSrc + path.sep)) bad.push(`${where} -> ${s} (outside the package)`);
      }
    }
    assert.deepEqual(bad, []);
  });
});
