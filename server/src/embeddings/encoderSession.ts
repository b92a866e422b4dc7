// One loaded encoder: the tokenizer plus an onnxruntime-node session on the selected provider.
// Runs wherever it is created (the embedding worker, or the eval script directly).
import { MathTokenizer, type EncodeOptions } from './tokenizer.js';
import { loadEncoderFiles, ModelError, type EncoderFiles } from './modelFiles.js';
import { selectProvider, webgpuUnlikely, type Accelerator, type Provider, type ProviderAttempt } from './providers.js';
import { PAD_ID } from './vocabulary.js';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { packageRoot } from '../util/packageRoot.js';
import { ensureUnpacked } from '../util/packedFiles.js';

type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;

export interface EncoderInfo {
  version: string;
  dim: number;
  provider: Provider;
  fallbacks: ProviderAttempt[];
  loadMs: number;
  onnxPath: string;
}

export interface EncoderOptions {
  accelerator?: Accelerator;
  log?: (msg: string) => void;
  /** Threads for the CPU provider (the language server should leave cores to the editor). */
  threads?: number;
  /** Model folder under the models folder (default mathsense-encoder; formula-encoder for equations). */
  model?: string;
  /** For tests: replaces onnxruntime's session factory. */
  createSession?: (ort: Ort, onnxPath: string, provider: Provider) => Promise<Session>;
}

/**
 * Batches smaller than this go to a CPU session when the model runs on a GPU: a GPU call costs
 * about 10 ms whatever its size (WebGPU on an H100: batch 1 99 items/s, batch 64 7,066 items/s),
 * CPU about 1 ms an item (2 threads: 983 and 1,907 items/s), so a hover's one query is ten
 * times faster on the CPU and an index's batches four times faster on the GPU.
 */
export const GPU_MIN_BATCH = 16;

/**
 * On the CPU a batch runs as sub-batches of at most this many: onnxruntime's CPU arena keeps the
 * largest activations it has seen (the 4-layer encoder at 64 × 128 tokens: ~190 MB resident,
 * at 8: ~25 MB), and the CPU gains nothing from wider batches (items/s at batch 1 ≥ batch 64).
 */
export const CPU_MAX_BATCH = 8;

export class EncoderSession {
  /** The CPU session for small batches when `session` is on a GPU: created on first use; null when it could not be. */
  private small: Promise<Session | null> | undefined;

  private constructor(
    private readonly ort: Ort,
    private readonly session: Session,
    readonly tokenizer: MathTokenizer,
    readonly files: EncoderFiles,
    readonly info: EncoderInfo,
    private readonly createCpu: () => Promise<Session>,
  ) {}

  static async load(modelsDir: string | undefined, opts: EncoderOptions = {}): Promise<EncoderSession> {
    const t0 = performance.now();
    const files = loadEncoderFiles(modelsDir, { model: opts.model });
    const tokenizer = MathTokenizer.load(files.vocabPath);
    if (tokenizer.vocab.hash !== files.config.vocabHash) {
      throw new ModelError(`vocabulary ${files.vocabPath} (hash ${tokenizer.vocab.hash}) is not the one the model was trained with (${files.config.vocabHash})`);
    }
    let ort: Ort;
    try {
      ort = await loadOrt();
    } catch (e) {
      throw new ModelError(`onnxruntime-node cannot be loaded: ${(e as Error).message}`);
    }
    // a provider that cannot load is reported by us (with the reason); onnxruntime's own stderr
    // dump of the same failure is noise in an editor's server log
    if (!process.env.MATHSENSE_ORT_VERBOSE) ort.env.logLevel = 'fatal';
    const create = opts.createSession ?? ((o: Ort, p: string, provider: Provider) => o.InferenceSession.create(p, {
      executionProviders: [provider],
      intraOpNumThreads: opts.threads ?? 2,
      // constant folding (part of 'all') also turns the shipped int8 weights back into float
      // once, at load (models/training/quantize.py)
      graphOptimizationLevel: 'all',
    }));
    const accelerator = opts.accelerator ?? 'auto';
    // `auto` does not try WebGPU where it cannot work (webgpuUnlikely: Dawn's stderr noise)
    const skipWebgpu = accelerator === 'auto' && !opts.createSession ? webgpuUnlikely() : undefined;
    let sel;
    try {
      sel = await selectProvider(accelerator, (p) => (p === 'webgpu' && skipWebgpu ? Promise.reject(new Error(skipWebgpu)) : create(ort, files.onnxPath, p)), opts.log);
    } catch (e) {
      throw new ModelError(`model ${files.onnxPath} cannot be loaded (${(e as Error).message})`);
    }
    const info: EncoderInfo = {
      version: files.config.version, dim: files.config.dim, provider: sel.provider, fallbacks: sel.fallbacks,
      loadMs: performance.now() - t0, onnxPath: files.onnxPath,
    };
    return new EncoderSession(ort, sel.session, tokenizer, files, info, () => create(ort, files.onnxPath, 'cpu'));
  }

