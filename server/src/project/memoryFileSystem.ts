// A file system held in memory: the files a test (or a tool working on text it was given)
// writes, with folders implied by the files' paths. Paths are resolved like the disk's
// (absolute, POSIX separators on POSIX systems); every write advances a clock so modification
// times order writes the way a disk would.
import * as path from 'node:path';
import type { DirEntry, FileStat, FileSystem } from './fileSystem.js';

interface Entry { bytes: Uint8Array; mtimeMs: number }

function notFound(syscall: string, p: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, ${syscall} '${p}'`), { code: 'ENOENT', syscall, path: p });
}

export class MemoryFileSystem implements FileSystem {
  private readonly files = new Map<string, Entry>();
  private readonly dirs = new Set<string>();
  private clock = 1;

  constructor(files: Record<string, string | Uint8Array> = {}) {
    for (const [p, content] of Object.entries(files)) this.writeFile(p, content);
  }

  /** Writes (or replaces) a file, creating its folders. `mtimeMs` defaults to a clock that advances on each write. */
  writeFile(p: string, content: string | Uint8Array, mtimeMs?: number): void {
    const full = path.resolve(p);
    if (this.dirs.has(full)) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${full}'`), { code: 'EISDIR' });
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    this.clock = Math.max(this.clock + 1, mtimeMs ?? 0);
    this.files.set(full, { bytes, mtimeMs: mtimeMs ?? this.clock });
    for (let d = path.dirname(full); !this.dirs.has(d); d = path.dirname(d)) {
      this.dirs.add(d);
      if (path.dirname(d) === d) break;
    }
  }

  /** Removes a file; true when there was one. Its folders stay. */
  deleteFile(p: string): boolean {
    return this.files.delete(path.resolve(p));
  }

  /** Every file's path, sorted. */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  stat(p: string): FileStat {
    const full = path.resolve(p);
    const f = this.files.get(full);
    if (f) return { isFile: true, isDirectory: false, size: f.bytes.length, mtimeMs: f.mtimeMs };
    if (this.dirs.has(full)) return { isFile: false, isDirectory: true, size: 0, mtimeMs: 0 };
    throw notFound('stat', full);
  }

  readFile(p: string): Uint8Array {
    const full = path.resolve(p);
    const f = this.files.get(full);
    if (f) return f.bytes;
    if (this.dirs.has(full)) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR' });
    throw notFound('open', full);
  }

  readDir(p: string): DirEntry[] {
    const full = path.resolve(p);
    if (!this.dirs.has(full)) throw this.files.has(full) ? Object.assign(new Error(`ENOTDIR: not a directory, scandir '${full}'`), { code: 'ENOTDIR' }) : notFound('scandir', full);
    const out: DirEntry[] = [];
    for (const d of this.dirs) if (d !== full && path.dirname(d) === full) out.push({ name: path.basename(d), isFile: false, isDirectory: true });
    for (const f of this.files.keys()) if (path.dirname(f) === full) out.push({ name: path.basename(f), isFile: true, isDirectory: false });
    return out;
  }

  async statAsync(p: string): Promise<FileStat> {
    return this.stat(p);
  }

  async readFileAsync(p: string): Promise<Uint8Array> {
    return this.readFile(p);
  }
}
