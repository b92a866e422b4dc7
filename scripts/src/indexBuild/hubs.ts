// The index's hub scores (indexHubs.ts in the server reads them), computed at build from a
// seeded sample of indexed statements outside the held-out splits.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HUB_BACKGROUND, type LoadedIndex } from 'mathsense-server/api/index';
import { seededSample } from 'mathsense-server/api/util';
import { HubScores } from '../rankers/hubScores.js';

export const PROOF_HUBS_FILE = 'proof-hubs.bin';
export const STATEMENT_HUBS_FILE = 'statement-hubs.bin';

/** Statement ids for the background: a seeded sample of those not held out. */
export function hubBackground(index: LoadedIndex, n = HUB_BACKGROUND): number[] {
  const [a, b] = index.header.kinds.statement;
  const ids: number[] = [];
  for (let id = a; id < b; id++) if (!index.entry(id).heldOut) ids.push(id);
  return seededSample(ids, n);
}

/**
 * Hub scores of every entry of `kind` against the background statements (token ids of each
 * given): a proof skips its own statement, a statement itself.
 */
export function computeHubs(index: LoadedIndex, kind: 'proof' | 'statement', background: number[], tokenIds: (id: number) => number[], progress?: (done: number, total: number) => void): Float32Array {
  const [pa, pb] = index.header.kinds[kind];
  const n = pb - pa;
  const owner = new Int32Array(n);
  for (let j = 0; j < n; j++) owner[j] = kind === 'proof' ? index.entry(pa + j).statement ?? -1 : pa + j;
  const bm = new HubScores(n), cos = new HubScores(n);
  background.forEach((id, i) => {
    if (i % 100 === 0) progress?.(i, background.length);
    const own = (j: number) => owner[j] === id;
    bm.add(index.bm25Range(tokenIds(id), kind, pa, pb), own);
    cos.add(index.cosineRange(index.vector(id), pa, pb), own);
  });
  const out = new Float32Array(2 * n);
  out.set(bm.means(), 0);
  out.set(cos.means(), n);
  return out;
}

export function writeHubs(dir: string, name: string, hubs: Float32Array): { name: string; bytes: number } {
  const buf = Buffer.from(hubs.buffer, hubs.byteOffset, hubs.byteLength);
  fs.writeFileSync(path.join(dir, name), buf);
  return { name, bytes: buf.length };
}

