// Derivation checker evaluation (issue 3), printed as tables:
//  1. E-Gen-style synthetic derivations: expressions of one E-Gen cluster (all equivalent)
//     chained into derivations, mistakes injected (operator swap, sign, constant, function
//     swap), rendered to LaTeX and checked; precision/recall/F1 of the mistake class next to
//     the published E-Gen figure. E-Gen data is evaluation-only (CC BY-NC-SA): it is read
//     here and nothing derived from it is written to the repository.
//  2. Real derivations: every display-math chain in Stacks and HoTT and the eqn tables of
//     ProofWiki proofs; verdict counts, unknown rate, and every refuted step with its place.
// Needs `npx tsc -p server` first. Data: $MATHSENSE_SHARED/data, default ../shared/data.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { table } from './lib/table.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = (p) => pathToFileURL(path.join(root, 'server', 'out', p)).href;
const { DerivationChecker } = await import(out('math/checker.js'));
const { macroSignature, mathBlocks, scopeMacros } = await import(out('math/blocks.js'));
const { Workspace } = await import(out('project/workspace.js'));
const { verdictMessage } = await import(out('math/verdict.js'));
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const data = path.join(shared, 'data');
const args = new Set(process.argv.slice(2));
const only = (k) => !['--synthetic', '--real'].some((a) => args.has(a)) || args.has(`--${k}`);


// ---------- 1. synthetic derivations from E-Gen clusters ----------

