// Exports the formula encoder's training data as token ids for models/training/train_formula.py
// (Python never tokenizes). Every text goes through the path the server uses at run time:
// LaTeX → canonicalFormula (server: math/equations/canonicalLatex.ts) → formulaEncoderInput
// (`$…$`, server: index/equationFeatures.ts) → MathTokenizer.encode (models/tokenizer/vocab.json),
// at most 64 tokens.
//
// Clusters (one JSON line each: {s: source, v: 1 when in the validation split, k: source key,
// t: canonical texts, c: token ids; per member a list of variants}):
//   * synthetic — random seed expressions (rewrite/seeds.ts) and 8–16 members
//     made by 1–6 rewrite steps each, verified numerically against the seed;
//   * real-{stacks,hott,proofwiki} — the same for display equations of the train split whose
//     sides the derivation checker's parser reads; the original text is a member;
//   * context-{stacks,hott,proofwiki} — display equations sharing a proof (else a section;
//     ProofWiki: a page), parseable or not (Pfahler & Morik); each with its side-reversed
//     variant (renaming augmentation: the canonical text renames variables by order of first
//     appearance, so reversing `y = x^2` renames them).
// Held out (never written): any equation, row or chain whose canonical text has
// isHeldOut(textKey(canonical)) (data/splits.ts), everything derived from
// it, and ProofWiki pages of held-out theorems. E-Gen data is not read.
//
//   node scripts/out/bin/exportFormulaData.js [--data ../shared/data] [--out .cache/train-formula]
//        [--synthetic 30000] [--seed 1] [--small]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../lib/repo.js';
import { MathTokenizer } from 'mathsense-server/api/embeddings';
import { isHeldOut, textKey } from '../data/splits.js';
import { seededRandom } from 'mathsense-server/api/util';
import { canonicalFormula, toLatex, macroTable, scopeMacros, type MacroTable } from 'mathsense-server/api/math';

/** How a formula is printed (toLatex's styles). */
type LatexStyle = NonNullable<Parameters<typeof toLatex>[1]>;
import { Workspace } from 'mathsense-server/api/project';
import { documentEquations } from 'mathsense-server/api/features';
import { proofWikiEquations, formulaEncoderInput } from 'mathsense-server/api/index';
import { randomSeed } from '../rewrite/seeds.js';
import { makeCluster, type Formula, type Member } from '../rewrite/clusters.js';
import type { ProofWikiPage } from '../data/proofwiki.js';
import { relationChains, chainLatex, reversedEquation, parseSides } from '../rewrite/latexFormula.js';
import { size } from '../rewrite/build.js';

const root = repoRoot;
const { values: opt } = parseArgs({ options: {
  data: { type: 'string', default: path.join(root, '..', 'shared', 'data') },
  out: { type: 'string', default: path.join(root, '.cache', 'train-formula') },
  synthetic: { type: 'string', default: '30000' },
  seed: { type: 'string', default: '1' },
  'val-percent': { type: 'string', default: '5' },
  'max-tokens': { type: 'string', default: '64' },
  /** A quick export for tests: a few files and pages of each source, few synthetic clusters. */
  small: { type: 'boolean', default: false },
  sources: { type: 'string', default: 'stacks,hott,proofwiki' },
  'proofwiki-pages': { type: 'string' },
} });

