// Deterministic held-out splits: an item is in the test split when a hash of its stable key
// falls in the first `percent` buckets. Keys are chosen so that variants of one item (ProofWiki
// "/Proof 2" subpages) land on the same side.
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return h >>> 0;
}

export function isHeldOut(key: string, percent = 10): boolean {
  return fnv1a(`mathsense-split:${key}`) % 100 < percent;
}

/** Normalised prefix used to recognise the same statement across datasets. */
export function textKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '').slice(0, 160);
}

/**
 * MathD2 train terms the encoder never trains on (half, by term): the term ranker's encoder
 * cosine weight is fitted on their definitions, where the cosine is as honest as on the test
 * splits (a weight fitted on pairs the encoder was trained on would trust it far too much).
 */
export function isMathD2CosineFit(term: string): boolean {
  return fnv1a(`mathsense-mathd2-cosine:${term}`) % 2 === 1;
}
