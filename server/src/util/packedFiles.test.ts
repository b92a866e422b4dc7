// Packed files of an installed extension (util/packedFiles.ts): unpacked once and checked, a
// damaged one refused with a message, a read-only install mirrored into the cache.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as zlib from 'node:zlib';
import { ensureUnpacked, mirroredFolders, readPackedManifest, unpackedRoot, PACKED_MANIFEST, type PackedManifest } from './packedFiles.js';

/** An extension folder with `files` packed as the packaging script packs them. */
function packedInstall(files: Record<string, Buffer | string>, plain: Record<string, string> = {}): { root: string; manifest: PackedManifest } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-packed-'));
  const manifest: PackedManifest = { format: 'mathsense-packed', files: [] };
  for (const [rel, content] of Object.entries(files)) {
    const bytes = Buffer.from(content);
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, `${rel}.br`), zlib.brotliCompressSync(bytes));
    manifest.files.push({ path: rel, bytes: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') });
  }
  for (const [rel, content] of Object.entries(plain)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  fs.writeFileSync(path.join(root, PACKED_MANIFEST), JSON.stringify(manifest));
  return { root, manifest };
}

test('a packed file is unpacked beside its packed copy, once, with its exact bytes', async () => {
  const big = crypto.randomBytes(300_000).toString('base64').repeat(3);
  const { root } = packedInstall({ 'build/index/entries.ndjson': big, 'build/index/bm25.bin': Buffer.from([0, 1, 2, 255]) }, { 'build/index/index.json': '{}' });
  const logs: string[] = [];
  assert.equal(await ensureUnpacked(root, (m) => logs.push(m)), root);
  assert.equal(fs.readFileSync(path.join(root, 'build/index/entries.ndjson'), 'utf8'), big);
  assert.deepEqual([...fs.readFileSync(path.join(root, 'build/index/bm25.bin'))], [0, 1, 2, 255]);
  assert.match(logs.join('\n'), /unpacked 2 packed files into/);
  assert.equal(unpackedRoot(root), root);
  assert.deepEqual(fs.readdirSync(path.join(root, 'build/index')).filter((f) => f.includes('.tmp-')), []);
  // the next start finds them unpacked: nothing to do
  const again = await import(`./packedFiles.js?again=${Date.now()}`) as typeof import('./packedFiles.js');
  const logs2: string[] = [];
  assert.equal(await again.ensureUnpacked(root, (m) => logs2.push(m)), root);
  assert.deepEqual(logs2, []);
});

test('a damaged packed file is refused with a message, and leaves nothing half-written', async () => {
  const { root, manifest } = packedInstall({ 'build/index/equations.bin': 'the real bytes' });
  manifest.files[0].sha256 = '0'.repeat(64);
  fs.writeFileSync(path.join(root, PACKED_MANIFEST), JSON.stringify(manifest));
  await assert.rejects(ensureUnpacked(root), /equations\.bin\.br unpacks to different contents .*reinstall the extension/);
  assert.deepEqual(fs.readdirSync(path.join(root, 'build/index')), ['equations.bin.br']);
  // a missing packed copy
  const other = packedInstall({ 'build/index/bm25.bin': 'x' });
  fs.rmSync(path.join(other.root, 'build/index/bm25.bin.br'));
  await assert.rejects(ensureUnpacked(other.root), /bm25\.bin\.br is missing; reinstall the extension/);
  // no manifest: a repository checkout
  const checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-checkout-'));
  assert.equal(readPackedManifest(checkout), undefined);
  assert.equal(await ensureUnpacked(checkout), checkout);
});

test('the mirror of a read-only install holds whole packages, so a native library loads beside its loader', () => {
  assert.deepEqual(mirroredFolders({ format: 'mathsense-packed', files: [
    { path: 'build/index/bm25.bin', bytes: 1, sha256: '' },
    { path: 'build/index/entries.ndjson', bytes: 1, sha256: '' },
    { path: 'server/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1', bytes: 1, sha256: '' },
  ] }).sort(), ['build/index', 'server/node_modules']);
});

/** Makes a folder unwritable, also for root where the file system allows it (chattr +i). */
function makeReadOnly(dir: string): (() => void) | undefined {
  if (process.getuid?.() !== 0) {
    for (const d of [dir, ...fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, String(f)))]) if (fs.statSync(d).isDirectory()) fs.chmodSync(d, 0o555);
    return () => { for (const d of [dir, ...fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, String(f)))]) if (fs.statSync(d).isDirectory()) fs.chmodSync(d, 0o755); };
  }
  const r = spawnSync('chattr', ['-R', '+i', dir]);
  if (r.status !== 0) return undefined;
  try { fs.writeFileSync(path.join(dir, 'probe'), ''); } catch { return () => { spawnSync('chattr', ['-R', '-i', dir]); }; }
  spawnSync('chattr', ['-R', '-i', dir]);
  return undefined;
}

test('a read-only install is unpacked into a mirror in the cache, with its unpacked siblings', async (t) => {
  const { root } = packedInstall({ 'build/index/entries.ndjson': 'one line\n' }, { 'build/index/index.json': '{"x":1}' });
  const restore = makeReadOnly(root);
  if (!restore) { t.skip('no way to make a folder read-only here (root without chattr)'); return; }
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-cache-'));
  const saved = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = cache;
  try {
    const logs: string[] = [];
    const mirror = await ensureUnpacked(root, (m) => logs.push(m));
    assert.notEqual(mirror, root);
    assert.ok(mirror.startsWith(path.join(cache, 'mathsense', 'unpacked')), mirror);
    assert.equal(fs.readFileSync(path.join(mirror, 'build/index/entries.ndjson'), 'utf8'), 'one line\n');
    assert.equal(fs.readFileSync(path.join(mirror, 'build/index/index.json'), 'utf8'), '{"x":1}');
    assert.equal(fs.existsSync(path.join(mirror, 'build/index/entries.ndjson.br')), false);
    assert.equal(unpackedRoot(root), mirror);
    assert.match(logs.join('\n'), /cannot be written: unpacking its packed files into/);
    assert.equal(fs.existsSync(path.join(root, 'build/index/entries.ndjson')), false);
  } finally {
    restore();
    if (saved === undefined) delete process.env.XDG_CACHE_HOME; else process.env.XDG_CACHE_HOME = saved;
  }
});
