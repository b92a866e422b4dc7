// The index's hub scores (indexHubs.ts in the server reads them), computed at build from a
// seeded sample of indexed statements outside the held-out splits.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
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

/** The streamed top scores of every entry of `kind` against some background statements: a proof skips its own statement, a statement itself. */
export function hubShare(index: LoadedIndex, kind: 'proof' | 'statement', background: readonly number[], tokenIds: (id: number) => number[], progress?: (done: number, total: number) => void): { bm: HubScores; cos: HubScores } {
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
  return { bm, cos };
}

/** [BM25 means, cosine means] of each entry, one Float32Array (the hubs file's layout). */
function hubMeans(h: { bm: HubScores; cos: HubScores }): Float32Array {
  const n = h.bm.size;
  const out = new Float32Array(2 * n);
  out.set(h.bm.means(), 0);
  out.set(h.cos.means(), n);
  return out;
}

/** Hub scores of every entry of `kind` against the background statements (token ids of each given). */
export function computeHubs(index: LoadedIndex, kind: 'proof' | 'statement', background: number[], tokenIds: (id: number) => number[], progress?: (done: number, total: number) => void): Float32Array {
  return hubMeans(hubShare(index, kind, background, tokenIds, progress));
}

/**
 * computeHubs for both kinds, the background shared among worker threads (one per core, each
 * reading the index in `dir`), merged to what one pass keeps: the same bits, sooner.
 */
export async function computeHubsInWorkers(dir: string, index: LoadedIndex, background: number[], tokenIds: (id: number) => number[], workers = Math.min(4, os.availableParallelism?.() ?? os.cpus().length)): Promise<{ proof: Float32Array; statement: Float32Array }> {
  const kinds = ['proof', 'statement'] as const;
  const n = Math.max(1, workers);
  const shares = Array.from({ length: n }, (_, w) => background.filter((_, i) => i % n === w));
  const results = await Promise.all(shares.map((share) => new Promise<HubWorkerResult>((resolve, reject) => {
    const worker = new Worker(new URL('./hubsWorker.js', import.meta.url), { workerData: { dir, background: share, tokens: share.map(tokenIds) } satisfies HubWorkerInput });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => { if (code !== 0) reject(new Error(`hub worker exited with ${code}`)); });
  })));
  const out = {} as { proof: Float32Array; statement: Float32Array };
  for (const kind of kinds) {
    const [pa, pb] = index.header.kinds[kind];
    const whole = { bm: new HubScores(pb - pa), cos: new HubScores(pb - pa) };
    for (const r of results) { whole.bm.merge(r[kind].bm); whole.cos.merge(r[kind].cos); }
    out[kind] = hubMeans(whole);
  }
  return out;
}

export interface HubWorkerInput { dir: string; background: number[]; tokens: number[][] }
type HubState = ReturnType<HubScores['state']>;
export type HubWorkerResult = Record<'proof' | 'statement', { bm: HubState; cos: HubState }>;

export function writeHubs(dir: string, name: string, hubs: Float32Array): { name: string; bytes: number } {
  const buf = Buffer.from(hubs.buffer, hubs.byteOffset, hubs.byteLength);
  fs.writeFileSync(path.join(dir, name), buf);
  return { name, bytes: buf.length };
}

