// The table of diagnostic codes against what it must agree with: the settings the editor offers
// (package.json), the codes README documents, and the gate, which publishes each code by its row.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../testing/paths.js';
import { Workspace } from '../../project/workspace.js';
import { CODES, diagnostic, ruleOf, type DiagnosticCode } from './codes.js';
import { publishable, type PublishFacts } from './publishGate.js';

const codes = Object.keys(CODES) as DiagnosticCode[];

test('every setting a code names is one package.json contributes, and a boolean', () => {
  const props = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).contributes.configuration.properties;
  for (const code of codes) {
    const setting = ruleOf(code)!.setting;
    if (setting) assert.equal(props[setting]?.type, 'boolean', `${code}: ${setting}`);
  }
});

test('README names every code', () => {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  assert.deepEqual(codes.filter((c) => !readme.includes(`\`${c}\``)), []);
});

test('the gate publishes each code by what its row says it rests on', () => {
  const doc = new Workspace().open('file:///a.tex', 'latex', 1, 'x');
  const facts = (over: Partial<PublishFacts>): PublishFacts => ({ macroSource: false, compiled: true, projectLoading: false, ...over });
  for (const code of codes) {
    const rule = ruleOf(code)!;
    const c = [{ diagnostic: diagnostic(code, doc.range(0, 1), 'm') }];
    assert.equal(publishable(c, facts({})).diagnostics.length, 1, `${code} when everything is known`);
    assert.equal(publishable(c, facts({ compiled: false })).diagnostics.length, rule.needs.includes('compiled') ? 0 : 1, `${code} in a file no root compiles`);
    const loading = publishable(c, facts({ projectLoading: true }));
    assert.equal(loading.heldBack, rule.needs.includes('whole-project'), `${code} while the project loads`);
    assert.equal(publishable(c, facts({ macroSource: true })).diagnostics.length, rule.inMacroSources ? 1 : 0, `${code} in a .sty file`);
  }
});

test('a diagnostic takes its severity from the table unless its producer lowers it', () => {
  const doc = new Workspace().open('file:///a.tex', 'latex', 1, 'x');
  assert.equal(diagnostic('undefined-ref', doc.range(0, 1), 'm').severity, 1);
  assert.equal(diagnostic('undefined-ref', doc.range(0, 1), 'm', { severity: 'information' }).severity, 3);
  assert.equal(diagnostic('unused-label', doc.range(0, 1), 'm').severity, 4);
  assert.equal(diagnostic('missing-include', doc.range(0, 1), 'm').source, 'mathsense');
});
