// The server's view: settings parsing, the status it reports, and switching off cleanly.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { embeddingSettings, ServerEmbeddings, type EmbeddingSettings } from './serverEmbeddings.js';
import { modelsDir } from '../testing/modelPaths.js';

test('settings: accelerator enum with auto as default, optional models path', () => {
  assert.deepEqual(embeddingSettings(undefined), { accelerator: 'auto', modelsPath: undefined });
  assert.deepEqual(embeddingSettings({ accelerator: 'cuda', models: { path: ' /m ' } }), { accelerator: 'cuda', modelsPath: '/m' });
  assert.equal(embeddingSettings({ accelerator: 'tpu' }).accelerator, 'auto');
});

test('status reports the provider in use; a bad models path switches embeddings off with a reason', async () => {
  let settings: EmbeddingSettings = { accelerator: 'cuda', modelsPath: modelsDir };
  const logs: string[] = [];
  const emb = new ServerEmbeddings((m) => logs.push(m), () => settings);
  const st = await emb.status();
  assert.equal(st.state, 'ready');
  assert.equal(st.accelerator, 'cuda');
  assert.ok(st.provider === 'cpu' || st.provider === 'cuda');
  if (st.provider === 'cpu') assert.equal(st.fallbacks?.[0].provider, 'cuda');
  assert.ok(logs.some((l) => /embeddings: using/.test(l)));

  settings = { accelerator: 'cpu', modelsPath: os.tmpdir() }; // no model there: restarts, then off
  assert.equal(await emb.get(), undefined);
  const off = await emb.status();
  assert.equal(off.state, 'unavailable');
  assert.match(off.message ?? '', /config\.json is missing/);
  emb.dispose();
});
