// Where MathSense keeps what it can rebuild (embeddings, unpacked files): the user's cache.
import * as os from 'node:os';
import * as path from 'node:path';

/** `$XDG_CACHE_HOME/mathsense`, else `~/.cache/mathsense`. */
export function userCacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'mathsense');
}
