// Fits the one-hidden-layer ranker (mlpRanker.ts in the server) with the listwise softmax loss
// of the linear rankers, by Adam on minibatches of queries. Deterministic: seeded initialisation
// and query order.
import { seededRandom } from 'mathsense-server/api/util';
import type { MlpModel, SoftmaxGroup } from 'mathsense-server/api/index';

export interface MlpOptions { hidden?: number; epochs?: number; batch?: number; lr?: number; l2?: number; seed?: number }

/** Fits the model minimising the mean softmax loss over groups with a gold candidate. */
export function fitMlpRanker(groups: SoftmaxGroup[], features: readonly string[], o: MlpOptions = {}): MlpModel {
  const H = o.hidden ?? 16, epochs = o.epochs ?? 15, batch = o.batch ?? 32, lr = o.lr ?? 3e-3, l2 = o.l2 ?? 1e-4;
  const d = features.length;
  const use = groups.filter((g) => g.gold.length > 0 && g.x.length > 1);
  // standardise with the mean and spread of every candidate row of the fit
  const mean = new Array<number>(d).fill(0), sq = new Array<number>(d).fill(0);
  let n = 0;
  for (const g of use) for (const r of g.x) { n++; for (let i = 0; i < d; i++) { mean[i] += r[i] ?? 0; sq[i] += (r[i] ?? 0) ** 2; } }
  for (let i = 0; i < d; i++) { mean[i] /= n || 1; sq[i] = Math.sqrt(Math.max(sq[i] / (n || 1) - mean[i] ** 2, 0)) + 1e-6; }
  const scale = sq;
  const z = use.map((g) => ({ x: g.x.map((r) => Float64Array.from({ length: d }, (_, i) => ((r[i] ?? 0) - mean[i]) / scale[i])), gold: g.gold }));
  // parameters in one vector: hidden weights (H×d), biases (H), output weights (H)
  const rnd = seededRandom(o.seed ?? 1);
  const P = H * d + 2 * H;
  const p = new Float64Array(P);
  const bound = 1 / Math.sqrt(d);
  for (let k = 0; k < H * d + H; k++) p[k] = (2 * rnd() - 1) * bound;
  for (let k = H * d + H; k < P; k++) p[k] = (2 * rnd() - 1) / Math.sqrt(H);
  const m1 = new Float64Array(P), m2 = new Float64Array(P), grad = new Float64Array(P);
  const act = new Float64Array(H);
  let t = 0;
  const order = use.map((_, i) => i);
  for (let e = 0; e < epochs; e++) {
    for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
    for (let b = 0; b < order.length; b += batch) {
      const part = order.slice(b, b + batch);
      grad.fill(0);
      for (const gi of part) {
        const g = z[gi];
        const acts = g.x.map((x) => {
          const a = new Float64Array(H);
          for (let h = 0; h < H; h++) { let s = p[H * d + h]; for (let i = 0; i < d; i++) s += p[h * d + i] * x[i]; a[h] = Math.tanh(s); }
          return a;
        });
        const s = acts.map((a) => { let v = 0; for (let h = 0; h < H; h++) v += p[H * d + H + h] * a[h]; return v; });
        const mx = Math.max(...s);
        const ex = s.map((v) => Math.exp(v - mx));
        const sum = ex.reduce((x, y) => x + y, 0);
        // d loss / d score_k = softmax_k - (1/|gold| if k is gold)
        const ds = ex.map((v) => v / sum);
        for (const k of g.gold) ds[k] -= 1 / g.gold.length;
        g.x.forEach((x, k) => {
          if (ds[k] === 0) return;
          const a = acts[k];
          for (let h = 0; h < H; h++) {
            act[h] = ds[k] * p[H * d + H + h] * (1 - a[h] * a[h]);
            grad[H * d + H + h] += ds[k] * a[h];
            grad[H * d + h] += act[h];
            for (let i = 0; i < d; i++) grad[h * d + i] += act[h] * x[i];
          }
        });
      }
      t++;
      const b1 = 0.9, b2 = 0.999;
      for (let k = 0; k < P; k++) {
        const gk = grad[k] / part.length + l2 * p[k];
        m1[k] = b1 * m1[k] + (1 - b1) * gk;
        m2[k] = b2 * m2[k] + (1 - b2) * gk * gk;
        p[k] -= (lr * m1[k] / (1 - b1 ** t)) / (Math.sqrt(m2[k] / (1 - b2 ** t)) + 1e-8);
      }
    }
  }
  const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    features: [...features],
    mean: mean.map(r6), scale: scale.map(r6),
    hidden: Array.from({ length: H }, (_, h) => Array.from(p.subarray(h * d, h * d + d), r6)),
    bias: Array.from(p.subarray(H * d, H * d + H), r6),
    out: Array.from(p.subarray(H * d + H, P), r6),
  };
}
