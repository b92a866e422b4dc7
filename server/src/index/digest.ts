// The index's digest (store.ts IndexDigest), written by the builder: what bulk passes over every
// entry read (titles, what each statement cites), so that the server never parses every entry.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { citationsOf } from './retrieval.js';
import { DIGEST_FILE, type IndexDigest, type LoadedIndex } from './store.js';

export function writeDigest(dir: string, index: LoadedIndex): { name: string; bytes: number } {
  const [a, b] = index.header.kinds.statement;
  const d: IndexDigest = { count: index.count, titles: [], cites: [] };
  for (let id = 0; id < index.count; id++) d.titles.push(index.peek(id).title);
  for (let id = a; id < b; id++) d.cites.push(citationsOf(index, id, true));
  const buf = Buffer.from(JSON.stringify(d));
  fs.writeFileSync(path.join(dir, DIGEST_FILE), buf);
  return { name: DIGEST_FILE, bytes: buf.length };
}
