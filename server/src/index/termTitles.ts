// How the index reads a definition's title: the MathD2 "term: title" string the encoder was
// trained on, the index's definition vectors and every title BM25 are made of.
/**
 * How a candidate title is read, by the encoder (trained on it), the index's definition vectors
 * and every title BM25: "Baire Space: Baire Space (Set Theory)".
 */
export function termTitle(term: string, title: string): string {
  return `${term}: ${titleText(title)}`;
}

/** The text a title is matched by: "Definition:Baire Space (Set Theory)" -> "Baire Space (Set Theory)". */
export function titleText(title: string): string {
  return title.replace(/^Definition:/, '').replace(/\//g, ' / ');
}
