// Formula-encoder vectors of canonical equation texts (keyed by the canonical text; the encoder
// reads it through formulaEncoderInput) for the language server. The encoder is
// models/formula-encoder, run by its own EmbeddingService (worker thread + on-disk cache, the
// same code as the text encoder). Workspace vectors are filled in the background; a query's
// vector is awaited for at most a short time, then the search runs without the encoder.
// Without the model every method answers "no vector" and `status` says why.
import { ServerEmbeddings, type EmbeddingSettings } from '../embeddings/serverEmbeddings.js';
import { findModelsDir, FORMULA_ENCODER_DIR, loadEncoderFiles } from '../embeddings/modelFiles.js';
import { formulaEncoderInput } from './equationFeatures.js';
import type { FormulaEncoderStatus } from '../ext/protocol.js';


const BATCH = 64;
const LIMIT = 200_000;

export class FormulaVectors {
  private readonly service: ServerEmbeddings;
  private readonly vectors = new Map<string, Float32Array>();
  private readonly wanted = new Set<string>();
  private queue: string[] = [];
  private running = false;
  private missing: string | undefined;
  private checkedPath: string | undefined | null = null;
  private version: string | undefined;
  /** The encoder worker is started by the first vector asked for, never by a status request. */
  private started = false;
  /** Advances when vectors arrive. */
  generation = 0;

  constructor(private readonly log: (m: string) => void, private readonly settings: () => EmbeddingSettings) {
    this.service = new ServerEmbeddings(log, settings, FORMULA_ENCODER_DIR);
  }

  /** Whether the model files are there (checked once per models path; no worker is started without them). */
  private present(): boolean {
    const p = this.settings().modelsPath;
    if (this.checkedPath !== p) {
      this.checkedPath = p;
      try {
        loadEncoderFiles(findModelsDir(p), { model: FORMULA_ENCODER_DIR, verifyHash: false });
        this.missing = undefined;
      } catch (e) {
        this.missing = `${(e as Error).message}: related equations are ranked by fingerprints and structure only`;
        this.log(`formula encoder unavailable: ${this.missing}`);
      }
    }
    return !this.missing;
  }

  get(canonical: string): Float32Array | undefined { return this.vectors.get(canonical); }

  /** Why the encoder cannot be used (model files missing), or undefined. */
  get unavailable(): string | undefined { this.present(); return this.missing; }

  /** The model version whose vectors these are (undefined until the model has loaded). */
  get modelVersion(): string | undefined { return this.version; }

  /** Asks for vectors of these texts in the background. */
  want(texts: Iterable<string>): void {
    if (!this.present()) return;
    for (const t of texts) {
      if (!t || this.vectors.has(t) || this.wanted.has(t)) continue;
      this.wanted.add(t);
      this.queue.push(t);
    }
    void this.pump();
  }

  /** The vector of one text, waiting for the encoder at most `ms` (then undefined; it stays wanted). */
  async query(text: string, ms: number): Promise<Float32Array | undefined> {
    const have = this.vectors.get(text);
    if (have || !this.present() || !text) return have;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), ms); });
    this.started = true;
    const embed = (async () => {
      const svc = await this.service.get();
      if (!svc) return undefined;
      this.version = svc.status().modelVersion;
      const [v] = await svc.embed([formulaEncoderInput(text)]);
      this.put(text, v);
      return v;
    })().catch(() => undefined);
    const v = await Promise.race([embed, timeout]);
    clearTimeout(timer);
    return v;
  }

  private put(t: string, v: Float32Array): void {
    if (this.vectors.size >= LIMIT) this.vectors.clear();
    this.vectors.set(t, v);
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) {
        this.started = true;
        const svc = await this.service.get();
        if (!svc) { this.queue = []; this.wanted.clear(); return; }
        this.version = svc.status().modelVersion;
        const batch = this.queue.splice(0, BATCH);
        const vs = await svc.embed(batch.map(formulaEncoderInput)).catch(() => undefined);
        batch.forEach((t, i) => { this.wanted.delete(t); if (vs) this.put(t, vs[i]); });
        this.generation++;
      }
    } finally {
      this.running = false;
    }
  }

  get pending(): number { return this.queue.length; }

  async status(): Promise<FormulaEncoderStatus> {
    if (!this.present()) return { state: 'unavailable', message: this.missing };
    if (!this.started) return { state: 'idle' };
    const s = await this.service.status();
    if (s.state === 'ready') this.version = s.modelVersion;
    return { state: s.state, modelVersion: s.modelVersion, message: s.message };
  }

  dispose(): void { this.service.dispose(); }
}
