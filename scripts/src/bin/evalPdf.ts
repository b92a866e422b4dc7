// `npm run eval` rows for PDFs in the author's library (issue 41, part 2): how much of a paper
// survives in its PDF's text layer, measured against the paper's own LaTeX. Stacks chapters
// (real documents that Debian's TeX Live compiles) are compiled with pdflatex into
// .cache/pdf-eval; each is then read twice through the library's code, as LaTeX (readPaper, with
// the .aux the run wrote, so numbers are the printed ones) and as a PDF (readPdfPaper), and the
// two compared:
//   * statements found: a LaTeX statement or definition whose name and number the PDF has;
//   * text kept: word F1 of the PDF entry's words against the LaTeX body written as plain text
//     (words of three letters or more: the prose, which is what the text layer keeps);
//   * proofs found: a LaTeX proof whose statement is found and which the PDF's proof of that
//     statement stands for;
//   * extra: PDF entries that are no LaTeX statement (false heads).
// Skipped, saying so, without pdflatex or the shared data.
//   node scripts/out/bin/evalPdf.js [--only pdf]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';
import { loadPdfjs, pdfLines, readPaper, readPdfPaper, sharedDataDir, type LibraryEntry } from 'mathsense-server/api/index';
import { latexToPlain } from 'mathsense-server/api/analysis';

const argv = process.argv.slice(2);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
if (only && only !== 'pdf') process.exit(0);
const stacks = path.join(sharedDataDir(), 'latex', 'stacks-project');
const CHAPTERS = ['sets', 'topology', 'sheaves', 'fields', 'modules'];
if (!fs.existsSync(stacks)) { console.log('eval-pdf: shared data missing, skipped'); process.exit(0); }
if (spawnSync('pdflatex', ['--version']).status !== 0) { console.log('eval-pdf: pdflatex missing (apt install texlive-latex-extra), skipped'); process.exit(0); }
const pdfjs = await loadPdfjs();
if (!pdfjs.mod) { console.log(`eval-pdf: ${pdfjs.problem}`); process.exit(1); }

const work = path.join(repoRoot, '.cache', 'pdf-eval');
fs.mkdirSync(work, { recursive: true });
const log = (m: string) => console.error(`[eval-pdf] ${m}`);

/** Compiles `name`.tex of the copied Stacks sources twice (numbers and references settle), unless its PDF is there. */
function compile(name: string): string | undefined {
  const pdf = path.join(work, `${name}.pdf`);
  if (fs.existsSync(pdf) && fs.existsSync(path.join(work, `${name}.aux`))) return pdf;
  for (const f of fs.readdirSync(stacks)) if (f.endsWith('.tex') && !fs.existsSync(path.join(work, f))) fs.copyFileSync(path.join(stacks, f), path.join(work, f));
  const t0 = Date.now();
  for (let i = 0; i < 2; i++) spawnSync('pdflatex', ['-interaction=nonstopmode', `${name}.tex`], { cwd: work, stdio: 'ignore', timeout: 600_000 });
  log(`${name}.pdf compiled in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return fs.existsSync(pdf) ? pdf : undefined;
}

const words = (t: string) => t.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
function wordF1(a: string, b: string): number {
  const wa = words(a), wb = words(b);
  if (!wa.length || !wb.length) return 0;
  const count = new Map<string, number>();
  for (const w of wa) count.set(w, (count.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of wb) { const c = count.get(w) ?? 0; if (c > 0) { common++; count.set(w, c - 1); } }
  return common === 0 ? 0 : (2 * common) / (wa.length + wb.length);
}
/** What of a body the PDF prints: the Stacks preamble makes its slogans, references and histories comments. */
const printed = (t: string) => t.replace(/\\begin\{(slogan|reference|history)\}[\s\S]*?\\end\{\1\}/g, '');
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : 0; };
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '–');
const key = (e: LibraryEntry) => `${e.name}\u0000${e.number}`;

const rows: Array<Array<string | number>> = [['chapter', 'pages', 'statements (LaTeX)', 'found in the PDF', 'text kept (median word F1)', 'proofs found', 'extra PDF entries', 'read, ms per page']];
const total = { statements: 0, found: 0, proofs: 0, proofsFound: 0, extra: 0, f1: [] as number[], pages: 0, ms: 0 };
for (const name of CHAPTERS) {
  const pdf = compile(name);
  if (!pdf) { log(`${name}: pdflatex gave no PDF, skipped`); continue; }
  const tex = readPaper(work, path.join(work, `${name}.tex`));
  const t0 = Date.now();
  const read = await readPdfPaper(work, pdf);
  const ms = Date.now() - t0;
  if (!tex || 'problem' in read) { log(`${name}: ${'problem' in read ? read.problem : 'LaTeX unreadable'}`); continue; }
  const lines = await pdfLines(pdf);
  const pages = 'problem' in lines ? 0 : lines.pages;
  const results = (es: readonly LibraryEntry[]) => es.filter((e) => e.kind === 'statement' || e.kind === 'definition');
  const pdfBy = new Map(results(read.entries).map((e) => [key(e), e]));
  const texResults = results(tex.entries).filter((e) => e.number);
  const found = texResults.filter((e) => pdfBy.has(key(e)));
  const f1 = found.map((e) => wordF1(latexToPlain(printed(e.text), 4000), pdfBy.get(key(e))!.text));
  // a proof found: the PDF's proof of the same statement
  const pdfProofOf = new Map(read.entries.filter((e) => e.kind === 'proof' && e.proves !== undefined).map((e) => [key(read.entries[e.proves!]), e]));
  const texProofs = tex.entries.filter((e) => e.kind === 'proof' && e.proves !== undefined && tex.entries[e.proves].number);
  const proofsFound = texProofs.filter((e) => pdfProofOf.has(key(tex.entries[e.proves!])));
  const texKeys = new Set(results(tex.entries).map(key));
  const extra = results(read.entries).filter((e) => !texKeys.has(key(e))).length;
  rows.push([name, pages, texResults.length, pct(found.length, texResults.length), median(f1).toFixed(2), pct(proofsFound.length, texProofs.length), extra, (ms / pages).toFixed(0)]);
  total.statements += texResults.length; total.found += found.length; total.proofs += texProofs.length; total.proofsFound += proofsFound.length; total.extra += extra; total.f1.push(...f1); total.pages += pages; total.ms += ms;
}
rows.push(['all', total.pages, total.statements, pct(total.found, total.statements), median(total.f1).toFixed(2), pct(total.proofsFound, total.proofs), total.extra, (total.ms / Math.max(1, total.pages)).toFixed(0)]);
console.log('\nPDFs in the library: what of a paper its text layer keeps (Stacks chapters compiled by pdflatex, read as LaTeX and as PDF)');
console.log(table(rows));
