// What the language server needs from the embeddings: settings parsing, one lazily started
// EmbeddingService (restarted when the accelerator or models path changes), and a status
// object for `mathsense/status`. Features that need embeddings call `get()`; it resolves to
// undefined (with the reason logged once) when the model is missing or corrupt.
import { EmbeddingService } from './embeddingService.js';
import type { EmbeddingStatus } from '../ext/protocol.js';
import type { Accelerator } from './providers.js';
import { readSetting } from '../ext/settings.js';

export interface EmbeddingSettings { accelerator: Accelerator; modelsPath?: string }

/** From the `mathsense` settings object: `accelerator`, `models.path`. */
export function embeddingSettings(raw: unknown): EmbeddingSettings {
  const p = readSetting(raw, 'models.path').trim();
  return { accelerator: readSetting(raw, 'accelerator'), modelsPath: p || undefined };
}

export class ServerEmbeddings {
  private service: EmbeddingService | undefined;
  private current: EmbeddingSettings = { accelerator: 'auto' };

  /**
   * `settings` is read on every use, so a settings change restarts the service lazily. `model`
   * is the folder under the models folder (the text encoder by default; the formula encoder
   * runs in a second service of its own).
   */
  constructor(private readonly log: (msg: string) => void, private readonly settings: () => EmbeddingSettings = () => ({ accelerator: 'auto' }), private readonly model?: string) {}

  private configure(s: EmbeddingSettings): void {
    if (s.accelerator === this.current.accelerator && s.modelsPath === this.current.modelsPath) return;
    this.current = s;
    void this.service?.dispose();
    this.service = undefined;
  }

  private ensure(): EmbeddingService {
    this.configure(this.settings());
    return (this.service ??= new EmbeddingService({ accelerator: this.current.accelerator, modelsDir: this.current.modelsPath, model: this.model, log: this.log }));
  }

  /** The running service, or undefined when the model cannot be used (features switch off). */
  async get(): Promise<EmbeddingService | undefined> {
    const svc = this.ensure();
    try {
      await svc.start();
      return svc;
    } catch {
      return undefined;
    }
  }

  /** Starts the service if needed and reports provider, fallbacks and cache, or why it is off. */
  async status(): Promise<EmbeddingStatus & { accelerator: Accelerator }> {
    await this.get();
    return { accelerator: this.current.accelerator, ...this.ensure().status() };
  }

  dispose(): void {
    void this.service?.dispose();
  }
}