function seeded(seed) {
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

function parsePrefix(tokens) {
  let i = 0;
  const rec = () => {
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

const LATEX_FN = {
  sin: '\\sin', cos: '\\cos', tan: '\\tan', cot: '\\cot', sec: '\\sec', csc: '\\csc', asin: '\\arcsin', acos: '\\arccos',
  atan: '\\arctan', acot: '\\operatorname{arccot}', asec: '\\operatorname{arcsec}', acsc: '\\operatorname{arccsc}',
  sinh: '\\sinh', cosh: '\\cosh', tanh: '\\tanh', coth: '\\coth', sech: '\\operatorname{sech}', csch: '\\operatorname{csch}',
  asinh: '\\operatorname{arsinh}', acosh: '\\operatorname{arcosh}', atanh: '\\operatorname{artanh}', acoth: '\\operatorname{arcoth}',
  asech: '\\operatorname{arsech}', acsch: '\\operatorname{arcsch}', ln: '\\ln', exp: '\\exp',
};

function toLatex(e) {
  if (e.leaf) return e.leaf === 'pi' ? '\\pi' : e.leaf;
  const [a, b] = e.args;
  const p = (x) => (x.leaf && !x.leaf.startsWith('-') ? toLatex(x) : `\\left(${toLatex(x)}\\right)`);
  const sum = (x) => (x.op === '+' || x.op === '-' ? `\\left(${toLatex(x)}\\right)` : (x.leaf?.startsWith('-') ? `\\left(${x.leaf}\\right)` : toLatex(x)));
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
const JS_FN = {
  sin: Math.sin, cos: Math.cos, tan: Math.tan, cot: (x) => 1 / Math.tan(x), sec: (x) => 1 / Math.cos(x), csc: (x) => 1 / Math.sin(x),
  asin: Math.asin, acos: Math.acos, atan: Math.atan, acot: (x) => Math.atan(1 / x), asec: (x) => Math.acos(1 / x), acsc: (x) => Math.asin(1 / x),
  sinh: Math.sinh, cosh: Math.cosh, tanh: Math.tanh, coth: (x) => 1 / Math.tanh(x), sech: (x) => 1 / Math.cosh(x), csch: (x) => 1 / Math.sinh(x),
  asinh: Math.asinh, acosh: Math.acosh, atanh: Math.atanh, acoth: (x) => Math.atanh(1 / x), asech: (x) => Math.acosh(1 / x), acsch: (x) => Math.asinh(1 / x),
  ln: (x) => (x > 0 ? Math.log(x) : NaN), exp: Math.exp, sqrt: Math.sqrt, abs: Math.abs,
};
function value(e, x) {
  if (e.leaf) return e.leaf === 'x' ? x : e.leaf === 'pi' ? Math.PI : Number(e.leaf);
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
function relation(e1, e2) {
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
const differs = (a, b) => relation(a, b) === 'different';

const SWAP_OP = { '+': '-', '-': '+', '*': '/', '/': '*' };
const SWAP_FN = { sin: 'cos', cos: 'sin', tan: 'cot', cot: 'tan', sec: 'csc', csc: 'sec', sinh: 'cosh', cosh: 'sinh', tanh: 'coth', coth: 'tanh',
  asin: 'acos', acos: 'asin', atan: 'acot', acot: 'atan', ln: 'exp', exp: 'ln', asinh: 'acosh', acosh: 'asinh', sech: 'csch', csch: 'sech' };
const clone = (e) => JSON.parse(JSON.stringify(e));
function nodes(e, out = []) { out.push(e); for (const a of e.args ?? []) nodes(a, out); return out; }

/** One mistake of the given kind, or undefined when the expression has no place for it. */
function mutate(e, kind, r) {
  const c = clone(e);
  const all = nodes(c);
  const pick = (xs) => (xs.length ? xs[Math.floor(r() * xs.length)] : undefined);
  if (kind === 'operator') {
    const n = pick(all.filter((n) => SWAP_OP[n.op]));
    if (!n) return undefined;
    n.op = SWAP_OP[n.op];
  } else if (kind === 'sign') {
    const n = pick(all.filter((n) => n.op === '+' || n.op === '-' || (n.leaf && /^-?\d/.test(n.leaf) && Number(n.leaf) !== 0)));
    if (!n) return undefined;
    if (n.leaf) n.leaf = n.leaf.startsWith('-') ? n.leaf.slice(1) : `-${n.leaf}`;
    else n.op = n.op === '+' ? '-' : '+';
  } else if (kind === 'constant') {
    const n = pick(all.filter((n) => n.leaf && /^-?\d+$/.test(n.leaf)));
    if (!n) return undefined;
    const v = Number(n.leaf);
    n.leaf = String(v + (r() < 0.5 ? 1 : 2) * (r() < 0.5 ? -1 : 1));
  } else {
    const n = pick(all.filter((n) => SWAP_FN[n.op]));
    if (!n) return undefined;
    n.op = SWAP_FN[n.op];
  }
  return c;
}

function loadClusters() {
  const dir = path.join(data, 'egen-equiv-exprs');
  const clusters = [];
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

function synthetic() {
  const r = seeded(20240601);
  const clusters = loadClusters();
  const checker = new DerivationChecker();
  checker.setMacros([], '');
  const KINDS = ['operator', 'sign', 'constant', 'function'];
  const MAX_DERIVATIONS = Number(process.env.EVAL_SYNTHETIC_MAX ?? 1500);
  let tp = 0, fp = 0, fn = 0, tn = 0, steps = 0, derivations = 0, dropped = 0, pool = 0;
  const byKind = Object.fromEntries(KINDS.map((k) => [k, { n: 0, found: 0 }]));
  const verdicts = {};
  const falseAlarms = [];
  const reasons = {};
  const started = Date.now();
  // spread derivations over clusters of every file
  const order = clusters.map((c, i) => [r(), i]).sort((a, b) => a[0] - b[0]).map(([, i]) => clusters[i]);
  for (const cl of order) {
    if (derivations >= MAX_DERIVATIONS) break;
    // E-Gen clusters hold some members that are not equivalent to the seed (randomised
    // constants): the oracle drops them so that unmutated steps are really correct
    const want = 4 + Math.floor(r() * 3);
    const chosen = [];
    for (const [, e] of cl.exprs.map((e) => [r(), e]).sort((a, b) => a[0] - b[0])) {
      if (chosen.length >= want) break;
      pool++;
      if (e === cl.exprs[0] || relation(e, cl.exprs[0]) === 'same') chosen.push(e); else dropped++;
    }
    if (chosen.length < 3) continue;
    // mistakes: each expression after the first is replaced by a mutated one with p = 0.115;
    // a step is wrong iff exactly one of its two expressions is mutated (both the step into
    // and the step out of a mutated expression are wrong; some mutations find no place or
    // leave the value unchanged), which gives ~15% wrong steps
    const mutated = chosen.map(() => undefined);
    for (let k = 1; k < chosen.length; k++) {
      if (r() >= 0.115) continue;
      const kind = KINDS[Math.floor(r() * KINDS.length)];
      const m = mutate(chosen[k], kind, r);
      if (m && differs(m, chosen[k])) mutated[k] = { kind, e: m };
    }
    const exprs = chosen.map((e, k) => mutated[k]?.e ?? e);
    const rows = exprs.map((e, k) => (k === 0 ? `${toLatex(e)}` : `&= ${toLatex(e)}`));
    let text = '';
    const spans = [];
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
      if (wrong) { byKind[kind].n++; if (flagged) byKind[kind].found++; }
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
  const pct = (x) => (100 * x).toFixed(1);
  console.log(`\n## Derivation checker: E-Gen-style synthetic derivations\n`);
  console.log(`${derivations} derivations from ${clusters.length} E-Gen clusters, ${steps} steps, ${tp + fn} wrong (${pct((tp + fn) / steps)}%), checked in ${ms} ms`);
  console.log(`(${dropped} of ${pool} cluster members of the visited clusters were not shown equivalent to their seed on a 2000-point grid over [-10, 10] and were left out)\n`);
  console.log(table([
    ['system', 'precision', 'recall', 'F1 (mistake class)'],
    ['MathSense derivation checker', pct(P), pct(R), pct(F)],
    ['E-Gen (published)', '-', '-', '78.0'],
    ['target', '', '', '>= 97'],
  ]));
  console.log('\n' + table([['mistake kind', 'wrong steps', 'flagged', 'recall'], ...KINDS.map((k) => [k, byKind[k].n, byKind[k].found, pct(byKind[k].found / Math.max(1, byKind[k].n))])]));
  console.log('\n' + table([['verdict', 'steps'], ...Object.entries(verdicts).sort()]));
  if (process.env.EVAL_REASONS) console.log(reasons);
  if (falseAlarms.length) console.log(`\nfalse alarms (first ${falseAlarms.length}):\n` + falseAlarms.map((s) => `- ${s}`).join('\n'));
  return { P, R, F };
}

// ---------- 2. real derivations ----------

function texFiles(dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.tex')).sort().map((f) => path.join(dir, f));
}

function realLatex(name, dir, checker, refuted, counts) {
  const ws = new Workspace();
  const docs = texFiles(dir).map((f) => ws.loadFile(f)).filter(Boolean);
  let blocks = 0;
  let steps = 0;
  const c = { proven: 0, equal: 0, refuted: 0, unknown: 0, skipped: 0 };
  for (const doc of docs) {
    const macros = scopeMacros(ws, doc);
    const sig = macroSignature(macros);
    checker.setMacros(macros, sig);
    for (const b of mathBlocks(doc, sig)) {
      blocks++;
      for (const s of checker.checkBlock(b).steps) {
        steps++;
        c[s.verdict.kind]++;
        if (s.verdict.kind === 'refuted' && !s.ignored) {
          const pos = doc.positionAt(b.start + s.rhsStart);
          refuted.push(`${name} ${path.basename(doc.uri)}:${pos.line + 1}: \`${s.lhs}\` ${s.rel} \`${s.rhs}\` — ${verdictMessage(s.verdict, s.rel)}`);
        }
      }
    }
  }
  counts.push([name, docs.length, blocks, steps, c.proven, c.equal, c.refuted, c.unknown, c.skipped]);
}

const PW_REL = /^\s*(=|<|>|\\le|\\leq|\\ge|\\geq|\\ne|\\neq|\\equiv|\\approx|\\sim|\\lt|\\gt|\\leqslant|\\geqslant|\\subseteq|\\subset|\\in|\\iff|\\implies|\\leadsto|:=|\\cong|\\simeq|\\to|)\s*$/;
const PW_FRAGMENT = /^\\\((.*)\\\)$/;

/**
 * ProofWiki eqn tables, rendered as runs of fragments `\(\ds l\)`, `\(=\)`, `\(\ds r\)`
 * (the relation column may be empty, the left column may hold `+` of an expression broken
 * over rows, an optional first column holds `\leadsto` or a tag), with the comment column
 * as plain text. They become align rows `l & rel & r \quad \text{comment}`, one per
 * relation column, so the extractor sees the same chains as in LaTeX.
 */
/** The comment column as `\\text{…}` content: its inline math (`$r = t_1 + s$`) kept when it is balanced. */
function commentText(c) {
  const t = c.slice(0, 400);
  let depth = 0;
  for (const ch of t.replace(/\\[{}$]/g, '')) { if (ch === '{') depth++; else if (ch === '}' && --depth < 0) break; }
  const dollars = (t.match(/(?<!\\)\$/g) ?? []).length;
  return depth === 0 && dollars % 2 === 0 ? t : t.replace(/[{}\\$]/g, ' ');
}

function proofwikiBlocks(sectionText) {
  const lines = sectionText.split('\n').map((l) => l.trim()).filter((l) => l);
  const tables = [[]];
  let cur = [];
  let comment = [];
  let afterRel = 0;
  const flush = () => {
    if (cur.length) tables[tables.length - 1].push(cur.join(' ') + (comment.length ? ` \\quad \\text{${commentText(comment.join(' '))}}` : ''));
    // prose ending in a colon ("Therefore:") introduces the next table: its chains start afresh
    if (cur.length && /:\s*$/.test(comment.join(' '))) tables.push([]);
    cur = [];
    comment = [];
  };
  let inTable = false;
  for (const line of lines) {
    const f = PW_FRAGMENT.exec(line);
    if (!f) { if (inTable) comment.push(line); continue; }
    // spacing commands go, except thin spaces between digit groups (`3 \, 628 \, 800`)
    let frag = f[1].replace(/\\ds\b/g, ' ').replace(/(?<!\d\s*)\\[,;:! ]|\\[,;:! ](?!\s*\d{3}(?!\d))/g, ' ').trim();
    if (/^\\text\s*\{\s*\(\w+\)\s*\}\s*:?\s*\\quad$/.test(frag)) { flush(); continue; } // row tag "(1):"
    // right column; an operator alone there (`o = +` rows) takes the next fragment with it
    // (`= \(\, - \,\) term` after a relation: the row continues the right side above, the
    // relation column only repeats the row's alignment)
    if (afterRel === 1) {
      const op = /^([+-]|\\(times|cdot|pm|mp))$/.test(frag);
      if (op && /^&.+&$/.test(cur[cur.length - 1]) && f[1].includes('\\ds')) cur[cur.length - 1] = '&&';
      cur.push(frag);
      afterRel = op ? 1 : 0;
      continue;
    }
    const isRel = f[1].trim() === '' || (!/\\ds\b/.test(f[1]) && frag !== '' && PW_REL.test(frag));
    if (isRel && cur.length) {
      // a relation column: a new row starts here unless the row so far is only a left column
      cur.push(frag ? `&${frag}&` : '&&');
      afterRel = 1;
      inTable = true;
      continue;
    }
    // a further column that starts with a relation (`\(\ds = 41\)`) continues the row's chain
    if (cur.some((c) => c.startsWith('&')) && /^(=|<|>|\\(le|ge|leq|geq|ne|neq|lt|gt)(?![A-Za-z]))/.test(frag)) { cur.push(frag); continue; }
    if (cur.some((c) => c.startsWith('&'))) flush();
    cur.push(frag);
  }
  flush();
  if (!inTable) return [];
  return tables.filter((t) => t.length).map((rowTexts) => {
    let text = '';
    const spans = [];
    const rowIndex = [];
    for (const r of rowTexts) {
      const s = text.length;
      text += r;
      spans.push({ start: s, end: text.length });
      rowIndex.push(s);
      text += ' \\\\\n';
    }
    return { text, rows: spans, rowIndex };
  });
}

/** Prose of a page section with its eqn tables turned back into inline math (`$l = r$`). */
function prose(text) {
  const out = [];
  let math = [];
  for (const line of text.split('\n')) {
    const f = PW_FRAGMENT.exec(line.trim());
    if (f) {
      const frag = f[1].replace(/\\ds\b/g, ' ').trim();
      // one `$l rel r$` per table row
      if (math.length >= 2 && PW_REL.test(math[math.length - 1]) && !PW_REL.test(math[math.length - 2])) { out.push(`$${[...math, frag].join(' ')}$`); math = []; continue; }
      math.push(frag);
      continue;
    }
    if (line.trim() === '') continue;
    if (math.length) { out.push(`$${math.join(' ')}$`); math = []; }
    out.push(line.trim());
  }
  if (math.length) out.push(`$${math.join(' ')}$`);
  return out.join('\n');
}

function realProofWiki(checker, refuted, counts) {
  const file = process.env.EVAL_PROOFWIKI_FILE ?? path.join(data, 'proofwiki', 'proofwiki_pages_rendered.jsonl');
  if (!fs.existsSync(file)) return;
  checker.setMacros([], 'proofwiki');
  const c = { proven: 0, equal: 0, refuted: 0, unknown: 0, skipped: 0 };
  let pages = 0, blocks = 0, steps = 0;
  const limit = Number(process.env.EVAL_PROOFWIKI_MAX ?? Infinity);
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('\\\\(=\\\\)') && !line.includes('\\\\(\\\\le\\\\)')) continue;
    if (pages >= limit) break;
    const page = JSON.parse(line);
    let any = false;
    let before = '';
    for (const sec of page.sections) {
      const earlier = before;
      before += `\n${prose(sec.text)}`;
      if (!/^Proof/.test(sec.heading)) continue;
      const tables = proofwikiBlocks(sec.text);
      let rowBase = 0;
      for (const b of tables) {
      any = true;
      blocks++;
      if (process.env.EVAL_DEBUG) console.log(b.text);
      // the page title, the statement and the prose before the table stand for "the text
      // around the display" (where a proof states its hypotheses: "where $q = 1 - p$")
      // the section's prose lines (comments and text between its tables: "where $r = t_1 + s$"),
      // not its table rows, which are the chains being checked
      const lead = sec.text.split('\n').map((l) => l.trim()).filter((l) => l && !PW_FRAGMENT.test(l)).join('\n');
      const context = `${page.title}. ${earlier.slice(-1500)}\n${lead.slice(0, 2000)}`;
      for (const s of checker.checkBlock({ key: '', start: 0, text: b.text, rows: b.rows, context }).steps) {
        steps++;
        c[s.verdict.kind]++;
        if (s.verdict.kind === 'refuted') {
          const row = rowBase + b.rowIndex.filter((x) => x <= s.rhsStart).length;
          refuted.push(`ProofWiki ${page.url} (${sec.heading}, eqn row ${row}): \`${s.lhs}\` ${s.rel} \`${s.rhs}\` — ${verdictMessage(s.verdict, s.rel)}`);
          if (process.env.EVAL_DUMP) fs.appendFileSync(process.env.EVAL_DUMP, `\n=== ${page.url} (${sec.heading}, eqn row ${row}): ${s.lhs}  ${s.rel}  ${s.rhs}\n--- ${verdictMessage(s.verdict, s.rel)}\n${b.text}\n`);
        }
      }
      rowBase += b.rows.length;
      }
    }
    if (any) pages++;
  }
  counts.push(['ProofWiki eqn tables', pages, blocks, steps, c.proven, c.equal, c.refuted, c.unknown, c.skipped]);
}

function real() {
  const checker = new DerivationChecker();
  const refuted = [];
  const counts = [];
  const started = Date.now();
  if (!process.env.EVAL_SKIP_LATEX) {
    realLatex('Stacks', path.join(data, 'latex', 'stacks-project'), checker, refuted, counts);
    realLatex('HoTT', path.join(data, 'latex', 'hott-book'), checker, refuted, counts);
  }
  realProofWiki(checker, refuted, counts);
  const ms = Date.now() - started;
  console.log(`\n## Derivation checker: real derivations (${ms} ms)\n`);
  const total = counts.reduce((t, r) => r.map((x, i) => (i === 0 ? 'total' : t[i] + x)), ['total', 0, 0, 0, 0, 0, 0, 0, 0]);
  const rows = [...counts, total].map((r) => {
    const checked = r[4] + r[5] + r[6] + r[7];
    return [...r, checked ? (100 * r[7] / checked).toFixed(1) + '%' : '-'];
  });
  console.log(table([['corpus', 'documents', 'blocks', 'steps', 'proven', 'numerically equal', 'refuted', 'unknown', 'skipped', 'unknown rate'], ...rows]));
  console.log(`\n(unknown rate = unknown / (proven + equal + refuted + unknown); skipped = ≈, ∼, ∈, →, …, and equations introduced by ⇒/⇔/"hence")`);
  console.log(`\nRefuted steps (${refuted.length}):`);
  for (const s of refuted) console.log(`- ${s}`);
  // the list also goes to a file (test-output is not committed): read it after each run
  fs.mkdirSync(path.join(root, 'test-output'), { recursive: true });
  fs.writeFileSync(path.join(root, 'test-output', 'eval-derivations-real.txt'), `${refuted.length} refuted real steps\n\n${refuted.map((s) => `- ${s}`).join('\n')}\n`);
}

if (only('synthetic')) synthetic();
if (only('real')) real();
