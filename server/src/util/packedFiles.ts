// Files the .vsix carries compressed. The extension's download is mostly the index and the
// onnxruntime library; brotli packs them much smaller than the .vsix's own zip compression does,
// so `npm run package` stores them as `<path>.br` and lists them in `packed.json` at the
// extension's root. The first server start unpacks them beside the packed copies, off the main
// thread (zlib runs on libuv's thread pool), and checks each against its SHA-256. Where the
// extension's folder cannot be written (a system-wide install), the folders that hold packed
// files are mirrored into the user's cache and unpacked there; `unpackedRoot` then names the
// mirror, and the index and onnxruntime are read from it. A repository checkout has no
// packed.json and nothing to do.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import { userCacheDir } from './cacheDir.js';

export const PACKED_MANIFEST = 'packed.json';
export const PACKED_SUFFIX = '.br';

export interface PackedFile {
  /** Path of the unpacked file, relative to the extension root, with `/` separators. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface PackedManifest { format: 'mathsense-packed'; files: PackedFile[] }

export class PackedFileError extends Error {
  override name = 'PackedFileError';
}

/** The extension's packed files, or undefined where there are none (a repository checkout). */
export function readPackedManifest(root: string): PackedManifest | undefined {
  let text: string;
  try { text = fs.readFileSync(path.join(root, PACKED_MANIFEST), 'utf8'); } catch { return undefined; }
  const m = JSON.parse(text) as PackedManifest;
  if (m.format !== 'mathsense-packed' || !Array.isArray(m.files)) throw new PackedFileError(`${path.join(root, PACKED_MANIFEST)} is not a MathSense packed-file list; reinstall the extension`);
  return m;
}

const done = new Map<string, Promise<string>>();
const ready = new Map<string, string>();

/**
 * The root to read packed files from once they are unpacked: `root` itself, or its mirror in the
 * cache when `root` is read-only. Resolves at once where nothing is packed or all is unpacked;
 * one unpacking per root and process.
 */
export function ensureUnpacked(root: string, log?: (msg: string) => void): Promise<string> {
  let p = done.get(root);
  if (!p) {
    p = unpackAll(root, log).then((r) => { ready.set(root, r); return r; });
    done.set(root, p);
    p.catch(() => done.delete(root));
  }
  return p;
}

/** The root ensureUnpacked settled on, where it has finished (else `root`). */
export function unpackedRoot(root: string): string {
  return ready.get(root) ?? root;
}

async function unpackAll(root: string, log?: (msg: string) => void): Promise<string> {
  const manifest = readPackedManifest(root);
  if (!manifest) return root;
  const missing = manifest.files.filter((f) => !unpackedThere(root, f));
  if (missing.length === 0) return root;
  try {
    await unpackInto(root, root, missing, log);
    return root;
  } catch (e) {
    if (!isReadOnly(e)) throw e;
  }
  // a read-only install: mirror the folders that hold packed files, then unpack into the mirror
  const mirror = path.join(userCacheDir(), 'unpacked', crypto.createHash('sha256').update(root).update(JSON.stringify(manifest)).digest('hex').slice(0, 16));
  const todo = manifest.files.filter((f) => !unpackedThere(mirror, f));
  if (todo.length === 0) return mirror;
  log?.(`${root} cannot be written: unpacking its packed files into ${mirror}`);
  for (const dir of mirroredFolders(manifest)) {
    fs.cpSync(path.join(root, dir), path.join(mirror, dir), { recursive: true, filter: (src) => !src.endsWith(PACKED_SUFFIX) });
  }
  await unpackInto(root, mirror, todo, log);
  return mirror;
}

/** The folders a mirror copies: each packed file's folder, and for a file inside a package under node_modules, the package (its loader sits above the binary). */
export function mirroredFolders(manifest: PackedManifest): string[] {
  const dirs = new Set<string>();
  for (const f of manifest.files) {
    const parts = f.path.split('/');
    const nm = parts.lastIndexOf('node_modules');
    if (nm >= 0 && nm + 1 < parts.length - 1) {
      // the package and its siblings (onnxruntime-node requires onnxruntime-common)
      dirs.add(parts.slice(0, nm + 1).join('/'));
    } else dirs.add(parts.slice(0, -1).join('/'));
  }
  return [...dirs].filter((d, _, all) => !all.some((o) => o !== d && d.startsWith(o + '/')));
}

function unpackedThere(root: string, f: PackedFile): boolean {
  try { return fs.statSync(path.join(root, f.path)).size === f.bytes; } catch { return false; }
}

async function unpackInto(from: string, to: string, files: PackedFile[], log?: (msg: string) => void): Promise<void> {
  const t0 = performance.now();
  await Promise.all(files.map(async (f) => {
    const target = path.join(to, f.path);
    const tmp = `${target}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
    const hash = crypto.createHash('sha256');
    try {
      await pipeline(fs.createReadStream(path.join(from, f.path + PACKED_SUFFIX)), zlib.createBrotliDecompress(), async function* (chunks: AsyncIterable<Buffer>) {
        for await (const c of chunks) { hash.update(c); yield c; }
      }, fs.createWriteStream(tmp, { mode: 0o644 }));
      const sha = hash.digest('hex');
      if (sha !== f.sha256) throw new PackedFileError(`${f.path}${PACKED_SUFFIX} unpacks to different contents (SHA-256 ${sha.slice(0, 12)}…, expected ${f.sha256.slice(0, 12)}…); reinstall the extension`);
      fs.renameSync(tmp, target);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !fs.existsSync(path.join(from, f.path + PACKED_SUFFIX))) {
        throw new PackedFileError(`${path.join(from, f.path + PACKED_SUFFIX)} is missing; reinstall the extension`);
      }
      throw e;
    }
  }));
  log?.(`unpacked ${files.length} packed file${files.length === 1 ? '' : 's'} into ${to} in ${Math.round(performance.now() - t0)} ms`);
}

function isReadOnly(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EROFS' || code === 'EPERM';
}
