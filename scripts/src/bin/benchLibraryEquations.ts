// `npm run bench -- --library-equations` (opt-in): what the author's library costs the
// related-equations lens. A real project (latex-wild lebl-basic-analysis) is the workspace and
// the Stacks project, indexed as a library without vectors into .cache/bench-library, is the
// library. Every display of the workspace is searched as the `matches` lens searches it (quick,
// encoder-free), in-process, three ways in the same run:
//   * no library (the baseline);
//   * the library as served (its displays' shape overlap read through postings);
//   * the library's displays scanned linearly (as a workspace snapshot is), to show what the postings save.
// Prints p50 / p95 per display, the whole document's time, and each against the baseline.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';
import { FeatureCorpus, indexLibrary, LoadedLibrary, sharedDataDir, TokenTable } from 'mathsense-server/api/index';
import { documentEquations, EquationAnalyses, findRelatedEquations, lensSummary, WorkspaceEquations, worthOpening } from 'mathsense-server/api/features';
import { findDocumentFiles, Workspace } from 'mathsense-server/api/project';
import { MathTokenizer } from 'mathsense-server/api/embeddings';

export async function benchLibraryEquations(): Promise<number> {
  const data = sharedDataDir();
  const project = path.join(data, 'latex-wild', 'lebl-basic-analysis');
  const stacks = path.join(data, 'latex', 'stacks-project');
  if (!fs.existsSync(project) || !fs.existsSync(stacks)) { console.log('bench-library-equations: shared data missing, skipped'); return 0; }
  const store = path.join(repoRoot, '.cache', 'bench-library', 'stacks');
  const t0 = Date.now();
  const report = await indexLibrary(stacks, store, MathTokenizer.load(path.join(repoRoot, 'models', 'tokenizer', 'vocab.json')), undefined);
  const lib = LoadedLibrary.load(store);
  if (!(lib instanceof LoadedLibrary)) { console.error(lib.problem); return 1; }
  const served = lib.equations();
  const table0 = new TokenTable();
  const scanned = { corpus: new FeatureCorpus(served.displays.map((d) => d.display.f), [], table0, (f) => table0.codes(f.tokens, true)), displays: served.displays };
  console.error(`[bench-library-equations] library: ${report.papers} papers, ${served.displays.length} displays (indexed or kept in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const ws = new Workspace();
  for (const f of findDocumentFiles(project)) ws.loadFile(f);
  const analyses = new EquationAnalyses();
  const equations = new WorkspaceEquations(analyses);
  equations.snapshot(ws);
  await analyses.whenIdle();
  const sites = ws.all().flatMap((doc) => documentEquations(doc).map((site) => ({ doc, site })));
  const runs: Array<{ name: string; library?: typeof served }> = [{ name: 'no library (baseline)' }, { name: 'library, postings (as served)', library: served }, { name: 'library, linear scan', library: scanned }];
  const rows: Array<Array<string | number>> = [['search', 'displays searched', 'p50 ms', 'p95 ms', 'whole document s', 'vs baseline (whole)', 'lenses counting a library hit']];
  let base = 0;
  // a warm-up round first (the corpora's lookups are built on first use), then the measured one
  for (const round of [0, 1]) {
    for (const r of runs) {
      const ctx = { ws, equations, ...(r.library ? { library: () => [{ folder: stacks, equations: r.library! }] } : {}) };
      const times: number[] = [];
      let counted = 0;
      const t1 = performance.now();
      for (const q of sites) {
        const t = performance.now();
        const res = await findRelatedEquations(ctx, q, { limit: 10, quick: true });
        times.push(performance.now() - t);
        if (r.library && worthOpening(res)) { const s = lensSummary(res); if (s.same.library.length || s.close.library) counted++; }
      }
      const whole = (performance.now() - t1) / 1000;
      if (round === 0) continue;
      times.sort((a, b) => a - b);
      if (!r.library) base = whole;
      rows.push([r.name, sites.length, times[Math.floor(times.length / 2)].toFixed(2), times[Math.floor(times.length * 0.95)].toFixed(2), whole.toFixed(1), `${(whole / base).toFixed(2)}×`, r.library ? counted : '–']);
    }
  }
  console.log(`\nThe library in the related-equations lens (${path.basename(project)}, ${sites.length} displays; library: the Stacks project, ${served.displays.length} displays; in-process, encoder-free, as the matches lens searches)`);
  console.log(table(rows));
  return 0;
}
