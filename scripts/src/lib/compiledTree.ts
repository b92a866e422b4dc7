// Modules of a compiled server tree (this build's server/out, or a commit's, for an evaluation that
// compares two builds), by where they are now or where older builds had them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** An importer over `out`: the first of the given paths (relative to `out`) that exists there (untyped: another build's tree). */
export function treeImporter(out: string): (now: string, ...before: string[]) => Promise<any> {
  return async (now, ...before) => {
    for (const p of [now, ...before]) {
      const f = path.join(out, p);
      if (fs.existsSync(f)) return import(pathToFileURL(f).href);
    }
    throw new Error(`none of ${[now, ...before].join(', ')} is in ${out}`);
  };
}
