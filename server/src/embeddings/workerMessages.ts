// What the embedding service and its worker thread say to each other (embeddingWorker.ts has
// the protocol and why the control words exist). Its own module because the worker's top level
// must never run in the main thread, and the main side must not load the whole service into
// the worker either.
import type { EncoderSession } from './encoderSession.js';
import type { Accelerator } from './providers.js';

/** Indexes into the control words shared with the worker (`WorkerInit.control`, an Int32Array of CONTROL_WORDS). */
export const BUSY = 0;
export const STOP = 1;
export const CONTROL_WORDS = 2;

export interface WorkerInit { modelsDir?: string; model?: string; accelerator: Accelerator; threads: number; control?: SharedArrayBuffer }
export type WorkerRequest = { type: 'embed'; id: number; texts: string[] } | { type: 'close' };
export type WorkerReply =
  | { type: 'ready'; info: EncoderSession['info'] }
  | { type: 'log'; message: string }
  | { type: 'error'; id?: number; message: string; modelError: boolean }
  | { type: 'result'; id: number; vectors: Float32Array[] }
  | { type: 'closed'; released: boolean; message?: string };
