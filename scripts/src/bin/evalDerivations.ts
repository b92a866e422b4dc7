// Derivation checker evaluation, today's checker beside the one of BASELINE_COMMIT (the
// checker before the work on unseen real books, bundled from git history by lib/baselineChecker.ts)
// in the same run, printed as tables:
//  1. E-Gen-style synthetic derivations: expressions of one E-Gen cluster (all equivalent)
//     chained into derivations, mistakes injected (operator swap, sign, constant, function
//     swap), rendered to LaTeX and checked; precision/recall/F1 of the mistake class next to
//     the published E-Gen figure. E-Gen data is evaluation-only (CC BY-NC-SA): it is read
//     here and nothing derived from it is written to the repository.
//  2. Real derivations: every display of the latex-wild projects, Stacks, HoTT, ProofNet's
//     exercises and the eqn tables of ProofWiki proofs; steps decided, every refuted step with
//     its place, and whether it is a known real slip (test/real-world/derivation-slips.json,
//     each read by hand) or unexplained (a false alarm until read).
//  3. Planted mistakes in real notation: a seeded sample of steps the checker verifies in those
//     corpora, one mistake planted per chain in the chain's own LaTeX (sign, coefficient,
//     exponent, swapped function, dropped factor); the share flagged.
// Needs `npx tsc -b server scripts` first. Data: $MATHSENSE_SHARED/data, default ../shared/data.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { table } from '../lib/table.js';
import { repoRoot } from '../lib/repo.js';
import { Workspace, isMacroSource, findDocumentFiles } from 'mathsense-server/api/project';
import { verdictMessage, checkStep, macroTable, DerivationChecker, macroSignature, mathBlocks, scopeMacros } from 'mathsense-server/api/math';
import type { BlockInput, Doc, MacroDef, StepResult } from '../lib/serverTypes.js';
import { baselineChecker, type CheckerApi } from '../lib/baselineChecker.js';
import { proofwikiBlocks, prose, PW_FRAGMENT } from '../lib/proofwikiTables.js';
import type { ProofWikiPage } from '../data/proofwiki.js';

const root = repoRoot;
const current: CheckerApi = { DerivationChecker, mathBlocks, scopeMacros, macroSignature };

// this issue's base: main before the work on real books nobody here had seen (issue 35)
const BASELINE_COMMIT = 'b36f145';
const baseline = await baselineChecker(root, BASELINE_COMMIT);
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const data = path.join(shared, 'data');
const args = new Set(process.argv.slice(2));
const only = (k: string) => !['--synthetic', '--real'].some((a) => args.has(a)) || args.has(`--${k}`);


// ---------- 1. synthetic derivations from E-Gen clusters ----------

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BIN = new Set(['+', '-', '*', '/', 'pow']);
const UN = new Set(['sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'asin', 'acos', 'atan', 'acot', 'asec', 'acsc', 'sinh', 'cosh', 'tanh',
  'coth', 'sech', 'csch', 'asinh', 'acosh', 'atanh', 'acoth', 'asech', 'acsch', 'ln', 'exp', 'sqrt', 'abs']);

/** An E-Gen expression in prefix notation: a leaf (`x`, `pi`, a number) or an operator (`d` with its variable). */
type ELeaf = { leaf: string; op?: undefined; args?: undefined };
type EOp = { op: string; args: ENode[]; v?: string; leaf?: undefined };
type ENode = ELeaf | EOp; // a leaf's text is never empty

function parsePrefix(tokens: string[]): ENode {
  let i = 0;
  const rec = (): ENode => {
    const t = tokens[i++];
    if (t === undefined) throw new Error('truncated');
    if (BIN.has(t)) return { op: t, args: [rec(), rec()] };
    if (UN.has(t)) return { op: t, args: [rec()] };
    if (t === 'd') { const v = tokens[i++]; return { op: 'd', v, args: [rec()] }; }
    if (t === 'x' || t === 'pi' || /^-?\d+(\.\d+)?$/.test(t)) return { leaf: t };
    throw new Error(`token ${t}`);
  };
  const e = rec();
  if (i !== tokens.length) throw new Error('trailing tokens');
  return e;
}

const LATEX_FN: Record<string, string> = {
  sin: '\\sin', cos: '\\cos', tan: '\\tan', cot: '\\cot', sec: '\\sec', csc: '\\csc', asin: '\\arcsin', acos: '\\arccos',
  atan: '\\arctan', acot: '\\operatorname{arccot}', asec: '\\operatorname{arcsec}', acsc: '\\operatorname{arccsc}',
  sinh: '\\sinh', cosh: '\\cosh', tanh: '\\tanh', coth: '\\coth', sech: '\\operatorname{sech}', csch: '\\operatorname{csch}',
  asinh: '\\operatorname{arsinh}', acosh: '\\operatorname{arcosh}', atanh: '\\operatorname{artanh}', acoth: '\\operatorname{arcoth}',
  asech: '\\operatorname{arsech}', acsch: '\\operatorname{arcsch}', ln: '\\ln', exp: '\\exp',
};

