// Reads E-Gen's clusters of equivalent expressions (evaluation data only: never used to
// train or tune): one cluster per blank-line-separated block of prefix lines, seed first.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function readEgenClusters(file: string): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const l = line.trim();
    if (l) { cur.push(l); continue; }
    if (cur.length) out.push(cur);
    cur = [];
  }
  if (cur.length) out.push(cur);
  return out;
}

/** The E-Gen folder of the shared data. */
export function egenDir(sharedData: string): string {
  return path.join(sharedData, 'egen-equiv-exprs');
}
