// Worker thread entry: owns the onnxruntime session so inference never blocks the language
// server's event loop. Protocol: init -> ready|error; embed(id, texts) -> result|error;
// close -> closed (queued batches are refused, the running one finishes, the session is
// released; then the main thread terminates the worker).
//
// Native code must never be running when the thread is torn down: a worker terminated (or the
// process exiting) while onnxruntime is inside `InferenceSession.run` or its constructor aborts
// the whole process (`terminate called after throwing an instance of 'Napi::Error'`: the
// binding cannot hand its result to a terminating isolate). Hence the shared control words:
// BUSY is 1 while native work runs (model loading, inference, release); STOP, set by the main
// thread, means start no more. The worker raises BUSY *before* it reads STOP and the main thread
// raises STOP before it waits for BUSY to fall (`EmbeddingService.halt`), so with sequentially
// consistent atomics either the worker sees STOP or the main thread sees BUSY.
import { parentPort, workerData } from 'node:worker_threads';
import { EncoderSession } from './encoderSession.js';
import { BUSY, CONTROL_WORDS, STOP, type WorkerInit, type WorkerReply, type WorkerRequest } from './workerMessages.js';


const port = parentPort!;
const init = workerData as WorkerInit;
const post = (m: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
const control = new Int32Array(init.control ?? new SharedArrayBuffer(CONTROL_WORDS * 4));

/** Runs native work with BUSY raised; undefined (nothing run) once the main thread said STOP. */
async function native<T>(f: () => Promise<T>, evenWhenStopped = false): Promise<{ value: T } | undefined> {
  Atomics.store(control, BUSY, 1);
  try {
    if (!evenWhenStopped && Atomics.load(control, STOP) === 1) return undefined;
    return { value: await f() };
  } finally {
    Atomics.store(control, BUSY, 0);
    Atomics.notify(control, BUSY);
  }
}

const loading: Promise<EncoderSession | undefined> = native(() => EncoderSession.load(init.modelsDir, {
  model: init.model, accelerator: init.accelerator, threads: init.threads, log: (message) => post({ type: 'log', message }),
})).then(
  (r) => {
    if (r) post({ type: 'ready', info: r.value.info });
    else post({ type: 'error', message: 'embedding worker stopped before the model was loaded', modelError: false });
    return r?.value;
  },
  (e: Error) => { post({ type: 'error', message: e.message, modelError: e.name === 'ModelError' }); return undefined; },
);

let queue: Array<{ id: number; texts: string[] }> = [];
let closing = false;
/** Settles when the batch being embedded (if any) is done. */
let running: Promise<void> | undefined;

const refuse = (id: number, message: string) => post({ type: 'error', id, message, modelError: false });

function pump(): void {
  if (running) return;
  running = (async () => {
    const enc = await loading;
    while (queue.length && !closing) {
      const m = queue.shift()!;
      if (!enc) { refuse(m.id, 'the embedding model is not loaded'); continue; }
      try {
        const r = await native(() => enc.embedTexts(m.texts));
        if (!r) { refuse(m.id, 'embedding worker stopped'); continue; }
        post({ type: 'result', id: m.id, vectors: r.value }, r.value.map((v) => v.buffer as ArrayBuffer));
      } catch (e) {
        refuse(m.id, (e as Error).message);
      }
    }
  })().finally(() => { running = undefined; });
}

async function close(): Promise<void> {
  closing = true;
  for (const m of queue) refuse(m.id, 'embedding service closed');
  queue = [];
  await running;
  const enc = await loading;
  let message: string | undefined;
  // released even after STOP: release is what makes the thread safe to end
  if (enc) await native(() => enc.release(), true).catch((e: Error) => { message = e.message; });
  post({ type: 'closed', released: !!enc && !message, message });
  // the main thread terminates the thread once it has this answer (nothing native runs any more)
}

port.on('message', (m: WorkerRequest) => {
  if (m.type === 'close') { if (!closing) void close(); return; }
  if (closing) { refuse(m.id, 'embedding service closed'); return; }
  queue.push({ id: m.id, texts: m.texts });
  pump();
});