function toLatex(e: ENode): string {
  if (e.leaf !== undefined) return e.leaf === 'pi' ? '\\pi' : e.leaf;
  const [a, b] = e.args;
  const p = (x: ENode) => (x.leaf && !x.leaf.startsWith('-') ? toLatex(x) : `\\left(${toLatex(x)}\\right)`);
  const sum = (x: ENode) => (x.op === '+' || x.op === '-' ? `\\left(${toLatex(x)}\\right)` : (x.leaf?.startsWith('-') ? `\\left(${x.leaf}\\right)` : toLatex(x)));
  switch (e.op) {
    case '+': return `${toLatex(a)} + ${sum(b)}`;
    case '-': return `${toLatex(a)} - ${sum(b)}`;
    case '*': return `${sum(a)} \\cdot ${sum(b)}`;
    case '/': return `\\frac{${toLatex(a)}}{${toLatex(b)}}`;
    case 'pow': return `{${p(a)}}^{${toLatex(b)}}`;
    case 'sqrt': return `\\sqrt{${toLatex(a)}}`;
    case 'abs': return `\\left|${toLatex(a)}\\right|`;
    case 'd': return `\\frac{d}{d${e.v}}\\left(${toLatex(a)}\\right)`;
    default: return `${LATEX_FN[e.op]}\\left(${toLatex(a)}\\right)`;
  }
}

// An oracle for labels, independent of the checker's decision rules: value on a dense grid
// (both signs); two expressions differ when they disagree at most common defined points.
const JS_FN: Record<string, (x: number) => number> = {
  sin: Math.sin, cos: Math.cos, tan: Math.tan, cot: (x) => 1 / Math.tan(x), sec: (x) => 1 / Math.cos(x), csc: (x) => 1 / Math.sin(x),
  asin: Math.asin, acos: Math.acos, atan: Math.atan, acot: (x) => Math.atan(1 / x), asec: (x) => Math.acos(1 / x), acsc: (x) => Math.asin(1 / x),
  sinh: Math.sinh, cosh: Math.cosh, tanh: Math.tanh, coth: (x) => 1 / Math.tanh(x), sech: (x) => 1 / Math.cosh(x), csch: (x) => 1 / Math.sinh(x),
  asinh: Math.asinh, acosh: Math.acosh, atanh: Math.atanh, acoth: (x) => Math.atanh(1 / x), asech: (x) => Math.acosh(1 / x), acsch: (x) => Math.asinh(1 / x),
  ln: (x) => (x > 0 ? Math.log(x) : NaN), exp: Math.exp, sqrt: Math.sqrt, abs: Math.abs,
};
function value(e: ENode, x: number): number {
  if (e.leaf !== undefined) return e.leaf === 'x' ? x : e.leaf === 'pi' ? Math.PI : Number(e.leaf);
  if (e.op === 'd') { const h = 1e-5 * Math.max(1, Math.abs(x)); return (value(e.args[0], x + h) - value(e.args[0], x - h)) / (2 * h); }
  const a = value(e.args[0], x);
  if (e.args.length === 1) return JS_FN[e.op](a);
  const b = value(e.args[1], x);
  switch (e.op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    default: return a < 0 && !Number.isInteger(b) ? NaN : Math.pow(a, b);
  }
}
const GRID = Array.from({ length: 2000 }, (_, i) => -9.99 + i * 0.00999);
/** 'same' | 'different' | 'unclear' (fewer than 20 common defined grid points). */
function relation(e1: ENode, e2: ENode): 'same' | 'different' | 'unclear' {
  let common = 0;
  let diff = 0;
  for (const x of GRID) {
    const a = value(e1, x);
    const b = value(e2, x);
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    common++;
    if (Math.abs(a - b) > 1e-4 * Math.max(1, Math.abs(a), Math.abs(b))) diff++;
  }
  if (common < 20) return 'unclear';
  return diff / common > 0.5 ? 'different' : diff === 0 || diff / common < 0.02 ? 'same' : 'unclear';
}
const differs = (a: ENode, b: ENode) => relation(a, b) === 'different';

const SWAP_OP: Record<string, string> = { '+': '-', '-': '+', '*': '/', '/': '*' };
const SWAP_FN: Record<string, string> = { sin: 'cos', cos: 'sin', tan: 'cot', cot: 'tan', sec: 'csc', csc: 'sec', sinh: 'cosh', cosh: 'sinh', tanh: 'coth', coth: 'tanh',
  asin: 'acos', acos: 'asin', atan: 'acot', acot: 'atan', ln: 'exp', exp: 'ln', asinh: 'acosh', acosh: 'asinh', sech: 'csch', csch: 'sech' };
