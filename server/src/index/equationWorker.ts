// Worker-thread entry of the equation analysis (bundled as server/dist/equation-worker.cjs):
// receives batches of equations with their macro definitions, answers their features.
import { parentPort } from 'node:worker_threads';
import { inProcessAnalysis, type AnalysisRequest, type AnalysisResponse } from './equationAnalysis.js';

const analyse = inProcessAnalysis();

parentPort?.on('message', async (req: AnalysisRequest) => {
  let res: AnalysisResponse;
  try {
    res = { id: req.id, results: await analyse(req.items, req.macros) };
  } catch (e) {
    res = { id: req.id, error: (e as Error).stack ?? String(e) };
  }
  parentPort!.postMessage(res);
});
