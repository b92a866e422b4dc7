// The embedding cache and the shared "through the cache" batching every embedding loop uses.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddingCache, embedThroughCache } from './embeddingCache.js';

const vec = (t: string) => Float32Array.from([t.length, t.charCodeAt(0), 1]);

test('embeds only what is not cached, in batches of 64, in input order, and persists it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-cache-'));
  try {
    const texts = Array.from({ length: 150 }, (_, i) => `text ${i}`);
    const batches: number[][] = [];
    const embed = async (part: number[]) => { batches.push(part); return part.map((i) => vec(texts[i])); };
    const progress: Array<[number, number]> = [];
    const first = await embedThroughCache(new EmbeddingCache('a1b2c3', 3, dir), texts, embed, (d, n) => progress.push([d, n]));
    assert.deepEqual(batches.map((b) => b.length), [64, 64, 22]);
    assert.deepEqual(progress, [[0, 150], [64, 150], [128, 150], [150, 150]]);
    texts.forEach((t, i) => assert.deepEqual(first[i], vec(t)));
    // a new cache object reads the file: only the new text is embedded, results keep input order
    batches.length = 0;
    const again = await embedThroughCache(new EmbeddingCache('a1b2c3', 3, dir), ['new one', texts[3]], async (part) => { batches.push(part); return part.map(() => vec('new one')); });
    assert.deepEqual(batches, [[0]]);
    assert.deepEqual(again[1], vec(texts[3]));
    // another model version never reads these vectors; without a cache everything is embedded
    let n = 0;
    await embedThroughCache(new EmbeddingCache('d4e5f6', 3, dir), texts.slice(0, 5), async (part) => { n += part.length; return part.map((i) => vec(texts[i])); });
    assert.equal(n, 5);
    n = 0;
    await embedThroughCache(undefined, texts.slice(0, 5), async (part) => { n += part.length; return part.map((i) => vec(texts[i])); });
    assert.equal(n, 5);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
