// PS-ProofWiki premise selection (CC BY-SA 3.0): statement -> premises, by uuid.
import * as fs from 'node:fs';
import * as path from 'node:path';

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
