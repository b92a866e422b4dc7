// PS-ProofWiki premise selection (CC BY-SA 3.0): statement -> premises, by uuid.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadProofWiki, type ProofWikiTheorem } from './proofwiki.js';
import { nearestCopies } from './proofwikiLinks.js';
import { textKey } from './splits.js';

export interface PremiseQuery { id: string; text: string; premises: string[] }
export interface PsProofWiki {
  /** Every statement text (all splits): the candidate pool. */
  texts: Map<string, string>;
  train: PremiseQuery[];
  dev: PremiseQuery[];
  test: PremiseQuery[];
  /** Ids of the dev and test statements (with or without premises): never trained on. */
  heldOut: Set<string>;
}

export function loadPsProofWiki(dataDir: string): PsProofWiki {
  const texts = new Map<string, string>();
  const raw: Record<string, Record<string, { text: string; premises: string[] }>> = {};
  for (const s of ['train', 'dev', 'test']) {
    raw[s] = JSON.parse(fs.readFileSync(path.join(dataDir, 'ps-proofwiki', 'output', `${s}.json`), 'utf8'));
    for (const [id, v] of Object.entries(raw[s])) texts.set(id, v.text);
  }
  // premises that resolve to a text, without the statement itself, deduplicated
  const queries = (s: string) => Object.entries(raw[s])
    .map(([id, v]) => ({ id, text: v.text, premises: [...new Set(v.premises)].filter((p) => p !== id && texts.has(p)) }))
    .filter((q) => q.premises.length > 0);
  const heldOut = new Set([...Object.keys(raw.dev), ...Object.keys(raw.test)]);
  return { texts, train: queries('train'), dev: queries('dev'), test: queries('test'), heldOut };
}

/**
 * The ProofWiki page title of each PS-ProofWiki statement (its base title, without "/Proof N"):
 * the page whose theorem text equals it, else the page most like it by word set (Jaccard
 * >= 0.6). PS-ProofWiki statements are ProofWiki theorems re-rendered without their titles.
 * `pages`: the ProofWiki theorems, when the caller has them loaded already (59 MB to parse).
 */
export function psTitles(dataDir: string, ps: PsProofWiki, pages: ProofWikiTheorem[] = loadProofWiki(dataDir)): Map<string, string> {
  const byKey = new Map(pages.map((t) => [textKey(t.statement), t.base]));
  const out = new Map<string, string>();
  const rest: string[] = [];
  for (const [id, text] of ps.texts) { const b = byKey.get(textKey(text)); if (b) out.set(id, b); else rest.push(id); }
  nearestCopies(pages.map((t) => t.statement), rest.map((id) => ps.texts.get(id)!), 0.6).forEach((i, k) => { if (i >= 0) out.set(rest[k], pages[i].base); });
  return out;
}
