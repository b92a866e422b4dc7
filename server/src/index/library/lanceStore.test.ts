// The scaled library store (LanceDB), when `npm run setup:scale` has installed it: a library
// written from its embedded store is searched by vector and text fused, by kind; a paper added
// or removed is written or dropped alone; a server whose setting names `lancedb:PATH` reads it
// (its answers arrive after the request that asked); a store that is not there says so.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lanceModule, LanceLibrary, syncLanceStore } from './lanceStore.js';
import { indexLibrary } from './libraryStore.js';
import { ServerLibrary } from './serverLibrary.js';
import { EncoderSession } from '../../embeddings/encoderSession.js';
import { hasTextEncoder, modelsDir } from '../../testing/modelPaths.js';
import { library } from '../../testing/libraryFixture.js';

const skip = !lanceModule().mod ? 'LanceDB not installed (npm run setup:scale)' : !hasTextEncoder && 'models missing';

test('a scaled store: written from the embedded one, searched fused, kept in step paper by paper, read by the server', { skip, timeout: 120_000 }, async () => {
  const dir = library();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-lance-'));
  const enc = await EncoderSession.load(modelsDir, { accelerator: 'cpu', threads: 2 });
  try {
    const encoder = { version: enc.info.version, dim: enc.info.dim, embed: (t: string[]) => enc.embedTexts(t) };
    const embedded = path.join(tmp, 'embedded');
    const uri = path.join(tmp, 'scaled');
    await indexLibrary(dir, embedded, enc.tokenizer, encoder);
    assert.deepEqual({ ...await syncLanceStore(embedded, uri), seconds: 0 }, { written: 3, removed: 0, entries: 8, seconds: 0 });
    const lib = await LanceLibrary.open(uri);
    assert.ok(lib instanceof LanceLibrary);
    assert.equal(lib.paperCount, 3);
    const text = 'Every bounded sequence of real numbers has a convergent subsequence.';
    const [vec] = await enc.embedTexts([text]);
    const hits = await lib.search({ text, vec }, { limit: 3, kinds: ['statement'] });
    assert.deepEqual([hits[0].entry.name, hits[0].entry.number, hits[0].entry.title, hits[0].paper.meta.title, hits[0].paper.meta.arxiv], ['Theorem', '1.3', 'Bolzano--Weierstrass', 'On bounded monotone sequences', '2101.01234']);
    assert.ok(hits.every((h) => h.entry.kind === 'statement'));
    // text alone still finds it
    assert.equal((await lib.search({ text: 'infinitely many prime numbers' }, { limit: 1 }))[0].entry.label, 'thm:primes');
    // a paper removed from the folder, one added: only they are written
    fs.rmSync(path.join(dir, 'primes.tex'));
    fs.writeFileSync(path.join(dir, 'new.tex'), '\\documentclass{article}\\newtheorem{theorem}{Theorem}\\begin{document}\\begin{theorem}Every compact metric space is complete.\\end{theorem}\\end{document}\n');
    await indexLibrary(dir, embedded, enc.tokenizer, encoder);
    assert.deepEqual({ ...await syncLanceStore(embedded, uri), seconds: 0 }, { written: 1, removed: 1, entries: 8, seconds: 0 });
    // the server reads it by the setting's `lancedb:` name; the first request starts the search
    const server = new ServerLibrary({ log: () => {}, tokenizer: () => enc.tokenizer, encoder: async () => undefined, progress: async () => undefined, changed: () => {}, recorded: () => [] });
    const name = `lancedb:${uri}`;
    server.sync([name]);
    for (let i = 0; i < 100 && server.status()[0].state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(server.status(), [{ folder: name, state: 'ready', papers: 3, entries: 0, vectors: true }]);
    const q = { ids: enc.tokenizer.encode('compact metric space complete'), text: 'compact metric space complete' };
    assert.deepEqual(server.search(q, { folders: [name], limit: 2 }), []);
    let got = server.search(q, { folders: [name], limit: 2 });
    for (let i = 0; i < 100 && got.length === 0; i++) { await new Promise((r) => setTimeout(r, 20)); got = server.search(q, { folders: [name], limit: 2 }); }
    assert.equal(got[0].entry.text, 'Every compact metric space is complete.');
    assert.equal(server.entryAt(name, got[0].paper.id, got[0].entry.file, got[0].entry.line)?.entry.text, 'Every compact metric space is complete.');
    // not there
    const none = await LanceLibrary.open(path.join(tmp, 'nothing'));
    assert.ok(!(none instanceof LanceLibrary) && /no library in the scaled store/.test(none.problem));
  } finally {
    await enc.release();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
