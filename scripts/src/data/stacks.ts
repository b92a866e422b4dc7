// The Stacks project (GNU FDL 1.2): labelled results, their proofs, and the results each
// proof \ref's (NaturalProofs' Stacks setting). Macros of preamble.tex are returned so texts
// can be tokenized with them expanded.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readMacroDefinitions, type MacroTable } from 'mathsense-server/api/embeddings';
import { isHeldOut } from './splits.js';
import { refsIn } from 'mathsense-server/api/index';

export interface StacksResult {
  label: string; // chapter-qualified, e.g. algebra-lemma-snake
  chapter: string; // the .tex file, e.g. algebra
  env: string;
  statement: string;
  proof?: string;
  refs: string[]; // labels of results \ref'd in the proof (resolved, without itself)
  statementRefs: string[]; // labels of results \ref'd in the statement itself (resolved)
  /** The label as written in its chapter (without the chapter prefix), e.g. lemma-snake. */
  localLabel: string;
  heldOut: boolean;
}

const ENVS = 'lemma|proposition|theorem|definition|remark|remarks|example|situation|exercise';
const ENV_RE = new RegExp(`\\\\begin\\{(${ENVS})\\}([\\s\\S]*?)\\\\end\\{\\1\\}(\\s*\\\\begin\\{proof\\}([\\s\\S]*?)\\\\end\\{proof\\})?`, 'g');

export function loadStacks(dataDir: string): { results: StacksResult[]; macros: MacroTable } {
  const dir = path.join(dataDir, 'latex', 'stacks-project');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.tex')).sort();
  const macros = readMacroDefinitions(fs.readFileSync(path.join(dir, 'preamble.tex'), 'utf8')).macros;
  const raw: Array<Omit<StacksResult, 'statementRefs'> & { rawRefs: string[] }> = [];
  for (const f of files) {
    const chapter = f.slice(0, -4);
    if (chapter === 'preamble' || chapter === 'fdl') continue;
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    ENV_RE.lastIndex = 0;
    for (let m = ENV_RE.exec(text); m; m = ENV_RE.exec(text)) {
      const lab = /\\label\{([^}]*)\}/.exec(m[2]);
      if (!lab) continue;
      const label = `${chapter}-${lab[1]}`;
      const statement = m[2].replace(/\\begin\{reference\}[\s\S]*?\\end\{reference\}/g, '').trim();
      const proof = m[4]?.trim();
      const rawRefs = proof ? refsIn(proof) : [];
      raw.push({ chapter, label, localLabel: lab[1], env: m[1], statement, proof, refs: [], rawRefs, heldOut: isHeldOut(`stacks:${label}`) });
    }
  }
  const known = new Set(raw.map((r) => r.label));
  // local labels first (`lemma-x` in algebra.tex is algebra-lemma-x), then chapter-qualified ones
  const resolve = (chapter: string, id: string) => (known.has(`${chapter}-${id}`) ? `${chapter}-${id}` : known.has(id) ? id : undefined);
  const results: StacksResult[] = raw.map(({ rawRefs, ...r }) => {
    const resolved = (ids: string[]) => [...new Set(ids.map((id) => resolve(r.chapter, id)).filter((x): x is string => !!x && x !== r.label))];
    return { ...r, refs: resolved(rawRefs), statementRefs: resolved(refsIn(r.statement)) };
  });
  return { results, macros };
}
