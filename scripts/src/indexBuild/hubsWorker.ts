// A worker thread of computeHubsInWorkers (hubs.ts): its share of the background statements
// against every proof and statement of the index in `dir`.
import { parentPort, workerData } from 'node:worker_threads';
import { LoadedIndex } from 'mathsense-server/api/index';
import { hubShare, type HubWorkerInput, type HubWorkerResult } from './hubs.js';

const input = workerData as HubWorkerInput;
const index = LoadedIndex.load(input.dir);
const tokens = new Map(input.background.map((id, i) => [id, input.tokens[i]]));
const result = {} as HubWorkerResult;
for (const kind of ['proof', 'statement'] as const) {
  const { bm, cos } = hubShare(index, kind, input.background, (id) => tokens.get(id)!);
  result[kind] = { bm: bm.state(), cos: cos.state() };
}
index.close();
parentPort!.postMessage(result);
