// `mathsense models info`: loads the encoder the way the server would and reports the model,
// its vocabulary, the execution provider in use (and why others were skipped), load time.
import * as fs from 'node:fs';
import { EncoderSession, GPU_MIN_BATCH } from './encoderSession.js';
import { findModelsDir } from './modelFiles.js';
import { parseAccelerator, ACCELERATORS } from './providers.js';

export async function modelsInfo(args: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  let accelerator = 'auto';
  let models: string | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--accelerator') accelerator = args[++i] ?? '';
    else if (a.startsWith('--accelerator=')) accelerator = a.slice(14);
    else if (a === '--models') models = args[++i];
    else if (a === '--json') json = true;
    else { err(`mathsense models info: unknown option ${a}\nUsage: mathsense models info [--accelerator ${ACCELERATORS.join('|')}] [--models DIR] [--json]\n`); return 2; }
  }
  if (!(ACCELERATORS as readonly string[]).includes(accelerator)) { err(`mathsense models info: --accelerator must be one of ${ACCELERATORS.join(', ')}\n`); return 2; }
  const logs: string[] = [];
  const dir = findModelsDir(models);
  try {
    const enc = await EncoderSession.load(dir, { accelerator: parseAccelerator(accelerator), log: (m) => logs.push(m) });
    const i = enc.info;
    const size = fs.statSync(i.onnxPath).size;
    if (json) out(`${JSON.stringify({ ok: true, modelVersion: i.version, onnx: i.onnxPath, bytes: size, vocabulary: enc.tokenizer.vocab.size, accelerator, provider: i.provider, fallbacks: i.fallbacks, loadMs: Math.round(i.loadMs) })}\n`);
    else {
      out(`model:       mathsense-encoder ${i.version} (${i.onnxPath}, ${(size / 1e6).toFixed(1)} MB, ${i.dim}-dim)\n`);
      out(`vocabulary:  ${enc.tokenizer.vocab.size} tokens (${enc.tokenizer.vocab.hash})\n`);
      out(`accelerator: ${accelerator} -> provider ${i.provider}${i.provider === 'cpu' ? '' : ` (batches under ${GPU_MIN_BATCH} on the CPU: faster there)`}\n`);
      for (const f of i.fallbacks) out(`  ${f.provider} unavailable: ${f.error}\n`);
      out(`load time:   ${Math.round(i.loadMs)} ms\n`);
    }
    await enc.release();
    return 0;
  } catch (e) {
    const message = (e as Error).message;
    if (json) out(`${JSON.stringify({ ok: false, accelerator, error: message })}\n`);
    else err(`mathsense models info: embeddings unavailable: ${message}\n`);
    return 1;
  }
}
