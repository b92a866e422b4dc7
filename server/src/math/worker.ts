// Worker-thread entry of the derivation checker (bundled as server/dist/derivation-worker.cjs):
// receives blocks, answers block results. Its verdict cache lives as long as the worker.
import { parentPort } from 'node:worker_threads';
import { DerivationChecker } from './checker.js';
import type { WorkerRequest, WorkerResponse } from './workerRunner.js';

const checker = new DerivationChecker();

parentPort?.on('message', (req: WorkerRequest) => {
  let res: WorkerResponse;
  try {
    checker.setMacros(req.macros, req.macroKey);
    res = { id: req.id, results: req.blocks.map((b) => checker.checkBlock(b)) };
  } catch (e) {
    res = { id: req.id, error: (e as Error).stack ?? String(e) };
  }
  parentPort!.postMessage(res);
});
