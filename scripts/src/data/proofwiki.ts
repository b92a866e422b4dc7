// ProofWiki pages (CC BY-SA 3.0): theorem statements with their proof sections.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isHeldOut } from './splits.js';

export interface ProofWikiTheorem {
  url: string;
  /** Title without a "/Proof N" suffix: the split key shared by all proofs of one theorem. */
  base: string;
  statement: string;
  proofs: string[];
  heldOut: boolean;
}

/** One line of proofwiki_pages_rendered.jsonl. */
export interface ProofWikiPage { url: string; title: string; sections: Array<{ heading: string; text: string }> }

const isProofHeading = (h: string) => h === 'Proof' || /^Proof \d+$/.test(h) || h.startsWith('Proof ');

/** Theorems grouped by base title (main page and its "/Proof N" subpages merged). */
export function loadProofWiki(dataDir: string): ProofWikiTheorem[] {
  const file = path.join(dataDir, 'proofwiki', 'proofwiki_pages_rendered.jsonl');
  const byBase = new Map<string, ProofWikiTheorem>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const p = JSON.parse(line) as ProofWikiPage;
    const thm = p.sections.find((s) => s.heading === 'Theorem');
    const proofs = p.sections.filter((s) => isProofHeading(s.heading) && s.text.trim().length > 0).map((s) => s.text);
    if (!thm || !thm.text.trim() || proofs.length === 0) continue;
    const base = p.title.replace(/\/Proof \d+$/, '');
    const cur = byBase.get(base);
    if (cur) cur.proofs.push(...proofs);
    else byBase.set(base, { url: p.url, base, statement: thm.text, proofs, heldOut: isHeldOut(`proofwiki:${base}`) });
  }
  return [...byBase.values()];
}
