// The shipped model, run for real with onnxruntime-node: its outputs match the reference
// vectors PyTorch computed at export time, and the token ids the exporter gave Python match
// what the server's tokenizer produces now.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { EncoderSession, GPU_MIN_BATCH } from './encoderSession.js';
import { ENCODER_DIR, loadEncoderFiles } from './modelFiles.js';
import { assertReproduces } from '../testing/referenceVectors.js';
import { selectProvider, providerOrder, webgpuUnlikely } from './providers.js';
import { repoRoot } from '../testing/paths.js';
import { modelsDir } from '../testing/modelPaths.js';

const reference = JSON.parse(fs.readFileSync(path.join(modelsDir, ENCODER_DIR, 'reference.json'), 'utf8')) as Array<{ text: string; ids: number[]; embedding: number[] }>;

test('each shipped model reproduces its stored reference vectors (onnxruntime-node, CPU)', async () => {
  const enc = await EncoderSession.load(modelsDir, { accelerator: 'cpu' });
  assert.equal(enc.info.provider, 'cpu');
  assert.ok(reference.length >= 3);
  for (const r of reference) {
    assert.deepEqual(enc.encode(r.text), r.ids, 'tokenizer ids differ from the ids the model was exported with');
    const [v] = await enc.embedTexts([r.text]);
    assertReproduces(loadEncoderFiles(modelsDir).config.weights, r.embedding, v, r.text);
  }
  // batching pads; padded rows must embed exactly like single rows
  const batch = await enc.embedTexts(reference.map((r) => r.text));
  const single = await enc.embedTexts([reference[0].text]);
  assert.ok(Math.max(...single[0].map((x, i) => Math.abs(x - batch[0][i]))) < 1e-4);
  await enc.release();
});

test('asking for CUDA where it is absent ends on CPU with a logged reason', async () => {
  const logs: string[] = [];
  const enc = await EncoderSession.load(modelsDir, { accelerator: 'cuda', log: (m) => logs.push(m) });
  if (enc.info.provider === 'cuda') { await enc.release(); return; } // a machine with CUDA libraries
  assert.equal(enc.info.provider, 'cpu');
  assert.equal(enc.info.fallbacks[0].provider, 'cuda');
  assert.ok(enc.info.fallbacks[0].error.length > 0);
  assert.match(logs.join('\n'), /using cpu \(cuda unavailable: .+\)/);
  await enc.release();
});

test('provider order and fallback logic (simulated failures)', async () => {
  assert.deepEqual(providerOrder('auto'), ['cuda', 'webgpu', 'cpu']);
  assert.deepEqual(providerOrder('webgpu'), ['webgpu', 'cpu']);
  assert.deepEqual(providerOrder('cpu'), ['cpu']);
  const logs: string[] = [];
  const sel = await selectProvider('auto', async (p) => { if (p !== 'cpu') throw new Error(`no ${p} here\nstack`); return p; }, (m) => logs.push(m));
  assert.equal(sel.provider, 'cpu');
  assert.deepEqual(sel.fallbacks, [{ provider: 'cuda', error: 'no cuda here' }, { provider: 'webgpu', error: 'no webgpu here' }]);
  assert.deepEqual(logs, ['embeddings: using cpu (cuda unavailable: no cuda here; webgpu unavailable: no webgpu here)']);
  await assert.rejects(selectProvider('cpu', async () => { throw new Error('broken'); }), /no execution provider could load the model: cpu: broken/);
});

test('auto skips WebGPU without a Vulkan loader on Linux (no native stderr noise); an explicit webgpu still tries', () => {
  assert.equal(webgpuUnlikely('darwin', {}), undefined);
  assert.equal(webgpuUnlikely('win32', {}), undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-vk-'));
  try {
    fs.writeFileSync(path.join(dir, 'libvulkan.so.1'), '');
    assert.equal(webgpuUnlikely('linux', { LD_LIBRARY_PATH: `/nowhere:${dir}` }), undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const reason = webgpuUnlikely('linux', { LD_LIBRARY_PATH: '' });
  if (reason === undefined) return; // this machine has a Vulkan loader: nothing to skip
  assert.match(reason, /no Vulkan loader \(libvulkan\.so\.1\)/);
  // the CLI's models info, on auto: the reason is reported, Dawn's own warning is not printed
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'server', 'dist', 'mathsense.cjs'), 'models', 'info'], { encoding: 'utf8', env: { ...process.env, LD_LIBRARY_PATH: '' } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /webgpu unavailable: no Vulkan loader/);
  assert.doesNotMatch(r.stderr, /Vulkan/);
});


test('on a GPU provider, batches under GPU_MIN_BATCH run on a CPU session made on first use; the vectors are the same', async () => {
  // the "webgpu" session is a real onnxruntime CPU session under that name (no GPU here); what is
  // checked is which session each batch reaches
  const runs: string[] = [];
  const enc = await EncoderSession.load(modelsDir, {
    accelerator: 'webgpu',
    createSession: async (ort, onnxPath, provider) => {
      const real = await ort.InferenceSession.create(onnxPath, { executionProviders: ['cpu'], intraOpNumThreads: 1 });
      return new Proxy(real, { get: (t, k) => (k === 'run' ? (feeds: Parameters<typeof real.run>[0]) => { runs.push(provider); return t.run(feeds); } : Reflect.get(t, k)) });
    },
  });
  assert.equal(enc.info.provider, 'webgpu');
  const texts = Array.from({ length: GPU_MIN_BATCH }, (_, i) => `Let $x_${i} \\in G$. Then $x_${i}^{-1} \\in G$.`);
  const one = await enc.embedTexts(texts.slice(0, 1));
  const all = await enc.embedTexts(texts);
  assert.deepEqual(runs, ['cpu', 'webgpu']);
  assert.ok(Math.max(...one[0].map((x, i) => Math.abs(x - all[0][i]))) < 1e-4);
  await enc.release();
});