const t0 = Date.now();
const log = (m: string) => console.log(`[export-formula ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);
const maxTokens = Number(opt['max-tokens']);
const valPercent = Number(opt['val-percent']);
const small = opt.small;
const nSynthetic = small ? Math.min(Number(opt.synthetic), 40) : Number(opt.synthetic);
fs.mkdirSync(opt.out, { recursive: true });

const vocabFile = path.join(root, 'models', 'tokenizer', 'vocab.json');
const tok = MathTokenizer.load(vocabFile);
const noMacros = macroTable([]);

/** Canonical text of a formula (the one text the encoder sees) and whether it is held out. */
const canonical = (latex: string, macros = noMacros) => canonicalFormula(latex, macros);
const heldOut = (c: string) => isHeldOut(textKey(c));
/** Token ids of a canonical text, as the server encodes it; undefined when too long (`cut`: truncate instead). */
function encode(c: string, cut = false): number[] | undefined {
  const ids = tok.encode(formulaEncoderInput(c), { maxTokens: maxTokens + 1 });
  if (ids.length < 2) return undefined;
  if (ids.length > maxTokens) return cut ? ids.slice(0, maxTokens) : undefined;
  return ids;
}
const inVal = (key: string) => isHeldOut(`formula-val:${key}`, valPercent);

const out = fs.createWriteStream(path.join(opt.out, 'clusters.jsonl'));
/**
 * One line of clusters.jsonl: source, validation flag, source key, (real clusters) the display,
 * then per member its canonical texts and their token ids.
 */
interface ClusterRecord { s: string; v: number; k: string; d?: string; t: string[][]; c: number[][][] }

const counts: Record<string, number> = {};
const members: Record<string, number> = {};
const dropped = { heldOutSources: 0, heldOutMembers: 0, tooLong: 0, smallClusters: 0, unparsed: 0 };
function write(rec: ClusterRecord) {
  out.write(`${JSON.stringify(rec)}\n`);
  const key = `${rec.s}${rec.v ? ' (val)' : ''}`;
  counts[key] = (counts[key] ?? 0) + 1;
  members[key] = (members[key] ?? 0) + rec.c.length;
}

// ---------------------------------------------------------------- rewrite clusters

/** A random printing style: the same expression as people write it in different ways. */
function randomStyle(rnd: () => number): LatexStyle {
  return {
    frac: rnd() < 0.8 ? 'frac' : 'slash',
    times: rnd() < 0.45 ? 'cdot' : rnd() < 0.2 ? 'times' : 'juxtapose',
    leftRight: rnd() < 0.5,
    exp: rnd() < 0.8 ? 'power' : 'exp',
    fnParens: rnd() < 0.5 ? 'always' : 'minimal',
  };
}

const formulaLatex = (f: Formula, style: LatexStyle) => f.sides.map((e) => toLatex(e, style)).join(` ${f.rel ?? '='} `);

/**
 * A cluster's record: per member up to two printed styles (the seed also its original canonical
 * texts), each canonicalised, held-out texts and duplicates dropped, too long ones skipped.
 */
function clusterRecord(source: string, key: string, cluster: Member[], rnd: () => number, originals: string[] = [], extra: { d?: string } = {}): ClusterRecord | undefined {
  const seen = new Set<string>();
  const texts: string[][] = [];
  const ids: number[][][] = [];
  cluster.forEach((m, i) => {
    // canonical texts: the originals (already canonical, with their document's macros), then printed styles
    const printed = [formulaLatex(m.formula, randomStyle(rnd))];
    if (rnd() < 0.5) printed.push(formulaLatex(m.formula, randomStyle(rnd)));
    const vt: string[] = [];
    const vi: number[][] = [];
    for (const c of [...(i === 0 ? originals : []), ...printed.map((l) => canonical(l))]) {
      if (seen.has(c)) continue;
      if (heldOut(c)) { dropped.heldOutMembers++; continue; }
      const x = encode(c);
      if (!x) { dropped.tooLong++; continue; }
      seen.add(c);
      vt.push(c);
      vi.push(x);
    }
    if (vi.length) { texts.push(vt); ids.push(vi); }
  });
  if (ids.length < 3) { dropped.smallClusters++; return undefined; }
  return { s: source, v: inVal(key) ? 1 : 0, k: key, ...extra, t: texts, c: ids };
}

const rnd = seededRandom(Number(opt.seed));
for (let i = 0; i < nSynthetic; i++) {
  const seed = randomSeed(rnd);
  const cluster = makeCluster({ sides: [seed] }, rnd);
  if (!cluster) { dropped.smallClusters++; continue; }
  const rec = clusterRecord('synthetic', `synthetic:${opt.seed}:${i}`, cluster, rnd);
  if (rec) write(rec);
  if ((i + 1) % 5000 === 0) log(`${i + 1} synthetic clusters`);
}
log(`synthetic: ${JSON.stringify(counts)}`);

// ---------------------------------------------------------------- real equations

/** A display equation of a source, with where it is (its proof, section or page) and its document's macros. */
interface SourceEquation { latex: string; context: string; macros: MacroTable }

/**
 * Equations of one source: {latex, context, macros}, held-out ones removed together with every
 * display that contains one (a multi-row display holds its labelled rows' text).
 */
function latexSourceEquations(name: string, dir: string, maxFiles: number): SourceEquation[] {
  const ws = new Workspace();
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.tex') && f !== 'fdl.tex').sort().slice(0, maxFiles);
  const eqs: SourceEquation[] = [];
  for (const f of files) {
    const doc = ws.loadFile(path.join(dir, f));
    if (!doc) continue;
    const macros = macroTable(scopeMacros(ws, doc));
    const envs = doc.envs();
    const sites = documentEquations(doc);
    const held = sites.filter((s) => heldOut(canonical(s.latex, macros)));
    for (const s of sites) {
      if (held.some((h) => h.start >= s.start && h.end <= s.end)) { dropped.heldOutSources++; continue; }
      if (s.row !== undefined) continue; // a labelled row: its display is the equation (rows are split below)
      // context: the enclosing proof, else the section
      let ctx: string | undefined;
      for (let e = doc.envAt(s.start); e >= 0; e = envs[e].parent) if (envs[e].name === 'proof') { ctx = `${f}:proof:${envs[e].start}`; break; }
      ctx ??= `${f}:section:${doc.sectionAt(s.start)?.start ?? 0}`;
      eqs.push({ latex: s.latex, context: `${name}:${ctx}`, macros });
    }
  }
  return eqs;
}

function proofWikiSourceEquations(maxPages: number): SourceEquation[] {
  const file = path.join(opt.data, 'proofwiki', 'proofwiki_pages_rendered.jsonl');
  const eqs: SourceEquation[] = [];
  let pages = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    if (pages >= maxPages) break;
    const p: ProofWikiPage = JSON.parse(line);
    pages++;
    // the split of the ProofWiki text encoder: a held-out theorem's pages are not trained on
    if (isHeldOut(`proofwiki:${p.title.replace(/\/Proof \d+$/, '')}`)) { dropped.heldOutSources++; continue; }
    for (const sec of p.sections) {
      for (const latex of proofWikiEquations(sec.text)) {
        if (heldOut(canonical(latex))) { dropped.heldOutSources++; continue; }
        eqs.push({ latex, context: `proofwiki:${p.url}`, macros: noMacros });
      }
    }
  }
  return eqs;
}

const allSources: Array<[string, () => SourceEquation[]]> = [
  ['stacks', () => latexSourceEquations('stacks', path.join(opt.data, 'latex', 'stacks-project'), small ? 2 : Infinity)],
  ['hott', () => latexSourceEquations('hott', path.join(opt.data, 'latex', 'hott-book'), small ? 2 : Infinity)],
  ['proofwiki', () => proofWikiSourceEquations(opt['proofwiki-pages'] ? Number(opt['proofwiki-pages']) : small ? 400 : Infinity)],
];
const sources = allSources.filter(([name]) => opt.sources.split(',').includes(name));

const MAX_SIDE_CHARS = 300;
const CONTEXT_GROUP = 16;
for (const [name, load] of sources) {
  const eqs = load();
  log(`${name}: ${eqs.length} display equations (train split)`);
  // seeds: relation chains whose sides parse; each chain once
  const seen = new Set<string>();
  for (const eq of eqs) {
    for (const chain of relationChains(eq.latex)) {
      if (chain.sides.length > 4 || chain.sides.some((s) => s.length > MAX_SIDE_CHARS)) continue;
      const text = chainLatex(chain);
      const c = canonical(text, eq.macros);
      if (seen.has(c)) continue;
      seen.add(c);
      if (heldOut(c)) { dropped.heldOutSources++; continue; }
      const sides = parseSides(chain.sides, eq.macros);
      if (!sides || sides.reduce((n, e) => n + size(e), 0) < 4) { dropped.unparsed++; continue; }
      const cluster = makeCluster({ sides, rel: chain.rel }, rnd);
      if (!cluster) { dropped.smallClusters++; continue; }
      // the author's own text is a member (through the document's macros)
      const original = canonical(text, eq.macros);
      const rec = clusterRecord(`real-${name}`, `${name}:${c}`, cluster, rnd, [original], { d: canonical(eq.latex, eq.macros) });
      if (rec) write(rec);
    }
  }
  // context groups: equations of one proof/section/page, in order, at most CONTEXT_GROUP each
  const byContext = new Map<string, SourceEquation[]>();
  for (const eq of eqs) byContext.set(eq.context, [...(byContext.get(eq.context) ?? []), eq]);
  for (const [ctx, list] of byContext) {
    const texts: string[][] = [];
    const ids: number[][][] = [];
    const dup = new Set<string>();
    for (const eq of list) {
      const c = canonical(eq.latex, eq.macros);
      if (dup.has(c)) continue;
      dup.add(c);
      const x = encode(c, true);
      if (!x) continue;
      const vt = [c];
      const vi = [x];
      const rev = reversedEquation(eq.latex, eq.macros);
      const rc = rev && canonical(rev, eq.macros);
      if (rc && rc !== c && !heldOut(rc)) { const y = encode(rc, true); if (y) { vt.push(rc); vi.push(y); } }
      texts.push(vt);
      ids.push(vi);
    }
    for (let i = 0; i + 1 < ids.length; i += CONTEXT_GROUP) {
      const part = ids.slice(i, i + CONTEXT_GROUP);
      if (part.length < 2) continue;
      write({ s: `context-${name}`, v: inVal(`${ctx}:${i}`) ? 1 : 0, k: `${ctx}:${i}`, t: texts.slice(i, i + CONTEXT_GROUP), c: part });
    }
  }
  log(`${name}: ${JSON.stringify(counts)}`);
}

await new Promise((res) => out.end(res));
// fixed formulas whose torch embeddings become reference vectors (ONNX export checked against them)
const REFERENCE_FORMULAS = ['(a+b)^2 = a^2 + 2ab + b^2', 'e^{i\\theta} = \\cos\\theta + i\\sin\\theta', '\\frac{d}{dx} \\sin x = \\cos x'];
fs.writeFileSync(path.join(opt.out, 'reference_inputs.json'), JSON.stringify(REFERENCE_FORMULAS.map((latex) => {
  const text = canonical(latex);
  return { latex, text, ids: encode(text, true) };
})));
const meta = { vocabSize: tok.vocab.size, vocabHash: tok.vocab.hash, maxTokens, seed: Number(opt.seed), valPercent, counts, members, dropped, seconds: Math.round((Date.now() - t0) / 1000) };
fs.writeFileSync(path.join(opt.out, 'meta.json'), JSON.stringify(meta, null, 1));
log(`wrote ${path.join(opt.out, 'clusters.jsonl')}: ${JSON.stringify(counts)}; dropped ${JSON.stringify(dropped)}`);
