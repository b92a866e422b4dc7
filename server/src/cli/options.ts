// Option values and paths as every CLI command reads and prints them.
import * as path from 'node:path';

/** `--limit N`: a positive whole number, else undefined after saying so on `err` (exit 2). */
export function parseLimit(v: string | boolean | undefined, fallback: number, err: (s: string) => void, cmd: string): number | undefined {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (typeof v === 'string' && Number.isInteger(n) && n >= 1) return n;
  err(`mathsense ${cmd}: --limit must be a positive whole number (got ${String(v)})\n`);
  return undefined;
}

/** A path as the user reads it best: relative below the current folder, absolute elsewhere (not `../../x`). */
export function displayPath(p: string): string {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}

/** Formulas of a typed query in `$…$` (the index's query text rules: index/queryText.ts). */
export { markFormulas } from '../index/queryText.js';
