// The one declaration of the settings (ext/settings.ts) against package.json's
// contributes.configuration, and the server's parsing against the declaration: every setting the
// server reads changes what it does, a malformed value takes the default, and switching the
// neighbour switches off turns those features off.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../testing/paths.js';
import { SETTINGS, readSetting, type SettingKey } from '../ext/settings.js';
import { libraryFolders, parseSettings } from './settings.js';

const keys = Object.keys(SETTINGS) as SettingKey[];
const props: Record<string, { type: string; default: unknown; enum?: string[]; scope?: string; deprecationMessage?: string; markdownDeprecationMessage?: string }> =
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).contributes.configuration.properties;

/** Sets the key `a.b` in a settings section: `{a: {b: v}}`. */
function setAt(raw: Record<string, unknown>, key: string, v: unknown): Record<string, unknown> {
  const parts = key.split('.');
  let o = raw;
  for (const part of parts.slice(0, -1)) o = (o[part] ??= {}) as Record<string, unknown>;
  o[parts[parts.length - 1]] = v;
  return raw;
}
const section = (key: string, v: unknown) => setAt({}, key, v);

test('package.json contributes exactly the declared settings, with their type, default, values and scope', () => {
  assert.deepEqual(Object.keys(props).sort(), keys.map((k) => `mathsense.${k}`).sort());
  for (const k of keys) {
    const p = props[`mathsense.${k}`];
    const d = SETTINGS[k];
    assert.equal(p.type, d.type, k);
    assert.deepEqual(p.default, d.default, k);
    assert.deepEqual(p.enum, 'enum' in d ? d.enum : undefined, k);
    // VS Code's default scope is `window`
    assert.equal(p.scope ?? 'window', d.scope, k);
    assert.equal(!!(p.deprecationMessage ?? p.markdownDeprecationMessage), 'deprecated' in d, k);
  }
});

test('every setting the server reads changes the parsed settings; malformed values take the default', () => {
  const defaults = parseSettings(undefined);
  assert.deepEqual(parseSettings({}), defaults);
  for (const k of keys) {
    const d = SETTINGS[k];
    if ('client' in d) continue;
    const other = d.type === 'boolean' ? !d.default : d.type === 'array' ? ['proofwiki'] : 'enum' in d ? d.enum.find((v) => v !== d.default) : '/some/path';
    assert.notDeepEqual(parseSettings(section(k, other)), defaults, `${k} = ${JSON.stringify(other)} is read`);
    assert.deepEqual(parseSettings(section(k, 42)), defaults, `${k} = 42 takes the default`);
    assert.deepEqual(readSetting(section(k, other), k), other);
  }
});

test('the neighbour switches off: reference and citation hovers, label and citation completion, the outline, duplicate labels', () => {
  const off: Record<string, unknown> = {};
  for (const k of keys) if ('neighbour' in SETTINGS[k]) setAt(off, k, false);
  const s = parseSettings(off);
  assert.deepEqual(
    { ...s.providers, duplicateLabels: s.diagnostics.duplicateLabels },
    { referenceHover: false, citationHover: false, candidateProofHover: true, termHover: true, labelCompletion: false, citationCompletion: false, outline: false, duplicateLabels: false },
  );
});

test('library folders: relative to the workspace folder, ~ from home, a scaled store by its lancedb: name; empty entries dropped', () => {
  assert.deepEqual(libraryFolders(['papers', '/abs/lib', '~/mine', 'lancedb:s3://bucket/lib', '  '], '/work/paper'), ['/work/paper/papers', '/abs/lib', path.join(os.homedir(), 'mine'), 'lancedb:s3://bucket/lib']);
  assert.deepEqual(parseSettings({ library: ['refs'] }, '/w').library.folders, ['/w/refs']);
});