const clone = (e: ENode): ENode => JSON.parse(JSON.stringify(e));
function nodes(e: ENode, out: ENode[] = []): ENode[] { out.push(e); for (const a of e.args ?? []) nodes(a, out); return out; }

/** One mistake of the given kind, or undefined when the expression has no place for it. */
function mutate(e: ENode, kind: string, r: () => number): ENode | undefined {
  const c = clone(e);
  const all = nodes(c);
  const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(r() * xs.length)] : undefined);
  if (kind === 'operator') {
    const n = pick(all.filter((n): n is EOp => !!n.op && !!SWAP_OP[n.op]));
    if (!n) return undefined;
    n.op = SWAP_OP[n.op];
  } else if (kind === 'sign') {
    const n = pick(all.filter((n) => n.op === '+' || n.op === '-' || (n.leaf && /^-?\d/.test(n.leaf) && Number(n.leaf) !== 0)));
    if (!n) return undefined;
    if (n.leaf !== undefined) n.leaf = n.leaf.startsWith('-') ? n.leaf.slice(1) : `-${n.leaf}`;
    else n.op = n.op === '+' ? '-' : '+';
  } else if (kind === 'constant') {
    const n = pick(all.filter((n): n is ELeaf => !!n.leaf && /^-?\d+$/.test(n.leaf)));
    if (!n) return undefined;
    const v = Number(n.leaf);
    n.leaf = String(v + (r() < 0.5 ? 1 : 2) * (r() < 0.5 ? -1 : 1));
  } else {
    const n = pick(all.filter((n): n is EOp => !!n.op && !!SWAP_FN[n.op]));
    if (!n) return undefined;
    n.op = SWAP_FN[n.op];
  }
  return c;
}

function loadClusters() {
  const dir = path.join(data, 'egen-equiv-exprs');
  const clusters: Array<{ file: string; exprs: ENode[] }> = [];
  for (const f of fs.readdirSync(dir).filter((f) => /^(op|poly)_.*\.txt$/.test(f)).sort()) {
    for (const block of fs.readFileSync(path.join(dir, f), 'utf8').split(/\n\s*\n/)) {
      const exprs = [];
      for (const line of block.split('\n')) {
        if (!line.trim()) continue;
        try { exprs.push(parsePrefix(line.trim().split(/\s+/))); } catch { /* skip malformed */ }
      }
      if (exprs.length >= 3) clusters.push({ file: f, exprs });
    }
  }
  return clusters;
}