  encode(text: string, opts: EncodeOptions = {}): number[] {
    const ids = this.tokenizer.encode(text, { maxTokens: this.files.config.maxTokens, ...opts });
    return ids.length ? ids : [PAD_ID + 1]; // an empty text embeds as [UNK], not as nothing
  }

  /** Embeds token id sequences (one batch, padded to the longest); L2-normalised vectors. */
  async embedIds(batch: number[][]): Promise<Float32Array[]> {
    if (batch.length === 0) return [];
    if (this.info.provider === 'cpu' && batch.length > CPU_MAX_BATCH) {
      const out: Float32Array[] = [];
      for (let i = 0; i < batch.length; i += CPU_MAX_BATCH) out.push(...await this.embedIds(batch.slice(i, i + CPU_MAX_BATCH)));
      return out;
    }
    const max = this.files.config.maxTokens;
    const t = Math.min(max, Math.max(...batch.map((b) => b.length)));
    const ids = new BigInt64Array(batch.length * t);
    const mask = new BigInt64Array(batch.length * t);
    batch.forEach((b, i) => { for (let j = 0; j < Math.min(t, b.length); j++) { ids[i * t + j] = BigInt(b[j]); mask[i * t + j] = 1n; } });
    const session = batch.length < GPU_MIN_BATCH && this.info.provider !== 'cpu' ? (await this.smallBatchSession()) ?? this.session : this.session;
    const out = await session.run({
      input_ids: new this.ort.Tensor('int64', ids, [batch.length, t]),
      attention_mask: new this.ort.Tensor('int64', mask, [batch.length, t]),
    });
    const data = out.embeddings.data as Float32Array;
    const dim = data.length / batch.length;
    return batch.map((_, i) => data.slice(i * dim, (i + 1) * dim));
  }

  async embedTexts(texts: string[], opts: EncodeOptions = {}): Promise<Float32Array[]> {
    return this.embedIds(texts.map((x) => this.encode(x, opts)));
  }

  private smallBatchSession(): Promise<Session | null> {
    // a CPU session that cannot be made (it always can where the GPU one could) leaves all on the GPU
    return (this.small ??= this.createCpu().catch(() => null));
  }

  async release(): Promise<void> {
    const small = await this.small;
    await Promise.all([this.session.release(), small?.release()]);
  }
}

/**
 * onnxruntime-node, once its packed library is unpacked (util/packedFiles.ts): from beside the
 * server, or from the unpacked mirror of a read-only install.
 */
async function loadOrt(): Promise<Ort> {
  const root = packageRoot();
  const from = await ensureUnpacked(root);
  if (from === root) return await import('onnxruntime-node');
  return createRequire(path.join(from, 'server', 'dist', 'mathsense.cjs'))('onnxruntime-node') as Ort;
}
