// Named results on real projects (issue 28): every titled theorem-like statement of
// ../shared/data/latex-wild (`\begin{theorem}[Heine--Borel]`) looked up among the index's titles,
// by the shipped rules (index/namedResults.ts: accents, TeX escapes, possessives, a person's
// result inside a longer description) and, in the same run, by the rules of 630e75b (case,
// apostrophes, dashes and a generic last word only). Prints the counts and every match, for
// reading: a match is right when the title and the indexed result are the same result.
//
//   node scripts/out/bin/evalNamedResults.js [--list]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../lib/repo.js';
import { Workspace, findDocumentFiles } from 'mathsense-server/api/project';
import { statements } from 'mathsense-server/api/analysis';
import { LoadedIndex, namedIds, candidateProofs, QUERY_TOKENS } from 'mathsense-server/api/index';
import { bodyText } from 'mathsense-server/api/features';
import type { Doc } from '../lib/serverTypes.js';
import { MathTokenizer, loadEncoderFiles, EncoderSession } from 'mathsense-server/api/embeddings';

const root = repoRoot;

const shared = process.env.MATHSENSE_SHARED ? path.resolve(process.env.MATHSENSE_SHARED) : path.resolve(root, '..', 'shared');
const wild = path.join(shared, 'data', 'latex-wild');
const indexDir = path.join(root, 'build', 'index');
if (!fs.existsSync(wild) || !fs.existsSync(path.join(indexDir, 'index.json'))) { console.log('eval-named-results: latex-wild or build/index missing, skipped'); process.exit(0); }
const LIST = process.argv.includes('--list');

const index = LoadedIndex.load(indexDir);

// ---- the rules of 630e75b, for the baseline
const oldKey = (s: string) => s.toLowerCase().replace(/\\[a-z]+\s*/g, ' ').replace(/['’`]/g, '').replace(/[^a-z0-9/]+/g, ' ').replace(/ ?\/ ?/g, '/').trim()
  .replace(/^(?:definition|proof of|the) /, '').replace(/ proof \d+$/, '');
const oldKeys = (name: string) => { const f = oldKey(name); if (f.length < 3) return []; const s = f.replace(/\s(?:theorem|lemma|proposition|corollary)$/, ''); return s !== f && s.length >= 3 ? [f, s] : [f]; };
const oldTitles = new Map<string, number[]>();
const [sa, sb] = index.header.kinds.statement;
for (let id = sa; id < sb; id++) for (const k of oldKeys(index.peek(id).title)) { const l = oldTitles.get(k); if (l) l.push(id); else oldTitles.set(k, [id]); }
const oldNamed = (name: string) => new Set(oldKeys(name).flatMap((k) => oldTitles.get(k) ?? []));

/** Titles that say which part of a longer result, not which result: "(i)", "Step 2", a citation. */
const NOT_A_NAME = /^\s*(?:\(?[ivx]+\)?|\d+|step \d+|part [a-z0-9]+|\\cite.*|see .*)\s*$/i;

/**
 * A titled statement of latex-wild: the indexed results its title names now and by the old rules;
 * for those named now, whether the hover's first candidate proof is the named result's.
 */
interface NamedRow {
  project: string; title: string; text: string; kind: string;
  now: Array<{ title: string; strength: number }>; before: string[];
  promoted?: boolean; proofs?: number; firstProof?: string;
}
const rows: NamedRow[] = [];
for (const name of fs.readdirSync(wild).filter((n) => fs.statSync(path.join(wild, n)).isDirectory()).sort()) {
  const ws = new Workspace();
  const docs = findDocumentFiles(path.join(wild, name)).filter((f) => f.endsWith('.tex')).map((f) => ws.loadFile(f)).filter((d): d is Doc => d !== undefined);
  for (const doc of docs) {
    for (const st of statements(ws, doc)) {
      if (!st.title || NOT_A_NAME.test(st.title)) continue;
      const now = namedIds(index, st.title, 'statement');
      const before = oldNamed(st.title);
      rows.push({ project: name, title: st.title, text: bodyText(doc, st.env), kind: st.kind.title, now: [...now.entries()].map(([id, s]) => ({ title: index.entry(id).title, strength: s })), before: [...before].map((id) => index.entry(id).title) });
    }
  }
}
const hit = (r: NamedRow) => r.now.length > 0;

// the hover's candidate proofs of each named statement (its text with the encoder, its title as
// the name): is a proof of the named result listed first?
const models = path.join(root, 'models');
const tok = MathTokenizer.load(loadEncoderFiles(models, { verifyHash: false }).vocabPath);
const enc = await EncoderSession.load(models);
const matched = rows.filter(hit);
const vecs = await enc.embedTexts(matched.map((r) => r.text.slice(0, 4000)));
matched.forEach((r, i) => {
  const q = { ids: tok.encode(r.text.slice(0, 4000), { maxTokens: QUERY_TOKENS }), vec: vecs[i], text: r.text };
  const res = candidateProofs(index, q, { limit: 10, name: r.title });
  r.promoted = !!res[0]?.named;
  r.proofs = namedIds(index, r.title, 'proof').size;
  r.firstProof = res[0]?.entry.title;
});
await enc.release?.();
const per = new Map<string, { titled: number; now: number; before: number; promoted?: number }>();
for (const r of rows) { const p = per.get(r.project) ?? { titled: 0, now: 0, before: 0 }; p.titled++; if (hit(r)) p.now++; if (r.before.length) p.before++; per.set(r.project, p); }
// every row's project is in `per` (the loop above)
for (const r of rows) if (r.promoted) { const p = per.get(r.project)!; p.promoted = (p.promoted ?? 0) + 1; }
console.log('| project | titled statements | named an indexed result (shipped) | (rules of 630e75b) | its proof first in the hover |');
console.log('|---|---|---|---|---|');
for (const [p, c] of per) console.log(`| ${p} | ${c.titled} | ${c.now} | ${c.before} | ${c.promoted ?? 0} |`);
const tot = rows.length, now = rows.filter(hit).length, before = rows.filter((r) => r.before.length).length;
console.log(`| all | ${tot} | ${now} | ${before} | ${rows.filter((r) => r.promoted).length} |`);
const withProofs = matched.filter((r) => (r.proofs ?? 0) > 0);
console.log(`\nnamed results with proofs in the index: ${withProofs.length}; a proof of the named result first in the hover: ${withProofs.filter((r) => r.promoted).length}`);
const held = withProofs.filter((r) => !r.promoted);
console.log(`\nnamed but not promoted (the named result's text is far from the statement's): ${held.length}`);
for (const r of held) console.log(`  ${r.project}: [${r.title}] → ${r.now.map((x) => x.title).join('; ')} · first: ${r.firstProof ?? '—'}`);
const gained = rows.filter((r) => hit(r) && r.before.length === 0), lost = rows.filter((r) => !hit(r) && r.before.length > 0);
console.log(`\nfound now and not before: ${gained.length}; found before and not now: ${lost.length}`);
for (const r of [...gained, ...lost]) console.log(`  ${r.project}: [${r.title}] → now ${r.now.map((x) => `${x.title} (${x.strength})`).join('; ') || '—'} · before ${r.before.join('; ') || '—'}`);
if (LIST) for (const r of rows.filter(hit)) console.log(`  ${r.project}: [${r.title}] → ${r.now.map((x) => `${x.title} (${x.strength})`).join('; ')}${r.promoted ? ' · first in the hover' : ''}`);
process.exit(0);