function synthetic(api: CheckerApi, label: string) {
  const r = seeded(20240601);
  const clusters = loadClusters();
  const checker = new api.DerivationChecker();
  checker.setMacros([], '');
  const KINDS = ['operator', 'sign', 'constant', 'function'];
  const MAX_DERIVATIONS = Number(process.env.EVAL_SYNTHETIC_MAX ?? 1500);
  let tp = 0, fp = 0, fn = 0, tn = 0, steps = 0, derivations = 0, dropped = 0, pool = 0;
  const byKind = Object.fromEntries(KINDS.map((k) => [k, { n: 0, found: 0 }]));
  const verdicts: Record<string, number> = {};
  const falseAlarms: string[] = [];
  const reasons: Record<string, number> = {};
  const started = Date.now();
  // spread derivations over clusters of every file
  const order = clusters.map((c, i): [number, number] => [r(), i]).sort((a, b) => a[0] - b[0]).map(([, i]) => clusters[i]);
  for (const cl of order) {
    if (derivations >= MAX_DERIVATIONS) break;
    // E-Gen clusters hold some members that are not equivalent to the seed (randomised
    // constants): the oracle drops them so that unmutated steps are really correct
    const want = 4 + Math.floor(r() * 3);
    const chosen: ENode[] = [];
    for (const [, e] of cl.exprs.map((e): [number, ENode] => [r(), e]).sort((a, b) => a[0] - b[0])) {
      if (chosen.length >= want) break;
      pool++;
      if (e === cl.exprs[0] || relation(e, cl.exprs[0]) === 'same') chosen.push(e); else dropped++;
    }
    if (chosen.length < 3) continue;
    // mistakes: each expression after the first is replaced by a mutated one with p = 0.115;
    // a step is wrong iff exactly one of its two expressions is mutated (both the step into
    // and the step out of a mutated expression are wrong; some mutations find no place or
    // leave the value unchanged), which gives ~15% wrong steps
    const mutated: Array<{ kind: string; e: ENode } | undefined> = chosen.map(() => undefined);
    for (let k = 1; k < chosen.length; k++) {
      if (r() >= 0.115) continue;
      const kind = KINDS[Math.floor(r() * KINDS.length)];
      const m = mutate(chosen[k], kind, r);
      if (m && differs(m, chosen[k])) mutated[k] = { kind, e: m };
    }
    const exprs = chosen.map((e, k) => mutated[k]?.e ?? e);
    const rows = exprs.map((e, k) => (k === 0 ? `${toLatex(e)}` : `&= ${toLatex(e)}`));
    let text = '';
    const spans: Array<{ start: number; end: number }> = [];
    for (const row of rows) { const s = text.length; text += row; spans.push({ start: s, end: text.length }); text += ' \\\\\n'; }
    const res = checker.checkBlock({ key: String(derivations), start: 0, text, rows: spans, context: '' });
    derivations++;
    const got = res.steps;
    if (got.length !== exprs.length - 1) throw new Error(`extraction gave ${got.length} steps for ${exprs.length - 1}`);
    got.forEach((s, k) => {
      steps++;
      // a step touching a mutated expression is wrong when the oracle says its sides differ
      const rel = mutated[k] || mutated[k + 1] ? relation(exprs[k], exprs[k + 1]) : 'same';
      const wrong = rel === 'different' || (rel === 'unclear' && !!mutated[k] !== !!mutated[k + 1]);
      const flagged = s.verdict.kind === 'refuted';
      verdicts[s.verdict.kind] = (verdicts[s.verdict.kind] ?? 0) + 1;
      if (process.env.EVAL_REASONS && s.verdict.kind === 'unknown') { const k2 = s.verdict.reason; reasons[k2] = (reasons[k2] ?? 0) + 1; if (reasons[k2] <= 2) console.log('UNKNOWN', k2, '|', s.lhs, '|', s.rhs); }
      const kind = mutated[k + 1]?.kind ?? mutated[k]?.kind;
      // a wrong step touches a mutated expression, so it has a kind
      if (wrong) { byKind[kind!].n++; if (flagged) byKind[kind!].found++; }
      if (wrong && flagged) tp++;
      else if (!wrong && flagged) { fp++; if (falseAlarms.length < 10) falseAlarms.push(`${s.lhs}  =  ${s.rhs}  (${verdictMessage(s.verdict, s.rel)})`); }
      else if (wrong) { fn++; if (process.env.EVAL_REASONS && fn <= 25) console.log('MISSED', s.verdict.kind, s.verdict.reason, '|', s.lhs, '|', s.rhs); }
      else tn++;
    });
  }
  const ms = Date.now() - started;
  const P = tp / Math.max(1, tp + fp);
  const R = tp / Math.max(1, tp + fn);
  const F = (2 * P * R) / Math.max(1e-9, P + R);
  const pct = (x: number) => (100 * x).toFixed(1);
  console.log(`\n## Derivation checker (${label}): E-Gen-style synthetic derivations\n`);
  console.log(`${derivations} derivations from ${clusters.length} E-Gen clusters, ${steps} steps, ${tp + fn} wrong (${pct((tp + fn) / steps)}%), checked in ${ms} ms`);
  console.log(`(${dropped} of ${pool} cluster members of the visited clusters were not shown equivalent to their seed on a 2000-point grid over [-10, 10] and were left out)\n`);
  console.log(table([
    ['system', 'precision', 'recall', 'F1 (mistake class)'],
    ['MathSense derivation checker', pct(P), pct(R), pct(F)],
    ['E-Gen (published)', '-', '-', '78.0'],
    ['target', '', '', '>= 97'],
  ]));
  console.log('\n' + table([['mistake kind', 'wrong steps', 'flagged', 'recall'], ...KINDS.map((k) => [k, byKind[k].n, byKind[k].found, pct(byKind[k].found / Math.max(1, byKind[k].n))])]));
  console.log('\n' + table([['verdict', 'steps'], ...(Object.entries(verdicts) as Array<[string, number]>).sort()]));
  if (process.env.EVAL_REASONS) console.log(reasons);
  if (falseAlarms.length) console.log(`\nfalse alarms (first ${falseAlarms.length}):\n` + falseAlarms.map((s) => `- ${s}`).join('\n'));
  return { P, R, F };
}

// ---------- 2. real derivations ----------

/** A display block with the macros it is checked with, and where a step of it is (for the lists). */
interface Unit { block: BlockInput; macros: MacroDef[]; sig: string; where: (s: StepResult) => string }

/**
 * A corpus as units of work: each unit gives, for one checker API, its display-math blocks
 * with the macros they are checked with and where each step is (for the lists).
 */
interface Corpus { corpus: string; documents: number; units: Array<(api: CheckerApi) => Unit[]> }

function latexFolder(corpus: string, dir: string, label = (f: string) => path.relative(dir, f)): Corpus {
  const ws = new Workspace();
  for (const f of findDocumentFiles(dir)) ws.loadFile(f);
  const docs = ws.all().filter((d) => d.kind === 'latex' && !isMacroSource(d)).sort((a, b) => a.uri.localeCompare(b.uri));
  return {
    corpus, documents: docs.length,
    units: docs.map((doc) => (api: CheckerApi) => {
      const macros = api.scopeMacros(ws, doc);
      const sig = api.macroSignature(macros);
      return api.mathBlocks(doc, sig).map((b) => ({
        block: b, macros, sig,
        where: (s: StepResult) => `${label(fileURLToPath(doc.uri))}:${doc.positionAt(b.start + s.rhsStart).line + 1}`,
      }));
    }),
  };
}

