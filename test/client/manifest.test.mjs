// The extension manifest: what the Marketplace and VS Code read before any code runs. The
// Marketplace rejects SVG icons, so the icon is a PNG (rendered from media/mathsense.svg).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

test('manifest: the icon is a square PNG of at least 128 px inside the package', () => {
  const icon = fs.readFileSync(path.join(root, manifest.icon));
  assert.deepEqual([...icon.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const width = icon.readUInt32BE(16);
  const height = icon.readUInt32BE(20);
  assert.equal(width, height);
  assert.ok(width >= 128, `icon is ${width}px`);
});

test('manifest: activation on LaTeX, TeX and Markdown; every contributed command has a title', () => {
  for (const lang of ['latex', 'tex', 'markdown']) assert.ok(manifest.activationEvents.includes(`onLanguage:${lang}`), lang);
  for (const c of manifest.contributes.commands) assert.ok(c.command.startsWith('mathsense.') && c.title, c.command);
});

test('manifest: the Getting started walkthrough\'s steps have their pages, and every command they run exists', () => {
  const [w] = manifest.contributes.walkthroughs;
  assert.ok(w && w.steps.length >= 4);
  const commands = new Set(manifest.contributes.commands.map((c) => c.command));
  for (const s of w.steps) {
    assert.ok(fs.existsSync(path.join(root, s.media.markdown)), s.media.markdown);
    for (const m of s.description.matchAll(/\(command:(mathsense\.[A-Za-z]+)/g)) assert.ok(commands.has(m[1]), m[1]);
  }
});

test('manifest: settings that may differ per folder are resource-scoped, and every overlapping provider can be switched off', () => {
  const props = manifest.contributes.configuration.properties;
  for (const k of ['mathsense.hover.references', 'mathsense.hover.citations', 'mathsense.hover.candidateProofs', 'mathsense.hover.terms', 'mathsense.completion.labels', 'mathsense.completion.citations', 'mathsense.outline.enabled', 'mathsense.diagnostics.duplicateLabels', 'mathsense.relatedEquations.lens']) {
    assert.ok(props[k], k);
    assert.equal(props[k].scope, 'resource', k);
  }
});
