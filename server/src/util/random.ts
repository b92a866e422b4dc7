// One seeded PRNG for everything that must be reproducible (training-data export, evaluation
// sampling, derivation-check points, fuzz tests): mulberry32, 32-bit state, uniform [0, 1).
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Up to `n` of `xs` drawn without replacement (a seeded Fisher–Yates shuffle, then the first n). */
export function seededSample<T>(xs: readonly T[], n: number, seed = 3): T[] {
  const rnd = seededRandom(seed);
  const a = xs.slice();
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a.slice(0, n);
}
