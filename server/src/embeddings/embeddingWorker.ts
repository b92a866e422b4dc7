// Worker thread entry: owns the onnxruntime session so inference never blocks the language
// server's event loop. Protocol: init -> ready|error; embed(id, texts) -> result|error.
import { parentPort, workerData } from 'node:worker_threads';
import { EncoderSession } from './encoderSession.js';
import type { Accelerator } from './providers.js';

export interface WorkerInit { modelsDir?: string; model?: string; accelerator: Accelerator; threads: number }
export type WorkerRequest = { type: 'embed'; id: number; texts: string[] };
export type WorkerReply =
  | { type: 'ready'; info: EncoderSession['info'] }
  | { type: 'log'; message: string }
  | { type: 'error'; id?: number; message: string; modelError: boolean }
  | { type: 'result'; id: number; vectors: Float32Array[] };

const port = parentPort!;
const init = workerData as WorkerInit;
const post = (m: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

EncoderSession.load(init.modelsDir, { model: init.model, accelerator: init.accelerator, threads: init.threads, log: (message) => post({ type: 'log', message }) }).then(
  (enc) => {
    post({ type: 'ready', info: enc.info });
    port.on('message', async (m: WorkerRequest) => {
      try {
        const vectors = await enc.embedTexts(m.texts);
        post({ type: 'result', id: m.id, vectors }, vectors.map((v) => v.buffer as ArrayBuffer));
      } catch (e) {
        post({ type: 'error', id: m.id, message: (e as Error).message, modelError: false });
      }
    });
  },
  (e) => post({ type: 'error', message: (e as Error).message, modelError: (e as Error).name === 'ModelError' }),
);
