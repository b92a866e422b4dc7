// The real corpora from ../shared/data: the whole HoTT book (loaded from main.tex, includes
// followed) and a handful of Stacks project chapters (cross-referenced through xr
// `\externaldocument[prefix-]{chapter}`). Counts are checked against independent regex counts
// over the raw files; references must resolve; a few labels and proofs are checked by hand.
//
// MATHSENSE_SHARED (the shared checkout, holding data/) or MATHSENSE_DATA (the data folder
// itself) override where the corpus is read from; without it the tests are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace, type Doc } from './workspace.js';
import { pathToUri, uriToPath } from './files.js';
import { computeDiagnostics } from '../features/diagnostics/documentDiagnostics.js';
import { labelTarget, proofTarget, statements } from '../analysis/structure.js';
import { sharedData } from '../testing/paths.js';


const DATA = sharedData;
const HOTT = path.join(DATA, 'latex', 'hott-book');
const STACKS = path.join(DATA, 'latex', 'stacks-project');
const SKIP_HOTT = fs.existsSync(path.join(HOTT, 'main.tex')) ? false : `no HoTT book at ${HOTT}`;
const SKIP_STACKS = fs.existsSync(path.join(STACKS, 'preamble.tex')) ? false : `no Stacks project at ${STACKS}`;

const STACKS_CHAPTERS = ['algebra', 'topology', 'schemes', 'morphisms', 'sets'];

// ---- independent regex analysis of raw files ----------------------------------------------

/** Drops `%` comments (an escaped `\%` is not one) and the bodies of comment/verbatim envs. */
function stripComments(text: string): string {
  const lines = text.split('\n').map((line) => {
    for (let i = 0; i < line.length; i++) {
      if (line[i] === '\\') i++;
      else if (line[i] === '%') return line.slice(0, i);
    }
    return line;
  });
  return lines.join('\n').replace(/\\begin\{(comment|verbatim)\}[\s\S]*?\\end\{\1\}/g, '');
}

function beginCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of stripComments(text).matchAll(/\\begin\s*\{([^{}\n]*)\}/g)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  return counts;
}

