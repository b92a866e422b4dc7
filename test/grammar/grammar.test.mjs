// The injection grammar (syntaxes/latex-math.injection.tmLanguage.json) tokenized with VS Code's
// own engine (vscode-textmate + vscode-oniguruma, pinned): theorem-like environment names,
// label definitions and references get their scopes; other environments and comments do not.
// The host grammar is a minimal stand-in for VS Code's `text.tex.latex` (comments only), which
// is enough to check the injection selector `L:text.tex.latex -comment -string`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import vsctm from 'vscode-textmate';
import oniguruma from 'vscode-oniguruma';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const injectionPath = path.join(root, 'syntaxes', 'latex-math.injection.tmLanguage.json');

const hostGrammar = {
  scopeName: 'text.tex.latex',
  patterns: [{ name: 'comment.line.percentage.tex', match: '(?<!\\\\)%.*$' }],
};

async function registry() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  return new vsctm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (s) => new oniguruma.OnigScanner(s), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scope) => {
      if (scope === 'text.tex.latex') return vsctm.parseRawGrammar(JSON.stringify(hostGrammar), 'latex.json');
      if (scope === 'mathsense.latex.injection') return vsctm.parseRawGrammar(fs.readFileSync(injectionPath, 'utf8'), injectionPath);
      return null;
    },
    getInjections: (scope) => (scope === 'text.tex.latex' ? ['mathsense.latex.injection'] : undefined),
  });
}

/** [text, scopes] for every token of every line. */
async function tokenize(text) {
  const grammar = await (await registry()).loadGrammar('text.tex.latex');
  let state = vsctm.INITIAL;
  const out = [];
  for (const line of text.split('\n')) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) out.push([line.slice(t.startIndex, t.endIndex), t.scopes]);
    state = r.ruleStack;
  }
  return out;
}

const scopesOf = (tokens, text) => tokens.filter(([t]) => t === text).map(([, s]) => s);

test('the injection grammar scopes theorem names, labels and references in a fixture', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const entry = manifest.contributes.grammars.find((g) => g.scopeName === 'mathsense.latex.injection');
  assert.ok(entry && fs.existsSync(path.join(root, entry.path)), 'package.json contributes the injection grammar');
  assert.deepEqual(entry.injectTo, ['text.tex.latex']);

  const tokens = await tokenize(fs.readFileSync(path.join(root, 'test', 'grammar', 'fixtures', 'sample.tex'), 'utf8'));
  assert.ok(scopesOf(tokens, 'theorem').every((s) => s.includes('entity.name.type.theorem.mathsense')));
  assert.equal(scopesOf(tokens, 'theorem').length, 2, '\\begin{theorem} and \\end{theorem}');
  assert.ok(scopesOf(tokens, 'lemma*')[0]?.includes('entity.name.type.theorem.mathsense'), 'starred forms');
  assert.ok(scopesOf(tokens, '\\begin')[0].includes('support.function.be.latex'));
  assert.ok(scopesOf(tokens, 'thm:gauss')[0].includes('entity.name.label.mathsense'));
  assert.ok(scopesOf(tokens, '\\label')[0].includes('keyword.control.label.latex'));
  assert.ok(scopesOf(tokens, 'lem:a,lem:b')[0].includes('variable.other.reference.mathsense'), 'cleveref list');
  assert.ok(scopesOf(tokens, '\\cref')[0].includes('keyword.control.ref.latex'));
  assert.ok(scopesOf(tokens, 'eq:sum')[0].includes('variable.other.reference.mathsense'));
  // not theorem-like: no theorem scope
  const all = tokens.filter(([t]) => t.includes('itemize'));
  assert.ok(all.length > 0 && all.every(([, s]) => !s.includes('entity.name.type.theorem.mathsense')));
  // inside a comment the injection does not apply
  const comment = tokens.filter(([, s]) => s.includes('comment.line.percentage.tex'));
  assert.ok(comment.length > 0);
  assert.ok(comment.every(([, s]) => !s.includes('entity.name.label.mathsense')));
  assert.ok(!tokens.some(([t, s]) => t === 'commented' && s.includes('entity.name.label.mathsense')));
});
