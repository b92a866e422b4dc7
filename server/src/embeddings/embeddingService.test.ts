// The service end to end (worker thread, batching, disk cache), and what happens with missing
// or corrupt model files: a clear error, status "unavailable", nothing thrown elsewhere.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddingService } from './embeddingService.js';
import { EncoderSession } from './encoderSession.js';
import { EmbeddingCache } from './embeddingCache.js';
import { ENCODER_DIR, loadEncoderFiles, ModelError } from './modelFiles.js';
import { modelsDir } from '../testing/modelPaths.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-emb-'));

/** A copy of models/ that a test may damage. */
function copyModels(): string {
  const dir = tmp();
  fs.cpSync(modelsDir, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}training`) });
  return dir;
}

test('embeds through the worker, batches, and answers repeats from the disk cache', async () => {
  const cacheDir = tmp();
  const svc = new EmbeddingService({ modelsDir, accelerator: 'cpu', cacheDir });
  const texts = Array.from({ length: 70 }, (_, i) => `Let $x_${i}$ be a real number with $x_${i} > ${i}$.`);
  const a = await svc.embed(texts);
  assert.equal(a.length, 70);
  assert.equal(a[0].length, loadEncoderFiles(modelsDir).config.dim);
  const st = svc.status();
  assert.equal(st.state, 'ready');
  assert.equal(st.provider, 'cpu');
  const again = await svc.embed([texts[3]]);
  assert.deepEqual(Array.from(again[0]), Array.from(a[3]));
  assert.ok(svc.status().cache!.hits >= 1);
  await svc.dispose();
  // a new service reads the vectors back from disk
  const svc2 = new EmbeddingService({ modelsDir, accelerator: 'cpu', cacheDir });
  await svc2.start();
  const b = await svc2.embed([texts[5]]);
  assert.equal(svc2.status().cache!.hits, 1);
  assert.deepEqual(Array.from(b[0]), Array.from(a[5]));
  await svc2.dispose();
});

test('a missing model gives a clear error and the service reports it', async () => {
  const svc = new EmbeddingService({ modelsDir: tmp(), cacheDir: null });
  await assert.rejects(svc.start(), /embeddings unavailable: model config .*config\.json is missing/);
  assert.equal(svc.status().state, 'unavailable');
  await assert.rejects(svc.embed(['x']), /missing/);
  assert.throws(() => loadEncoderFiles(undefined), ModelError);
});

test('a corrupt .onnx (hash mismatch) and a corrupt config are reported, not thrown elsewhere', async () => {
  const dir = copyModels();
  const onnx = path.join(dir, ENCODER_DIR, 'encoder.onnx');
  const bytes = fs.readFileSync(onnx);
  bytes[bytes.length >> 1] ^= 0xff;
  fs.writeFileSync(onnx, bytes);
  await assert.rejects(EncoderSession.load(dir), (e: Error) => e instanceof ModelError && /is corrupt/.test(e.message));
  const svc = new EmbeddingService({ modelsDir: dir, cacheDir: null });
  await assert.rejects(svc.start(), /is corrupt/);
  assert.match(svc.status().message ?? '', /is corrupt/);

  fs.writeFileSync(path.join(dir, ENCODER_DIR, 'config.json'), '{ not json');
  assert.throws(() => loadEncoderFiles(dir), /not valid JSON/);
});

test('a config whose version or paths would lead outside the models folder is refused, and no cache file is made of it', async () => {
  const dir = copyModels();
  const cfgFile = path.join(dir, ENCODER_DIR, 'config.json');
  const good = JSON.parse(fs.readFileSync(cfgFile, 'utf8'));
  const outside = path.join(path.dirname(dir), 'outside');
  for (const [field, value, message] of [
    ['version', '../../outside/victim', /"version" must be a hexadecimal hash/],
    ['onnx', '../../outside/encoder.onnx', /"onnx" must name a file in/],
    ['vocab', path.join(outside, 'vocab.json'), /"vocab" must name a file in/],
    ['dim', -3, /"dim" must be a positive whole number/],
  ] as const) {
    fs.writeFileSync(cfgFile, JSON.stringify({ ...good, [field]: value }));
    assert.throws(() => loadEncoderFiles(dir, { verifyHash: false }), message);
  }
  // the cache names its file after the version: one that is no hash is kept in memory only
  const cacheDir = tmp();
  const c = new EmbeddingCache('../escape', 3, cacheDir);
  c.set(c.key('x'), new Float32Array([1, 2, 3]));
  c.flush();
  assert.deepEqual(fs.readdirSync(cacheDir), []);
  assert.equal(fs.existsSync(path.join(path.dirname(cacheDir), 'escape-3.bin')), false);
});

test('an unreadable .onnx whose hash matches (bad export) fails to load with a clear error', async () => {
  const dir = copyModels();
  const cfgFile = path.join(dir, ENCODER_DIR, 'config.json');
  fs.writeFileSync(path.join(dir, ENCODER_DIR, 'encoder.onnx'), 'not an onnx file');
  const cfg = JSON.parse(fs.readFileSync(cfgFile, 'utf8'));
  cfg.onnxSha256 = (await import('node:crypto')).createHash('sha256').update('not an onnx file').digest('hex');
  fs.writeFileSync(cfgFile, JSON.stringify(cfg));
  await assert.rejects(EncoderSession.load(dir, { accelerator: 'cpu' }), (e: Error) => e instanceof ModelError && /cannot be loaded/.test(e.message));
});

// ---- shutting down while onnxruntime runs (it used to abort the process: Napi::Error) ----

const longTexts = (n: number, tag: string) => Array.from({ length: n }, (_, i) =>
  `Let $G_{${i}}$ (${tag}) be a finite group of order $p^{${i}}$. ${'Every normal subgroup $N$ of $G$ meets the centre $Z(G)$ nontrivially, so $G$ is nilpotent. '.repeat(6)}`);

async function until(what: string, f: () => boolean, ms = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!f()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

test('dispose during a batch: the batch ends, the session is released and acknowledged, then the worker stops', async () => {
  const logs: string[] = [];
  const svc = new EmbeddingService({ modelsDir, accelerator: 'cpu', cacheDir: null, log: (m) => logs.push(m), batchSize: 32 });
  await svc.start();
  const all = svc.embed(longTexts(128, `dispose ${Date.now()}`)).then(() => 'embedded', (e: Error) => e.message);
  await until('the worker inside onnxruntime', () => svc.busy);
  await svc.dispose();
  assert.equal(svc.busy, false);
  // the running batch finished; the batches behind it were refused
  assert.equal(await all, 'embedding service closed');
  await assert.rejects(svc.embed(['Let $x$ be real.']), /embedding service closed/);
  assert.deepEqual(logs.filter((l) => /did not close|releasing the session failed/.test(l)), []);
  await svc.dispose(); // idempotent
  await EmbeddingService.disposeAll(); // nothing left
});

test('process.exit while the worker is inside onnxruntime exits cleanly (the exit hook waits for the native call)', async () => {
  const { spawnSync } = await import('node:child_process');
  const { pathToFileURL } = await import('node:url');
  const script = `
    import { EmbeddingService } from ${JSON.stringify(pathToFileURL(path.join(path.dirname(new URL(import.meta.url).pathname), 'embeddingService.js')).href)};
    const svc = new EmbeddingService({ modelsDir: ${JSON.stringify(modelsDir)}, accelerator: 'cpu', cacheDir: null });
    await svc.start();
    void svc.embed(${JSON.stringify(longTexts(64, `exit ${Date.now()}`))}).catch(() => {});
    while (!svc.busy) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 40)); // past the tokenizer, into InferenceSession.run
    process.exit(0);
  `;
  const file = path.join(tmp(), 'exit-mid-batch.mjs');
  fs.writeFileSync(file, script);
  for (let run = 0; run < 2; run++) {
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.signal, null, `run ${run}: killed by ${r.signal}: ${r.stderr}`);
    assert.equal(r.status, 0, `run ${run}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /terminate called|Napi::Error/);
  }
});
