// What the evaluations and the rankers' trainer share: an encoder session with its on-disk
// cache, and a scorer giving BM25, encoder and fused scores of queries against a fixed pool.
import { Bm25Index, EmbeddingCache, embedThroughCache, EncoderSession, type MacroTable, type MathTokenizer } from 'mathsense-server/api/embeddings';
import { fuseZ } from 'mathsense-server/api/util';
import { HubScores } from '../rankers/hubScores.js';
import type { Hubs } from 'mathsense-server/api/index';

export type Method = 'bm25' | 'encoder' | 'fused';
export const METHODS: Method[] = ['bm25', 'encoder', 'fused'];

export interface Item { text: string; macros?: MacroTable }

export interface Ctx {
  methods: Method[];
  tok: MathTokenizer;
  enc: EncoderSession;
  embed(items: Item[]): Promise<Float32Array[]>;
  log(msg: string): void;
}

/** Loads the encoder (CPU, 2 threads) with the cache of `cacheDir`; `bm25Only` embeds zeros. */
export async function createContext(o: { modelsDir: string; cacheDir?: string; bm25Only?: boolean; log?: (m: string) => void }): Promise<Ctx> {
  const log = o.log ?? (() => {});
  const enc = await EncoderSession.load(o.modelsDir, { accelerator: 'cpu', threads: 2 });
  const cache = o.cacheDir ? new EmbeddingCache(enc.info.version, enc.info.dim, o.cacheDir) : undefined;
  return {
    methods: o.bm25Only ? ['bm25'] : METHODS, tok: enc.tokenizer, enc, log,
    async embed(items) {
      if (o.bm25Only) return items.map(() => new Float32Array(enc.info.dim));
      return embedThroughCache(cache, items.map((it) => `${it.macros ? 'stacks\u0000' : ''}${it.text}`),
        (part) => enc.embedIds(part.map((i) => enc.encode(items[i].text, { macros: items[i].macros }))),
        (s, todo) => { if (s % 6400 === 0 && s < todo && todo > 6400) log(`  embedded ${s}/${todo}`); });
    },
  };
}

export class Scorer {
  private bm25 = new Bm25Index();
  private vecs: Float32Array[] = [];
  constructor(private readonly ctx: Ctx) {}

  get size(): number { return this.vecs.length; }

  /** The indexed items' encoder vectors (zeros with BM25 only). */
  get vectors(): readonly Float32Array[] { return this.vecs; }

  async index(items: Item[]): Promise<void> {
    for (const it of items) this.bm25.add(this.ctx.tok.encode(it.text, { macros: it.macros }));
    this.vecs = await this.ctx.embed(items);
  }

  /**
   * Hub scores of the indexed candidates (index/proofRanker.ts) against background statements,
   * scored 500 at a time; `own(b, j)`: background statement b is candidate j's own, not counted.
   */
  async hubs(background: Item[], own?: (b: number, j: number) => boolean): Promise<Hubs<Float32Array>> {
    const bm = new HubScores(this.size), cos = new HubScores(this.size);
    for (let a = 0; a < background.length; a += 500) {
      const s = await this.score(background.slice(a, a + 500));
      s.bm25.forEach((r, i) => { const skip = own && ((j: number) => own(a + i, j)); bm.add(r, skip); cos.add(s.encoder[i], skip); });
    }
    return { bm: bm.means(), cos: cos.means() };
  }

  /**
   * Scores of every indexed candidate for each query, per method; `given`: the queries' token
   * ids and vectors when the caller already has them (scoring one batch against two pools).
   */
  async score(queries: Item[], given?: { ids: number[][]; vecs: Float32Array[] }): Promise<Record<Method, Float32Array[]>> {
    const qv = given?.vecs ?? await this.ctx.embed(queries);
    const out: Record<Method, Float32Array[]> = { bm25: [], encoder: [], fused: [] };
    queries.forEach((q, i) => {
      const b = this.bm25.scores(given?.ids[i] ?? this.ctx.tok.encode(q.text, { macros: q.macros }));
      const e = new Float32Array(this.vecs.length);
      const v = qv[i];
      this.vecs.forEach((c, j) => { let s = 0; for (let d = 0; d < v.length; d++) s += v[d] * c[d]; e[j] = s; });
      out.bm25.push(b); out.encoder.push(e); out.fused.push(fuseZ(b, e));
    });
    return out;
  }
}