/** Theorem-like kinds defined by `\newtheorem{env}...{Title}` and `\defthm{env}{Title}{...}`. */
function theoremKinds(text: string): Map<string, string> {
  const kinds = new Map<string, string>();
  const t = stripComments(text);
  for (const m of t.matchAll(/\\newtheorem\*?\{([^{}#]+)\}(?:\[[^\]]*\])?\{([^{}]+)\}/g)) kinds.set(m[1], m[2]);
  for (const m of t.matchAll(/\\defthm\{([^{}]+)\}\{([^{}]+)\}/g)) kinds.set(m[1], m[2]);
  return kinds;
}

/** CPU milliseconds of this process since `since` (robust against other load on the machine). */
function cpuMs(since: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}

function fileName(doc: Doc): string {
  return path.basename(uriToPath(doc.uri) ?? doc.uri);
}

function byName(docs: Iterable<Doc>, name: string): Doc {
  for (const d of docs) if (fileName(d) === name) return d;
  throw new Error(`${name} not loaded`);
}

/** Statement counts per environment name, from the model. */
function statementCounts(ws: Workspace, doc: Doc): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of statements(ws, doc)) counts.set(s.env.name, (counts.get(s.env.name) ?? 0) + 1);
  return counts;
}

function labelOf(ws: Workspace, doc: Doc, name: string) {
  const l = doc.labelMap().get(name);
  assert.ok(l && l.length === 1, `label ${name} defined once in ${fileName(doc)} (found ${l?.length ?? 0})`);
  return { label: l[0], target: labelTarget(ws, doc, l[0]) };
}

// ---- HoTT book ----------------------------------------------------------------------------

test('corpus: HoTT book', { skip: SKIP_HOTT, timeout: 60_000 }, async (t) => {
  const cpu0 = process.cpuUsage();
  const ws = new Workspace();
  const readErrors: string[] = [];
  ws.onReadError = (uri, reason) => readErrors.push(`${uri}: ${reason}`);
  const main = ws.loadFile(path.join(HOTT, 'main.tex'));
  assert.ok(main, 'main.tex loads');
  const scope = ws.scope(main);
  const included = (fs.readFileSync(path.join(HOTT, 'main.tex'), 'utf8').match(/^\s*\\(?:include|input)\{([^}]+)\}/gm) ?? [])
    .map((s) => /\{([^}]+)\}/.exec(s)![1] + '.tex')
    .filter((f) => fs.existsSync(path.join(HOTT, f)));
  assert.ok(included.length >= 15, `main.tex includes ${included.length} existing chapters`);

  await t.test('includes are followed', () => {
    const names = new Set([...scope].map(fileName));
    for (const f of included) assert.ok(names.has(f), `${f} is in main.tex's scope`);
    assert.deepEqual(readErrors, []);
    for (const d of scope) {
      assert.deepEqual(ws.roots(d).map(fileName), ['main.tex'], `root of ${fileName(d)}`);
      assert.equal(ws.scope(d).size, scope.size, `${fileName(d)} sees the whole book`);
    }
  });

  await t.test('theorem-like environments per kind match a regex count', () => {
    const kinds = theoremKinds(fs.readFileSync(path.join(HOTT, 'macros.tex'), 'utf8'));
    assert.deepEqual([...kinds.keys()].sort(), ['axiom', 'cor', 'defn', 'eg', 'egs', 'ex', 'lem', 'notes', 'rmk', 'thm']);
    const registry = ws.theorems(main);
    for (const [env, title] of kinds) {
      assert.equal(registry.get(env)?.title, title, `registry knows ${env} as ${title}`);
    }
    const total = new Map<string, number>();
    for (const d of scope) {
      const model = statementCounts(ws, d);
      const raw = beginCounts(d.text);
      for (const name of model.keys()) assert.ok(kinds.has(name), `${fileName(d)}: ${name} is a theorem kind defined in macros.tex`);
      for (const env of kinds.keys()) {
        assert.equal(model.get(env) ?? 0, raw.get(env) ?? 0, `${fileName(d)}: number of ${env} environments`);
        total.set(env, (total.get(env) ?? 0) + (model.get(env) ?? 0));
      }
      assert.equal(d.envs().filter((e) => e.name === 'proof').length, raw.get('proof') ?? 0, `${fileName(d)}: proofs`);
    }
    // sanity: the book is big
    assert.ok((total.get('lem') ?? 0) > 150 && (total.get('thm') ?? 0) > 100, JSON.stringify([...total]));
  });

  await t.test('every \\ref and \\cref resolves (no undefined-ref diagnostics)', () => {
    let refs = 0;
    let crefs = 0;
    const undefinedRefs: string[] = [];
    for (const d of scope) {
      refs += d.refs().length;
      crefs += d.refs().filter((r) => r.cmd === 'cref' || r.cmd === 'Cref').length;
      for (const diag of computeDiagnostics(ws, d)) {
        if (diag.code === 'undefined-ref') undefinedRefs.push(`${fileName(d)}:${diag.range.start.line + 1} ${diag.message}`);
      }
      for (const r of d.refs()) assert.ok(ws.findLabel(d, r.name).length >= 1, `${fileName(d)}: ${r.name} resolves`);
    }
    assert.deepEqual(undefinedRefs, []);
    assert.ok(refs > 1500 && crefs > 1000, `refs ${refs}, crefs ${crefs}`);
  });

  await t.test('labels point at the right things', () => {
    const basics = byName(scope, 'basics.tex');
    const hlevels = byName(scope, 'hlevels.tex');
    // \begin{lem} is a Lemma through the \defthm{lem}{Lemma}{Lemmas} wrapper macro
    let { target } = labelOf(ws, basics, 'lem:opp');
    assert.equal(target.kind, 'theorem');
    assert.equal(target.displayName, 'Lemma');
    assert.equal(target.env?.name, 'lem');
    // the label's name says "thm", the environment says Lemma
    ({ target } = labelOf(ws, basics, 'thm:omg'));
    assert.equal(target.displayName, 'Lemma');
    ({ target } = labelOf(ws, basics, 'thm:EckmannHilton'));
    assert.equal(target.kind, 'theorem');
    assert.equal(target.displayName, 'Theorem');
    assert.equal(target.title, 'Eckmann--Hilton');
    ({ target } = labelOf(ws, basics, 'def:pointedtype'));
    assert.equal(target.displayName, 'Definition');
    ({ target } = labelOf(ws, basics, 'ex:basics:concat'));
    assert.equal(target.displayName, 'Exercise');
    ({ target } = labelOf(ws, basics, 'eq:Jconv'));
    assert.equal(target.kind, 'equation');
    assert.equal(target.env?.name, 'equation');
    // two labelled rows of one align
    const a = labelOf(ws, basics, 'eq:ap-to-apd').target;
    const b = labelOf(ws, basics, 'eq:apd-to-ap').target;
    assert.equal(a.kind, 'equation');
    assert.equal(a.env?.name, 'align');
    assert.ok(a.env && a.env === b.env, 'both rows belong to one environment');
    assert.deepEqual([a.row, b.row], [0, 1]);
    ({ target } = labelOf(ws, hlevels, 'sec:pushouts'));
    assert.equal(target.kind, 'section');
    assert.equal(target.displayName, 'Section');
    assert.equal(target.title, 'Colimits of \\texorpdfstring{$n$}{n}-types');
    ({ target } = labelOf(ws, hlevels, 'cha:hlevels'));
    assert.equal(target.kind, 'section');
    assert.equal(target.displayName, 'Chapter');
    // a \cref from another chapter lands in basics.tex
    const locs = ws.findLabel(hlevels, 'lem:opp');
    assert.equal(locs.length, 1);
    assert.ok(locs[0].doc === basics);
    assert.equal(locs[0].prefix, '');
  });

  await t.test('structure features run on every chapter', () => {
    let proofs = 0;
    let linked = 0;
    for (const d of scope) {
      statements(ws, d);
      for (const l of d.labels()) labelTarget(ws, d, l);
      d.envs().forEach((e, i) => {
        if (e.name !== 'proof') return;
        proofs++;
        const link = proofTarget(ws, d, i);
        if (link.via !== 'none') {
          linked++;
          assert.ok(link.statement && ws.theorems(link.statement.doc).get(link.statement.env.name), 'a proof links to a theorem-like environment');
        }
      });
    }
    // "Second proof" environments follow another proof and link to nothing by design
    assert.ok(proofs > 300 && linked / proofs > 0.95, `${linked} of ${proofs} proofs linked`);
  });

  const ms = cpuMs(cpu0);
  assert.ok(ms < 20_000, `HoTT corpus took ${ms.toFixed(0)} ms of CPU time`);
});

// ---- Stacks project -----------------------------------------------------------------------

test('corpus: Stacks project chapters', { skip: SKIP_STACKS, timeout: 90_000 }, async (t) => {
  const cpu0 = process.cpuUsage();
  const ws = new Workspace();
  const readErrors: string[] = [];
  ws.onReadError = (uri, reason) => readErrors.push(`${uri}: ${reason}`);
  const preamble = ws.loadFile(path.join(STACKS, 'preamble.tex'));
  assert.ok(preamble);
  const chapters = STACKS_CHAPTERS.map((c) => {
    const d = ws.loadFile(path.join(STACKS, c + '.tex'));
    assert.ok(d, `${c}.tex loads`);
    return d;
  });
  const preambleText = fs.readFileSync(path.join(STACKS, 'preamble.tex'), 'utf8');
  // xr prefixes, read independently: \externaldocument[algebra-]{algebra}
  const xr = new Map<string, string>();
  for (const m of stripComments(preambleText).matchAll(/\\externaldocument\[([^\]]+)\]\{([^}]+)\}/g)) xr.set(m[1], m[2] + '.tex');
  assert.ok(xr.size > 100, `${xr.size} xr prefixes`);

  await t.test('chapters include the preamble', () => {
    for (const d of chapters) {
      assert.ok(ws.children(d).includes(preamble), `${fileName(d)} inputs preamble.tex`);
      assert.ok(ws.scope(d).has(preamble));
    }
  });

  await t.test('no diagnostics at all, in particular every reference resolves', () => {
    for (const d of chapters) {
      const diags = computeDiagnostics(ws, d);
      assert.deepEqual(diags.map((x) => `${x.code} ${x.range.start.line + 1}: ${x.message}`), [], fileName(d));
    }
    assert.deepEqual(readErrors, []);
  });

  await t.test('local refs resolve locally, xr-prefixed refs resolve in the right chapter', () => {
    let local = 0;
    let external = 0;
    const loadedChapters = new Set(STACKS_CHAPTERS.map((c) => c + '.tex'));
    let toLoaded = 0;
    for (const d of chapters) {
      for (const r of d.refs()) {
        const locs = ws.findLabel(d, r.name);
        assert.ok(locs.length >= 1, `${fileName(d)}: \\ref{${r.name}} resolves`);
        // the longest xr prefix the name starts with (more-algebra- rather than more-)
        let prefix = '';
        for (const p of xr.keys()) if (r.name.startsWith(p) && p.length > prefix.length) prefix = p;
        const file = xr.get(prefix);
        if (file) {
          // exactly one target, in the chapter the prefix names, seen under that prefix
          assert.equal(locs.length, 1, `${fileName(d)}: \\ref{${r.name}} is unambiguous`);
          assert.equal(fileName(locs[0].doc), file, `${fileName(d)}: \\ref{${r.name}} lands in ${file}`);
          assert.equal(locs[0].prefix, prefix);
          assert.equal(locs[0].label.name, r.name.slice(prefix.length));
          external++;
          if (loadedChapters.has(file)) {
            toLoaded++;
            assert.ok(chapters.includes(locs[0].doc), 'the loaded chapter document itself is the target');
          }
        } else {
          assert.equal(locs.length, 1, `${fileName(d)}: \\ref{${r.name}} is unambiguous`);
          assert.ok(locs[0].doc === d, `${fileName(d)}: \\ref{${r.name}} is local (found in ${fileName(locs[0].doc)})`);
          assert.equal(locs[0].prefix, '');
          local++;
        }
      }
    }
    assert.ok(local > 2000 && external > 500 && toLoaded > 300, `local ${local}, external ${external}, to loaded chapters ${toLoaded}`);
    // the example from the brief: schemes.tex refers to morphisms.tex through morphisms-
    const schemes = byName(chapters, 'schemes.tex');
    const morphisms = byName(chapters, 'morphisms.tex');
    const refs = schemes.refs().filter((r) => r.name.startsWith('morphisms-'));
    assert.ok(refs.length > 0);
    for (const r of refs) assert.ok(ws.findLabel(schemes, r.name)[0].doc === morphisms, r.name);
  });

  await t.test('theorem-like environments per kind match a regex count', () => {
    const kinds = theoremKinds(preambleText);
    assert.deepEqual([...kinds.keys()].sort(), ['definition', 'example', 'exercise', 'lemma', 'proposition', 'remark', 'remarks', 'situation', 'theorem']);
    const registry = ws.theorems(chapters[0]);
    for (const [env, title] of kinds) assert.equal(registry.get(env)?.title, title);
    assert.equal(registry.get('remark')?.style, 'remark');
    assert.equal(registry.get('definition')?.style, 'definition');
    assert.equal(registry.get('lemma')?.style, 'plain');
    // every chapter in the workspace: the chosen ones and all those loaded through xr
    const docs = ws.all().filter((d) => d !== preamble);
    assert.ok(docs.length >= STACKS_CHAPTERS.length);
    const total = new Map<string, number>();
    for (const d of docs) {
      const model = statementCounts(ws, d);
      const raw = beginCounts(d.text);
      for (const env of new Set([...kinds.keys(), ...model.keys()])) {
        assert.equal(model.get(env) ?? 0, kinds.has(env) ? raw.get(env) ?? 0 : 0, `${fileName(d)}: number of ${env} environments`);
        total.set(env, (total.get(env) ?? 0) + (model.get(env) ?? 0));
      }
      assert.equal(d.envs().filter((e) => e.name === 'proof').length, raw.get('proof') ?? 0, `${fileName(d)}: proofs`);
    }
    if (docs.length > 100) {
      // the whole project was reached through xr: the data README's totals
      assert.ok((total.get('lemma') ?? 0) > 12000, JSON.stringify([...total]));
    }
  });

  await t.test('labels point at the right things', () => {
    const algebra = byName(chapters, 'algebra.tex');
    let { target } = labelOf(ws, algebra, 'equation-2ndex');
    assert.equal(target.kind, 'equation');
    assert.equal(target.displayName, 'Equation');
    assert.equal(target.env?.name, 'equation');
    ({ target } = labelOf(ws, algebra, 'definition-module-finite-type'));
    assert.equal(target.kind, 'theorem');
    assert.equal(target.displayName, 'Definition');
    ({ target } = labelOf(ws, algebra, 'theorem-chevalley'));
    assert.equal(target.displayName, 'Theorem');
    assert.equal(target.title, "Chevalley's Theorem");
    ({ target } = labelOf(ws, algebra, 'section-module-finite-type'));
    assert.equal(target.kind, 'section');
    assert.equal(target.displayName, 'Section');
    assert.equal(target.title, 'Finite modules and finitely presented modules');
    // every lemma-/proposition-/... label labels an environment of that kind
    const prefixKind: Record<string, string> = {
      lemma: 'Lemma', proposition: 'Proposition', theorem: 'Theorem', definition: 'Definition', remark: 'Remark', example: 'Example',
    };
    for (const d of chapters) {
      let n = 0;
      for (const l of d.labels()) {
        const k = prefixKind[l.name.slice(0, l.name.indexOf('-'))];
        if (k) { assert.equal(labelTarget(ws, d, l).displayName, k, `${fileName(d)}: ${l.name}`); n++; }
        if (l.name.startsWith('equation-')) assert.equal(labelTarget(ws, d, l).kind, 'equation', `${fileName(d)}: ${l.name}`);
        if (l.name.startsWith('section-') && l.name !== 'section-phantom') assert.equal(labelTarget(ws, d, l).kind, 'section', `${fileName(d)}: ${l.name}`);
      }
      assert.ok(n > 10, `${fileName(d)}: ${n} statement labels`);
    }
  });

  await t.test('proofs map to the statement right before them', () => {
    const algebra = byName(chapters, 'algebra.tex');
    const envs = algebra.envs();
    const proofs = envs.map((e, i) => ({ e, i })).filter((x) => x.e.name === 'proof');
    let checked = 0;
    for (const { e, i } of proofs.slice(0, 40)) {
      // independent: the raw text before \begin{proof} ends with \end{lemma|proposition|theorem}
      const before = algebra.text.slice(Math.max(0, e.start - 200), e.start);
      const m = /\\end\{(lemma|proposition|theorem)\}\s*$/.exec(before);
      const link = proofTarget(ws, algebra, i);
      assert.notEqual(link.via, 'none', `proof at line ${algebra.positionAt(e.start).line + 1} is linked`);
      if (!m) continue;
      assert.equal(link.via, 'adjacent');
      assert.ok(link.statement?.doc === algebra);
      assert.equal(link.statement?.env.name, m[1]);
      assert.equal(link.statement?.env.end, e.start - before.length + m.index + `\\end{${m[1]}}`.length);
      checked++;
    }
    assert.ok(checked >= 30, `${checked} proofs checked`);
    for (const d of chapters) {
      d.envs().forEach((env, i) => {
        if (env.name !== 'proof') return;
        const link = proofTarget(ws, d, i);
        if (link.statement) assert.ok(link.statement.env.end <= env.start || link.via === 'reference');
      });
    }
  });

  const ms = cpuMs(cpu0);
  assert.ok(ms < 20_000, `Stacks corpus took ${ms.toFixed(0)} ms of CPU time`);
});

test('corpus: a chapter opened in the editor keeps resolving through xr after edits', { skip: SKIP_STACKS, timeout: 60_000 }, () => {
  const ws = new Workspace();
  const file = path.join(STACKS, 'sets.tex');
  const text = fs.readFileSync(file, 'utf8');
  const uri = pathToUri(file);
  const doc = ws.open(uri, 'latex', 1, text);
  const before = computeDiagnostics(ws, doc);
  assert.deepEqual(before.filter((d) => d.code === 'undefined-ref'), []);
  // append a reference to a label of another chapter, then one to a missing label
  const end = doc.positionAt(text.length);
  ws.change(uri, [{ range: { start: end, end }, text: '\n\nSee \\ref{topology-section-introduction} and \\ref{topology-no-such-label}.\n' }], 2);
  const after = computeDiagnostics(ws, doc).filter((d) => d.code === 'undefined-ref');
  assert.deepEqual(after.map((d) => d.message), ['Undefined reference: no \\label{topology-no-such-label} in this project']);
  const loc = ws.findLabel(doc, 'topology-section-introduction');
  assert.equal(loc.length, 1);
  assert.equal(fileName(loc[0].doc), 'topology.tex');
});