/** ProofNet exercises: the statement as a theorem, its proof after it, as one small document each. */
/** One line of ProofNet's {valid,test}.jsonl (the fields read here). */
interface ProofNetExercise { id: string; nl_statement: string; nl_proof: string }

function proofNet(): Corpus {
  const ws = new Workspace();
  const docs: Array<{ id: string; doc: Doc }> = [];
  for (const split of ['valid', 'test']) {
    const file = path.join(data, 'proofnet', `${split}.jsonl`);
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const ex: ProofNetExercise = JSON.parse(line);
      const proof = /\\begin\{proof\}/.test(ex.nl_proof) ? ex.nl_proof : `\\begin{proof}\n${ex.nl_proof}\n\\end{proof}`;
      const doc = ws.open(`file:///proofnet/${encodeURIComponent(ex.id)}.tex`, 'latex', 1, `\\begin{theorem}\n${ex.nl_statement}\n\\end{theorem}\n${proof}\n`);
      docs.push({ id: ex.id, doc });
    }
  }
  return {
    corpus: 'ProofNet', documents: docs.length,
    units: docs.map(({ id, doc }) => (api: CheckerApi) => api.mathBlocks(doc, '').map((b) => ({
      block: b, macros: [], sig: '', where: (s: StepResult) => `${id}:${doc.positionAt(b.start + s.rhsStart).line + 1}`,
    }))),
  };
}

function proofWiki(): Corpus {
  const file = process.env.EVAL_PROOFWIKI_FILE ?? path.join(data, 'proofwiki', 'proofwiki_pages_rendered.jsonl');
  const units: Corpus['units'] = [];
  let pages = 0;
  if (fs.existsSync(file)) {
    const limit = Number(process.env.EVAL_PROOFWIKI_MAX ?? Infinity);
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('\\\\(=\\\\)') && !line.includes('\\\\(\\\\le\\\\)')) continue;
      if (pages >= limit) break;
      const page: ProofWikiPage = JSON.parse(line);
      const blocks: Unit[] = [];
      let before = '';
      for (const sec of page.sections) {
        const earlier = before;
        before += `\n${prose(sec.text)}`;
        if (!/^Proof/.test(sec.heading)) continue;
        let rowBase = 0;
        for (const b of proofwikiBlocks(sec.text)) {
          // the page title, the prose before the section and the section's own prose lines
          // (comments and text between its tables) stand for the text around the display
          const lead = sec.text.split('\n').map((l) => l.trim()).filter((l) => l && !PW_FRAGMENT.test(l)).join('\n');
          const context = `${page.title}. ${earlier.slice(-1500)}\n${lead.slice(0, 2000)}`;
          const base = rowBase;
          blocks.push({
            block: { key: '', start: 0, text: b.text, rows: b.rows, context }, macros: [], sig: 'proofwiki',
            where: (s: StepResult) => `${page.url} (${sec.heading}, eqn row ${base + b.rowIndex.filter((x) => x <= s.rhsStart).length})`,
          });
          rowBase += b.rows.length;
        }
      }
      if (blocks.length) { pages++; units.push(() => blocks); }
    }
  }
  return { corpus: 'ProofWiki eqn tables', documents: pages, units };
}

function corpora(): Corpus[] {
  const out: Corpus[] = [];
  const wild = path.join(data, 'latex-wild');
  if (fs.existsSync(wild)) {
    for (const name of fs.readdirSync(wild).filter((n) => fs.statSync(path.join(wild, n)).isDirectory()).sort()) {
      out.push(latexFolder(`latex-wild/${name}`, path.join(wild, name)));
    }
  }
  out.push(latexFolder('Stacks', path.join(data, 'latex', 'stacks-project')));
  out.push(latexFolder('HoTT', path.join(data, 'latex', 'hott-book')));
  out.push(proofNet());
  if (!process.env.EVAL_SKIP_PROOFWIKI) out.push(proofWiki());
  return out;
}

/** Runs one checker API over a corpus: verdict counts, refuted steps, and the verified steps (for planting). */
/** A step the checker verified, with its block (planted mistakes start from these). */
interface Verified { unit: Unit; index: number; step: StepResult }

function runCorpus(c: Corpus, api: CheckerApi) {
  const checker = new api.DerivationChecker();
  const counts = { blocks: 0, steps: 0, proven: 0, equal: 0, refuted: 0, unknown: 0, skipped: 0 };
  const refuted: Array<{ where: string; step: string; message: string }> = [];
  const verified: Verified[] = [];
  for (const unit of c.units) {
    for (const u of unit(api)) {
      checker.setMacros(u.macros, u.sig);
      counts.blocks++;
      const steps = checker.checkBlock(u.block).steps;
      steps.forEach((s, i) => {
        counts.steps++;
        counts[s.verdict.kind]++;
        if (s.verdict.kind === 'refuted' && !s.ignored) refuted.push({ where: u.where(s), step: `${s.lhs} ${s.rel} ${s.rhs}`, message: verdictMessage(s.verdict, s.rel) });
        if ((s.verdict.kind === 'proven' || s.verdict.kind === 'equal') && !s.ignored && s.rel === '=') verified.push({ unit: u, index: i, step: s });
      });
    }
  }
  return { counts, refuted, verified };
}

