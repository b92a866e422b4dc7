// What a result is called, for the results-to-cite rankers: the words of its label
// ('lemma-finite-length' -> 'finite length', 'thm:heine-borel' -> 'heine borel') and its
// optional title ('[Nakayama]'). Authors name results after what they say, and a proof
// tends to cite results whose names share words with the statement's own name or text
// (Stacks dev: +1.6 mAP from the label words alone). Also the labels a statement itself \ref's:
// what a statement refers to, its proof often uses.

// a label's first segment when it only says what kind of result it labels
const KIND_PREFIX = /^(?:lemma|lem|theorem|thm|proposition|prop|corollary|cor|definition|defn|def|remark|rem|remarks|example|ex|exercise|exer|situation|claim|conjecture|conj|fact|observation|obs|notation|assumption|hypothesis|hyp|criterion|principle|problem|question|axiom|property|equation|eqn|eq|section|sec|subsection|chapter|ch|item)(?=[-:_.])/i;

/** The words of a label (kind prefix dropped, separators and camel case split) and of a title. */
export function resultName(label: string | undefined, title?: string): string {
  const words = (label ?? '')
    .replace(KIND_PREFIX, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-:_./]+/g, ' ')
    .trim();
  return [words, title?.trim() ?? ''].filter(Boolean).join(' ');
}

/** The label keys a text \ref's (\ref, \cref, \eqref, …; comma lists split), in order, deduplicated. */
export function refsIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\\(?:[cC]ref|[vV]ref|autoref|eqref|ref|pageref|nameref)\*?\s*\{([^{}]*)\}/g)) {
    for (const k of m[1].split(',')) if (k.trim()) out.add(k.trim());
  }
  return [...out];
}
