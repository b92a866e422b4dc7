// The library in a running server: folders synced from the settings are loaded and indexed in
// the background with progress, searched across, a proof standing for the statement it proves;
// a missing folder says why; removing a folder deletes its store; the user's list is read.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServerLibrary, type LibraryHooks } from './serverLibrary.js';
import { MathTokenizer } from '../../embeddings/tokenizer.js';
import { vocabFile } from '../../testing/modelPaths.js';
import { library } from '../../testing/libraryFixture.js';

function service(stores: string, recorded: string[] = []): { lib: ServerLibrary; events: string[] } {
  const tok = MathTokenizer.load(vocabFile);
  const events: string[] = [];
  const hooks: LibraryHooks = {
    log: (m) => events.push(`log ${m.replace(/ in [\d.]+ s/, '')}`),
    tokenizer: () => tok,
    encoder: async () => undefined,
    progress: async (title, message) => { events.push(`begin ${title}: ${message}`); return { report: (m, p) => events.push(`report ${m} ${p}%`), done: () => events.push('done') }; },
    changed: () => {},
    storeDir: (f) => path.join(stores, path.basename(f)),
    recorded: () => recorded,
  };
  return { lib: new ServerLibrary(hooks), events };
}

const settle = async (lib: ServerLibrary) => { for (let i = 0; i < 400 && lib.status().some((s) => s.state === 'indexing' || (s.state === 'unavailable' && !s.problem?.startsWith('no such'))); i++) await new Promise((r) => setTimeout(r, 25)); };

test('a folder named by the settings is indexed in the background with progress, then searched', async () => {
  const dir = library();
  const stores = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-stores-'));
  try {
    const { lib, events } = service(stores);
    lib.sync([dir]);
    await settle(lib);
    assert.deepEqual(lib.status(), [{ folder: dir, state: 'ready', papers: 3, entries: 8, vectors: false }]);
    assert.deepEqual(events.filter((e) => !e.startsWith('log')), [
      `begin MathSense: indexing library: ${path.basename(dir)}`,
      `report 1/3 ${path.join('2101.01234v2', 'main.tex')} 33%`, `report 2/3 ${path.join('book', 'chapter.tex')} 67%`, 'report 3/3 primes.tex 100%', 'done',
    ]);
    assert.ok(events.includes(`log library ${dir}: 3 papers, 8 entries (3 added, 0 changed, 0 removed, 0 unchanged), keyword search only`), events.join('\n'));
    const q = lib.lexicalQuery('a bounded sequence of real numbers has a convergent subsequence')!;
    const hits = lib.search(q, { kinds: ['statement', 'proof'], limit: 3, folders: [dir] });
    assert.equal(hits[0].entry.title, 'Bolzano--Weierstrass');
    assert.equal(hits[0].folder, dir);
    // a proof hit stands for the statement it proves
    const proof = lib.search(lib.lexicalQuery('least upper bound property')!, { kinds: ['proof'], limit: 1, folders: [dir] })[0];
    assert.equal(lib.statementOf(proof)?.label, 'lem:mono');
    // a document whose settings name no folder reads none
    assert.deepEqual(lib.search(q, { folders: [path.join(dir, 'elsewhere')] }), []);
    // the displays, for the related-equations search: of the folders a document reads; one is cited by its place
    const eqs = lib.equations([dir]);
    assert.deepEqual(eqs.map((e) => [e.folder, e.equations.displays.map((d) => d.display.label)]), [[dir, ['eq:geom']]]);
    assert.deepEqual(lib.equations([path.join(dir, 'elsewhere')]), []);
    const d = eqs[0].equations.displays[0];
    assert.equal(lib.entryAt(dir, d.paper.id, d.display.file, d.display.line)?.entry.kind, 'equation');
    // indexed again: nothing read
    const again = await lib.index(dir);
    assert.ok(!('problem' in again) && again.kept === 3 && again.added === 0);
    // dropped from the settings: not served, the store kept; removed: the store deleted
    lib.sync([]);
    assert.deepEqual(lib.status(), []);
    assert.ok(fs.existsSync(path.join(stores, path.basename(dir), 'library.json')));
    lib.sync([dir]);
    await settle(lib);
    assert.equal(lib.status()[0].state, 'ready');
    lib.remove(dir);
    assert.ok(!fs.existsSync(path.join(stores, path.basename(dir))));
    assert.deepEqual(lib.status(), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(stores, { recursive: true, force: true });
  }
});

test('a recorded folder is read by every document; a missing folder says why', async () => {
  const dir = library();
  const stores = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-stores-'));
  try {
    const { lib } = service(stores, [dir]);
    const missing = path.join(stores, 'no-such-folder');
    lib.sync([missing]);
    await settle(lib);
    assert.deepEqual(lib.status().map((s) => `${path.basename(s.folder)} ${s.state} ${s.problem ?? ''}`).sort(), [`${path.basename(dir)} ready `, `no-such-folder unavailable no such folder: ${missing}`]);
    // the recorded folder serves a document whose settings name another folder
    assert.equal(lib.search(lib.lexicalQuery('infinitely many prime numbers')!, { folders: [missing], limit: 1 })[0].entry.label, 'thm:primes');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(stores, { recursive: true, force: true });
  }
});
