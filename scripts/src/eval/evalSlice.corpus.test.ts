// The model evaluation runs end to end on a small slice (the full run is `npm run eval`).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { hasSharedData, repoRoot } from '../testing/paths.js';

test('eval-models runs on a slice and prints one table with BM25, encoder and anchors', { skip: !hasSharedData && !process.env.CI && 'no ../shared/data' }, () => {
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'out', 'bin', 'evalModels.js'), '--slice', '6'], { encoding: 'utf8', timeout: 240_000 });
  assert.equal(r.status, 0, r.stderr);
  const table = r.stdout.split('\n').filter((l) => l.startsWith('|'));
  assert.match(table[0], /\| task \| metric \| n \| BM25 \| encoder \| BM25\+enc \| MathSense \| published anchor \|/);
  for (const task of ['ProofWiki test statement→proof (kept)', 'ProofWiki test statement→proof (renamed)', 'Stacks test statement→proof (kept)',
    'PS-ProofWiki test references', 'PS-ProofWiki test references, statement texts only (no result names)', 'Stacks test references', 'Stacks test references, with file position (workspace \\ref completion)', 'MathD2 test_new_candi', 'MathD2 test_new_term', 'encoder throughput (CPU, batch 64)', 'model load time']) {
    assert.ok(table.some((l) => l.startsWith(`| ${task} |`)), `missing row ${task}`);
  }
  assert.ok(table.some((l) => /acc@1 global/.test(l)));
  // statement→proof has a MathSense column: the committed proof ranker, with its hub scores
  const proofRow = table.find((l) => l.startsWith('| ProofWiki test statement→proof (kept) | MRR local |'))!;
  assert.match(proofRow.split('|')[7], /^ \d+(\.\d)? $/, proofRow);
});
