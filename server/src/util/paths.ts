// Path containment, shared by what must never read or write outside a folder (an untrusted
// workspace's includes, a models folder's files).
import * as path from 'node:path';

/** Whether `p` is the folder `dir` or lies within it. */
export function within(dir: string, p: string): boolean {
  const rel = path.relative(path.resolve(dir), path.resolve(p));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
