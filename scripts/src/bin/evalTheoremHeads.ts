// Candidate proofs on theorem heads of real projects (issue 36): every theorem-like head of each
// ../shared/data/latex-wild project whose printed name says it is proved (Theorem, Lemma,
// Proposition, Corollary, Claim, Fact, …; not definitions, examples, exercises or remarks, by
// the name the project's declaration prints, never by its \theoremstyle), hovered on its
// `\begin` line through the bundled server over stdio as an editor asks. "Shown": the hover
// lists at least one candidate proof. A sample of at most --per-project heads per project
// (seeded), by the current bundle and, in the same run, by --baseline-dist (a server/dist folder of
// another build, e.g. a worktree at the commit before the change).
//
//   node scripts/out/bin/evalTheoremHeads.js [--per-project N] [--seed S] [--baseline-dist DIST] [--only NAME]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { StdioServer } from '../lib/lspServer.js';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';
import { Workspace, findDocumentFiles } from 'mathsense-server/api/project';
import { statements } from 'mathsense-server/api/analysis';

const arg = (name: string, dflt?: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const PER_PROJECT = Number(arg('per-project', '40'));
const SEED = Number(arg('seed', '36'));
const ONLY = arg('only', '');
const BASELINE = arg('baseline-dist');
const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(repoRoot, '..', 'shared');
const wild = path.join(shared, 'data', 'latex-wild');
const bundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');
if (!fs.existsSync(bundle)) { console.error(`${bundle} missing: npm run build`); process.exit(1); }
if (!fs.existsSync(wild)) { console.log(`eval-theorem-heads: ${wild} missing, skipped`); process.exit(0); }

/** Printed names of results that have proofs. */
const PROVED = /\b(?:theorem|lemma|proposition|corollary|claim|fact|observation|satz|th[ée]or[èe]me|lemme)\b/i;

function rng(seed: number) {
  let a = seed >>> 0;
  return () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

interface Head { uri: string; file: string; text: string; line: number; character: number; name: string }

/** The project's proved-kind heads, sampled. */
function heads(dir: string): Head[] {
  const ws = new Workspace();
  for (const f of findDocumentFiles(dir)) if (/\.tex$/.test(f)) ws.loadFile(f);
  const out: Head[] = [];
  for (const doc of ws.all()) {
    for (const st of statements(ws, doc)) {
      if (!PROVED.test(st.kind.title)) continue;
      const p = doc.positionAt(st.env.start);
      out.push({ uri: doc.uri, file: new URL(doc.uri).pathname, text: doc.text, line: p.line, character: p.character + 3, name: st.kind.title });
    }
  }
  const rand = rng(SEED);
  for (let i = out.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [out[i], out[j]] = [out[j], out[i]]; }
  return out.slice(0, PER_PROJECT);
}

class Server extends StdioServer {
  async ready() {
    for (let i = 0; i < 1200; i++) {
      const s = await this.status();
      if (s.index?.state === 'unavailable') throw new Error(`index unavailable: ${s.index.message}`);
      if (s.index?.state === 'ready' && s.index.semantic !== undefined) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('index not ready');
  }
  async settled() {
    for (let i = 0; i < 3000; i++) {
      if (!(await this.status()).index?.pendingVectors) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** How many of the heads show candidate proofs through the server of `cjs`. */
async function shown(cjs: string, dir: string, hs: Head[]): Promise<number> {
  const server = new Server(cjs, dir);
  await server.start();
  await server.ready();
  const opened = new Set<string>();
  for (const h of hs) if (!opened.has(h.uri)) { opened.add(h.uri); await server.open(h.uri, h.text); }
  // the first hovers ask for the statements' vectors; the answers come once they are there
  for (const h of hs) await server.hover(h.uri, { line: h.line, character: h.character });
  await server.settled();
  let n = 0;
  for (const h of hs) if (/\*\*Candidate proofs\*\*/.test(await server.hover(h.uri, { line: h.line, character: h.character }))) n++;
  await server.end();
  return n;
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
const rows: string[][] = [];
let all = 0, now = 0, base = 0;
for (const name of fs.readdirSync(wild).sort()) {
  const dir = path.join(wild, name);
  if (!fs.statSync(dir).isDirectory() || (ONLY && name !== ONLY)) continue;
  const hs = heads(dir);
  if (hs.length === 0) { rows.push([name, '0', 'n/a', ...(BASELINE ? ['n/a'] : [])]); continue; }
  const n = await shown(bundle, dir, hs);
  const b = BASELINE ? await shown(path.join(path.resolve(BASELINE), 'mathsense.cjs'), dir, hs) : 0;
  all += hs.length; now += n; base += b;
  rows.push([name, String(hs.length), `${n} (${pct(n, hs.length)})`, ...(BASELINE ? [`${b} (${pct(b, hs.length)})`] : [])]);
  console.error(`[eval-theorem-heads] ${name}: ${n}/${hs.length}${BASELINE ? ` (baseline ${b})` : ''}`);
}
rows.push(['all', String(all), `${now} (${pct(now, all)})`, ...(BASELINE ? [`${base} (${pct(base, all)})`] : [])]);
console.log(table([['project', 'theorem heads (sampled)', 'with candidate proofs now', ...(BASELINE ? [`baseline ${path.basename(path.dirname(path.dirname(path.resolve(BASELINE))))}`] : [])], ...rows]));
console.log(`\nHeads: theorem-like environments whose printed name is a proved kind (${PROVED.source}); at most ${PER_PROJECT} per project, seed ${SEED}. Shown: the hover on the \\begin line lists a candidate proof.`);