/** Real slips read by hand: by corpus, place and a hash of the step (the source text is not copied). */
/** A real slip read by hand (test/real-world/derivation-slips.json). */
interface Slip { corpus: string; where: string; step: string; reason: string }

function loadSlips(): Map<string, Slip> {
  const file = path.join(root, 'test', 'real-world', 'derivation-slips.json');
  const slips: Slip[] = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).slips : [];
  return new Map(slips.map((s) => [`${s.corpus}\u0000${s.where}\u0000${s.step}`, s]));
}

const stepHash = (step: string) => createHash('sha1').update(step).digest('hex').slice(0, 16);

// ---------- 3. planted mistakes in real notation ----------

/** `[start, end)` spans of `t` inside a sub- or superscript (indices and exponents are not coefficients). */
function scriptSpans(t: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < t.length; i++) {
    if ((t[i] === '_' || t[i] === '^') && i + 1 < t.length) {
      let j = i + 1;
      while (t[j] === ' ') j++;
      if (t[j] === '{') { let d = 0; let k = j; for (; k < t.length; k++) { if (t[k] === '{') d++; else if (t[k] === '}' && --d === 0) break; } out.push([i, k + 1]); i = k; }
      else { out.push([i, j + 1]); i = j; }
    }
  }
  return out;
}
const inSpans = (spans: Array<[number, number]>, i: number) => spans.some(([a, b]) => i >= a && i < b);

const SWAP: Record<string, string> = { sin: 'cos', cos: 'sin', tan: 'cot', cot: 'tan', sinh: 'cosh', cosh: 'sinh', tanh: 'coth', coth: 'tanh', ln: 'exp', exp: 'ln', sec: 'csc', csc: 'sec' };

