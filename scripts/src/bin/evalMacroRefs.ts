// References made through a project's own macros (issue 28): `\thmref{x}` defined as
// `\myref{Theorem}{x}`, itself `Theorem~\ref*{x}`, at any depth. For every project of
// ../shared/data/latex-wild (and any folder given with --extra), the references its macros make
// (found by this checkout's analysis, project/userMacros.ts), and what a server answers at each:
// the hover previews the referenced label (its header names it), go to
// definition finds it. `--bundle` points at another build of the server (e.g. a worktree of an
// earlier commit) to measure it at the same positions.
//
//   node scripts/out/bin/evalMacroRefs.js [--bundle path/to/mathsense.cjs] [--extra DIR]...
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioServer } from '../lib/lspServer.js';
import { repoRoot } from '../lib/repo.js';
import { Workspace, findDocumentFiles, macroRefs } from 'mathsense-server/api/project';
import type { Doc } from '../lib/serverTypes.js';

const root = repoRoot;

const args = process.argv.slice(2);
const opt = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const bundle = path.resolve(opt('bundle') ?? path.join(root, 'server', 'dist', 'mathsense.cjs'));
const extras = args.flatMap((a, i) => (args[i - 1] === '--extra' ? [path.resolve(a)] : []));
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const wild = path.join(shared, 'data', 'latex-wild');
if (!fs.existsSync(bundle)) { console.error(`${bundle} missing: npm run build`); process.exit(1); }
if (!fs.existsSync(wild)) { console.log(`eval-macro-refs: ${wild} missing, skipped`); process.exit(0); }

const projects = [...fs.readdirSync(wild).filter((n) => fs.statSync(path.join(wild, n)).isDirectory()).sort().map((n) => path.join(wild, n)), ...extras];

/** A project's counts: references through its macros, whose label exists, that hover and go to definition find. */
interface Row { project: string; refs: number; labelled: number; hover: number; definition: number; plain: number }
const rows: Row[] = [];
for (const dir of projects) {
  const ws = new Workspace();
  const docs = findDocumentFiles(dir).filter((f) => /\.(tex|ltx)$/.test(f)).map((f) => ws.loadFile(f)).filter((d): d is Doc => d !== undefined);
  const sites = [];
  for (const doc of docs) for (const r of macroRefs(ws, doc)) sites.push({ doc, r, found: ws.findLabel(doc, r.name).length > 0 });
  const row: Row = { project: path.basename(dir), refs: sites.length, labelled: sites.filter((s) => s.found).length, hover: 0, definition: 0, plain: docs.reduce((n, d) => n + d.refs().length, 0) };
  if (sites.length) {
    const server = new StdioServer(bundle, dir);
    await server.start();
    await server.status(); // answers once the workspace scan and includes are read
    const opened = new Set<Doc>();
    for (const s of sites) {
      if (!opened.has(s.doc)) { opened.add(s.doc); await server.open(s.doc.uri, s.doc.text); }
    }
    for (const s of sites.filter((x) => x.found)) {
      const position = s.doc.positionAt(s.r.start + Math.min(1, s.r.end - s.r.start));
      const md = await server.hover(s.doc.uri, position);
      // the label's own preview: its name in the header (not another popup at that place)
      if (md.includes(`${s.r.name}\``) && !/Undefined reference/.test(md)) row.hover++;
      const d = await server.definition(s.doc.uri, position);
      if (Array.isArray(d) ? d.length : d) row.definition++;
    }
    await server.end();
  }
  rows.push(row);
}
console.log(`server: ${path.relative(process.cwd(), bundle) || bundle}`);
console.log('| project | plain references | references through project macros | their label exists | hover shows it | go to definition finds it |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.project} | ${r.plain} | ${r.refs} | ${r.labelled} | ${r.hover} | ${r.definition} |`);
const sum = (k: Exclude<keyof Row, 'project'>) => rows.reduce((n, r) => n + r[k], 0);
console.log(`| all | ${sum('plain')} | ${sum('refs')} | ${sum('labelled')} | ${sum('hover')} | ${sum('definition')} |`);
process.exit(0);
