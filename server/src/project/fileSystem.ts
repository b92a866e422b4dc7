// What the project layer asks of a file system: read a file, stat a path, list a folder
// (synchronously for the CLI and the include graph, asynchronously where the server must not
// block). The workspace reads through one of these, Node's by default; tests give it an
// in-memory one (memoryFileSystem.ts). Paths are absolute, as path.resolve makes them.
import * as fs from 'node:fs';

export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
}

export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
}

export interface FileSystem {
  /** Throws (like node:fs, ENOENT) when nothing is at `p`. */
  stat(p: string): FileStat;
  /** The file's bytes; throws when it cannot be read. */
  readFile(p: string): Uint8Array;
  /** The folder's entries (unsorted); throws when `p` is no readable folder. */
  readDir(p: string): DirEntry[];
  statAsync(p: string): Promise<FileStat>;
  readFileAsync(p: string): Promise<Uint8Array>;
}

const toStat = (st: fs.Stats): FileStat => ({ isFile: st.isFile(), isDirectory: st.isDirectory(), size: st.size, mtimeMs: st.mtimeMs });

/** The disk, through node:fs. */
export const nodeFileSystem: FileSystem = {
  stat: (p) => toStat(fs.statSync(p)),
  readFile: (p) => fs.readFileSync(p),
  readDir: (p) => fs.readdirSync(p, { withFileTypes: true }).map((e) => ({ name: e.name, isFile: e.isFile(), isDirectory: e.isDirectory() })),
  statAsync: async (p) => toStat(await fs.promises.stat(p)),
  readFileAsync: (p) => fs.promises.readFile(p),
};