/** One mistake of `kind` planted in LaTeX `t`, written in its own notation; undefined when it has no place for it. */
function plant(t: string, kind: string, r: () => number): string | undefined {
  const scripts = scriptSpans(t);
  const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(r() * xs.length)] : undefined);
  // matchAll's matches always carry their index
  const at = (re: RegExp, ok: (m: RegExpMatchArray & { index: number }) => boolean = () => true) => [...t.matchAll(re)].map((m) => m as RegExpMatchArray & { index: number }).filter((m) => ok(m));
  if (kind === 'sign') {
    // a binary + or − after an operand (not \pm, not inside an index)
    const m = pick(at(/(?<=[\w})\]|]\s*)[+-](?!\s*[+-])/g, (m) => !inSpans(scripts, m.index) && t[m.index - 1] !== '\\'));
    return m && `${t.slice(0, m.index)}${m[0] === '+' ? '-' : '+'}${t.slice(m.index + 1)}`;
  }
  if (kind === 'coefficient') {
    const m = pick(at(/(?<![\w.\\{]|\{\s*)(\d+)(?![\d.])/g, (m) => !inSpans(scripts, m.index)));
    if (!m) return undefined;
    const v = Number(m[1]);
    return `${t.slice(0, m.index)}${v === 1 ? 3 : v + 1}${t.slice(m.index + m[1].length)}`;
  }
  if (kind === 'exponent') {
    const m = pick(at(/\^\s*(\{[^{}]*\}|\d)/g));
    if (!m) return undefined;
    const e = m[1];
    const next = /^\d$/.test(e) ? String(Number(e) + 1) : `{${e.slice(1, -1)} + 1}`;
    return `${t.slice(0, m.index)}^${next}${t.slice(m.index + m[0].length)}`;
  }
  if (kind === 'function') {
    const m = pick(at(/\\(sin|cos|tan|cot|sinh|cosh|tanh|coth|ln|exp|sec|csc)(?![A-Za-z])/g));
    return m && `${t.slice(0, m.index)}\\${SWAP[m[1]]}${t.slice(m.index + m[0].length)}`;
  }
  // dropped factor: a numeric coefficient before a letter, a bracket or a command, or a `\cdot`/`\times` factor
  const m = pick([
    ...at(/(?<![\w.\\{^_]|[\^_]\s*\{[^}]*)(\d+)\s*(?=[A-Za-z(\\])(?!\\(?:cdot|times|frac|dfrac|right|end)\b)/g, (m) => !inSpans(scripts, m.index) && Number(m[1]) !== 1),
    ...at(/\s*\\(?:cdot|times)\s*(?:\\[A-Za-z]+\s*\{[^{}]*\}|\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z0-9]+)/g, (m) => !inSpans(scripts, m.index)),
  ]);
  return m && `${t.slice(0, m.index)}${t.slice(m.index + m[0].length)}`;
}

const KINDS = ['sign', 'coefficient', 'exponent', 'function', 'factor'];

/** The block with its text [start, end) replaced by `text` (rows shifted). */
function replaced(block: BlockInput, start: number, end: number, text: string): BlockInput {
  const delta = text.length - (end - start);
  const rows = block.rows.map((r) => ({ start: r.start > start ? r.start + delta : r.start, end: r.end >= end ? r.end + delta : r.end }));
  return { ...block, key: `${block.key}:planted`, text: block.text.slice(0, start) + text + block.text.slice(end), rows };
}

function planted(byCorpus: Map<string, Verified[]>, apis: { current: CheckerApi; baseline: CheckerApi | undefined }) {
  const r = seeded(20261126);
  const PER_CORPUS = 150;
  const TOTAL = 800;
  // one verified step per block, then a seeded sample: every corpus up to PER_CORPUS, the rest from ProofWiki
  const picks: Array<{ corpus: string; v: Verified }> = [];
  const groups = [...byCorpus].map(([corpus, verified]) => {
    const perBlock = new Map<BlockInput, Verified[]>();
    for (const v of verified) if (!perBlock.has(v.unit.block)) perBlock.set(v.unit.block, []); 
    for (const v of verified) perBlock.get(v.unit.block)!.push(v); // set just above
    const blocks = [...perBlock.values()].map((vs) => vs[Math.floor(r() * vs.length)]).map((v): [number, Verified] => [r(), v]).sort((a, b) => a[0] - b[0]).map(([, v]) => v);
    return { corpus, blocks };
  });
  for (const g of groups) if (!g.corpus.startsWith('ProofWiki')) picks.push(...g.blocks.slice(0, PER_CORPUS).map((v) => ({ corpus: g.corpus, v })));
  const pw = groups.find((g) => g.corpus.startsWith('ProofWiki'));
  if (pw) picks.push(...pw.blocks.slice(0, Math.max(0, TOTAL - picks.length)).map((v) => ({ corpus: pw.corpus, v })));
  const rows = new Map<string, { n: number; now: number; before: number }>();
  const byKind = Object.fromEntries(KINDS.map((k) => [k, { n: 0, now: 0, before: 0 }]));
  const missed: string[] = [];
  let tried = 0;
  for (const { corpus, v } of picks) {
    const { unit, step } = v;
    const t = unit.block.text.slice(step.rhsStart, step.rhsEnd);
    // a kind the expression has room for, whose change alters its value (checked on the pair alone)
    let mutation: { kind: string; text: string } | undefined;
    for (const kind of KINDS.map((k) => [r(), k] as [number, string]).sort((a, b) => a[0] - b[0]).map(([, k]) => k)) {
      const m = plant(t, kind, r);
      if (!m || m === t) continue;
      tried++;
      const v2 = checkStep({ lhs: t, rhs: m, rel: '=' }, macroTable(unit.macros));
      if (v2.kind === 'refuted') { mutation = { kind, text: m }; break; }
    }
    if (!mutation) continue;
    const block = replaced(unit.block, step.rhsStart, step.rhsEnd, mutation.text);
    const touched = (s: StepResult) => s.lhsStart === step.rhsStart || s.rhsStart === step.rhsStart;
    const flaggedBy = (api: CheckerApi | undefined) => {
      if (!api) return undefined;
      const c = new api.DerivationChecker();
      c.setMacros(unit.macros, unit.sig);
      return c.checkBlock(block).steps.some((s) => touched(s) && s.verdict.kind === 'refuted');
    };
    const now = flaggedBy(apis.current);
    const before = flaggedBy(apis.baseline);
    const row = rows.get(corpus) ?? { n: 0, now: 0, before: 0 };
    row.n++; if (now) row.now++; if (before) row.before++;
    rows.set(corpus, row);
    byKind[mutation.kind].n++; if (now) byKind[mutation.kind].now++; if (before) byKind[mutation.kind].before++;
    if (!now && missed.length < Number(process.env.EVAL_MISSED ?? 15)) {
      const c = new current.DerivationChecker();
      c.setMacros(unit.macros, unit.sig);
      const why = c.checkBlock(block).steps.filter(touched).map((s) => `${s.verdict.kind}: ${s.verdict.reason}`).join('; ');
      missed.push(`${corpus} ${unit.where(step)} [${mutation.kind}]: \`${t}\` → \`${mutation.text}\` (${why})`);
    }
  }
  return { rows, byKind, missed, tried };
}

function real() {
  const started = Date.now();
  const slips = loadSlips();
  const rows: Array<Array<string | number>> = [['corpus', 'documents', 'blocks', 'steps', 'decided (before)', 'decided (now)', 'refuted (before)', 'refuted (now)', 'known real slips', 'unexplained']];
  const unexplained: string[] = [];
  const known: string[] = [];
  const verifiedByCorpus = new Map<string, Verified[]>();
  const totals = { docs: 0, blocks: 0, steps: 0, db: 0, dn: 0, rb: 0, rn: 0, k: 0, u: 0 };
  const pct = (n: number, d: number) => (d ? `${n} (${(100 * n / d).toFixed(1)}%)` : '0');
  for (const c of corpora()) {
    const now = runCorpus(c, current);
    const before = baseline ? runCorpus(c, baseline) : undefined;
    const decided = (x: ReturnType<typeof runCorpus>) => x.counts.proven + x.counts.equal + x.counts.refuted;
    let k = 0;
    let u = 0;
    for (const f of now.refuted) {
      const slip = slips.get(`${c.corpus}\u0000${f.where}\u0000${stepHash(f.step)}`);
      if (slip) { k++; known.push(`${c.corpus} ${f.where}: \`${f.step}\` — ${slip.reason}`); } else { u++; unexplained.push(`${c.corpus} ${f.where}: \`${f.step}\` — ${f.message}`); }
    }
    verifiedByCorpus.set(c.corpus, now.verified);
    rows.push([c.corpus, c.documents, now.counts.blocks, now.counts.steps, before ? pct(decided(before), before.counts.steps) : '-', pct(decided(now), now.counts.steps), before ? before.refuted.length : '-', now.refuted.length, k, u]);
    totals.docs += c.documents; totals.blocks += now.counts.blocks; totals.steps += now.counts.steps;
    totals.db += before ? decided(before) : 0; totals.dn += decided(now); totals.rb += before ? before.refuted.length : 0; totals.rn += now.refuted.length; totals.k += k; totals.u += u;
  }
  rows.push(['total', totals.docs, totals.blocks, totals.steps, baseline ? pct(totals.db, totals.steps) : '-', pct(totals.dn, totals.steps), baseline ? totals.rb : '-', totals.rn, totals.k, totals.u]);
  console.log(`\n## Derivation checker: real derivations, before (${BASELINE_COMMIT}) and now (${Math.round((Date.now() - started) / 1000)} s)\n`);
  if (!baseline) console.log(`(the checker of ${BASELINE_COMMIT} could not be built from this clone: "before" columns are empty)\n`);
  console.log(table(rows));
  console.log('\n(decided = proven, numerically equal or refuted, of all steps; a step not decided is skipped (≈, ∈, equations, a single relation in letters) or unknown (notation not read as real numbers); known real slips: test/real-world/derivation-slips.json)');
  console.log(`\nUnexplained refuted steps (${unexplained.length}):`);
  for (const s of unexplained) console.log(`- ${s}`);
  console.log(`\nKnown real slips, still found (${known.length}):`);
  for (const s of known) console.log(`- ${s}`);

  const p = planted(verifiedByCorpus, { current, baseline });
  const recall = (a: number, n: number) => (n ? `${(100 * a / n).toFixed(1)}` : '-');
  const prow: Array<Array<string | number>> = [['corpus', 'mistakes planted', 'flagged (before)', 'flagged (now)', 'recall now %']];
  let n = 0, fb = 0, fn = 0;
  for (const [corpus, x] of p.rows) { prow.push([corpus, x.n, baseline ? x.before : '-', x.now, recall(x.now, x.n)]); n += x.n; fb += x.before; fn += x.now; }
  prow.push(['total', n, baseline ? fb : '-', fn, recall(fn, n)]);
  console.log(`\n## Planted mistakes in real notation (one per chain, in a step the checker verifies; target: 90% flagged)\n`);
  console.log(table(prow));
  console.log('\n' + table([['mistake', 'planted', 'flagged (before)', 'flagged (now)', 'recall now %'], ...KINDS.map((k) => [k, p.byKind[k].n, baseline ? p.byKind[k].before : '-', p.byKind[k].now, recall(p.byKind[k].now, p.byKind[k].n)])]));
  console.log(`\n(a planted change counts when the expression's value changes: the pair (original, changed) alone is refuted; ${p.tried} changes tried)`);
  if (p.missed.length) console.log(`\nNot flagged (first ${p.missed.length}):\n${p.missed.map((m) => `- ${m}`).join('\n')}`);
  fs.mkdirSync(path.join(root, 'test-output'), { recursive: true });
  fs.writeFileSync(path.join(root, 'test-output', 'eval-derivations-real.txt'), `${unexplained.length} unexplained refuted steps\n\n${unexplained.map((s) => `- ${s}`).join('\n')}\n\n${known.length} known real slips\n\n${known.map((s) => `- ${s}`).join('\n')}\n`);
}

if (only('synthetic')) {
  synthetic(current, 'now');
  if (baseline) synthetic(baseline, `before, ${BASELINE_COMMIT}`);
}
if (only('real')) real();
