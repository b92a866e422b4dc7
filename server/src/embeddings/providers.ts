// Execution provider selection for onnxruntime-node. It throws instead of falling back when a
// provider's libraries or device are missing, so each candidate is tried in turn and every
// failure is kept as a logged reason. `auto` tries CUDA, then WebGPU, then CPU.
import * as fs from 'node:fs';
import * as path from 'node:path';
export type Accelerator = 'auto' | 'cpu' | 'cuda' | 'webgpu';
export type Provider = 'cuda' | 'webgpu' | 'cpu';

export const ACCELERATORS: readonly Accelerator[] = ['auto', 'cpu', 'cuda', 'webgpu'];

export interface ProviderAttempt { provider: Provider; error: string }

export interface Selected<S> {
  session: S;
  provider: Provider;
  /** Providers tried before the one in use, with why they failed. */
  fallbacks: ProviderAttempt[];
}

export function parseAccelerator(v: unknown): Accelerator {
  return typeof v === 'string' && (ACCELERATORS as readonly string[]).includes(v) ? (v as Accelerator) : 'auto';
}

/** Candidates in order: the asked-for one first, CPU always last. */
export function providerOrder(a: Accelerator): Provider[] {
  switch (a) {
    case 'cpu': return ['cpu'];
    case 'cuda': return ['cuda', 'cpu'];
    case 'webgpu': return ['webgpu', 'cpu'];
    default: return ['cuda', 'webgpu', 'cpu'];
  }
}

/** Creates a session with the first provider that works; throws only when CPU fails too. */
export async function selectProvider<S>(
  accelerator: Accelerator,
  create: (p: Provider) => Promise<S>,
  log: (msg: string) => void = () => {},
): Promise<Selected<S>> {
  const fallbacks: ProviderAttempt[] = [];
  for (const provider of providerOrder(accelerator)) {
    try {
      const session = await create(provider);
      if (fallbacks.length) log(`embeddings: using ${provider} (${fallbacks.map((f) => `${f.provider} unavailable: ${f.error}`).join('; ')})`);
      else log(`embeddings: using ${provider}`);
      return { session, provider, fallbacks };
    } catch (e) {
      const error = firstLine((e as Error)?.message ?? String(e));
      fallbacks.push({ provider, error });
      if (provider === 'cpu') throw Object.assign(new Error(`no execution provider could load the model: ${fallbacks.map((f) => `${f.provider}: ${f.error}`).join('; ')}`), { fallbacks });
    }
  }
  throw new Error('unreachable');
}

function firstLine(s: string): string {
  // onnxruntime prefixes source locations; the "Failed to …" clause is the part a user can act on
  const failed = /Failed to [^\n]*/.exec(s);
  const l = failed ? failed[0] : s.split('\n').find((x) => x.trim()) ?? s;
  return l.length > 300 ? `${l.slice(0, 300)}…` : l;
}

/**
 * Why `auto` should not try WebGPU here, or undefined. On Linux onnxruntime's WebGPU (Dawn)
 * needs the Vulkan loader; without it Dawn prints a native warning to stderr that no log level
 * silences, on every start of every session. Only `auto` skips it on this evidence: an explicit
 * `webgpu` still makes the real attempt (a loader in a place not looked at here still works).
 */
export function webgpuUnlikely(platform = process.platform, env = process.env): string | undefined {
  if (platform !== 'linux') return undefined;
  const dirs = [
    ...(env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean),
    ...ldConfigDirs(),
    '/lib', '/usr/lib', '/lib64', '/usr/lib64', '/usr/local/lib',
    `/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu`, `/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu`,
  ];
  for (const d of dirs) if (fs.existsSync(path.join(d, 'libvulkan.so.1'))) return undefined;
  return 'no Vulkan loader (libvulkan.so.1) found, which WebGPU needs here; set mathsense.accelerator to "webgpu" to try it anyway';
}

/** The library folders listed in /etc/ld.so.conf.d (where distributions put the loader's extra paths). */
function ldConfigDirs(): string[] {
  const out: string[] = [];
  try {
    for (const f of fs.readdirSync('/etc/ld.so.conf.d')) {
      if (!f.endsWith('.conf')) continue;
      for (const line of fs.readFileSync(path.join('/etc/ld.so.conf.d', f), 'utf8').split('\n')) {
        const l = line.trim();
        if (l.startsWith('/')) out.push(l);
      }
    }
  } catch { /* no such folder: the standard ones are still looked at */ }
  return out;
}
