// `index build` of the offline package: reads ../shared/data (or --data DIR) and writes the
// index (build/index, or --index DIR) that the server and its CLI read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseOptions, progressBar } from 'mathsense-server/api/cli';
import { defaultIndexDir, packageRoot, sharedDataDir } from 'mathsense-server/api/index';
import { buildIndex } from './builder.js';
import { DEFAULT_SOURCES, SOURCE_IDS, type SourceId } from './sources.js';

type Out = (s: string) => void;
interface Io { out: Out; err: Out }

export const BUILD_USAGE = `usage: node scripts/out/bin/index.js build [--data DIR] [--index DIR] [--sources proofwiki,mathd2,planetmath,stacks] [--slice N] [--models DIR] [--no-vectors] [--no-equations] [--no-cache] [--quiet]
  builds the index from ../shared/data (progress on stderr); --no-cache neither reads nor writes
  the embedding and formula caches in .cache/index-embeddings (a cold build)
`;

export async function buildCommand(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'build') { io.err(BUILD_USAGE); return 2; }
  const p = parseOptions(rest, ['--no-vectors', '--no-equations', '--no-cache', '--quiet'], ['--data', '--index', '--sources', '--slice', '--models']);
  if (p.bad) { io.err(`index build: ${p.bad}\n`); return 2; }
  const sources = ((p.opts.sources as string | undefined)?.split(',').map((s) => s.trim()).filter(Boolean) ?? DEFAULT_SOURCES) as SourceId[];
  const unknown = sources.filter((s) => !SOURCE_IDS.includes(s));
  if (unknown.length) { io.err(`index build: unknown source ${unknown.join(', ')} (known: ${SOURCE_IDS.join(', ')})\n`); return 2; }
  const dataDir = path.resolve((p.opts.data as string | undefined) ?? sharedDataDir());
  if (!fs.existsSync(dataDir)) { io.err(`index build: no shared data at ${dataDir} (set MATHSENSE_SHARED or pass --data DIR)\n`); return 1; }
  const outDir = defaultIndexDir(p.opts.index as string | undefined);
  const slice = p.opts.slice ? Number(p.opts.slice) : undefined;
  const t0 = performance.now();
  try {
    const r = await buildIndex({
      dataDir, outDir, sources, slice, noVectors: !!p.opts['no-vectors'], noEquations: !!p.opts['no-equations'], modelsDir: p.opts.models ? path.resolve(p.opts.models as string) : undefined,
      cacheDir: p.opts['no-cache'] ? null : path.join(packageRoot(), '.cache', 'index-embeddings'),
      progress: p.opts.quiet ? undefined : progressBar(io.err, !!process.stderr.isTTY),
      log: (m) => io.err(`${m}\n`),
    });
    const h = r.header;
    io.out(`index: ${h.count} entries (${Object.entries(h.stats.perKind as Record<string, number>).map(([k, n]) => `${n} ${k}s`).join(', ')})${h.equations ? `, ${h.equations.count} equations` : ''}, ${(r.bytes / 1e6).toFixed(1)} MB in ${r.dir}, built in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    return 0;
  } catch (e) {
    io.err(`index build: ${(e as Error).message}\n`);
    return 1;
  }
}
