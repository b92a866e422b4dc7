// The words of a LaTeX label: authors name results after what they say
// ('lemma-finite-length' -> 'finite length', 'algebra-lemma-snake' -> 'algebra snake',
// 'thm:heine-borel' -> 'heine borel', 'eq:mainEstimate' -> 'main estimate'). Segments that
// only say what kind of thing is labelled, and segments without a letter ('lem3', '2'),
// carry no content and are dropped.

const KIND = /^(?:lemma|lem|theorem|thm|proposition|prop|corollary|cor|definition|defn|def|remark|rem|remarks|example|ex|exercise|exer|situation|claim|conjecture|conj|fact|observation|obs|notation|assumption|hypothesis|hyp|criterion|principle|problem|question|axiom|property|equation|eqn|eq|section|sec|subsection|chapter|ch|item|fig|figure|tab|table)$/i;

export function labelWords(label: string): string {
  return label
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[-:_./\s]+/)
    .filter((w) => /[a-z]/i.test(w) && !KIND.test(w) && !/^[a-z]+\d+$/i.test(w))
    .join(' ');
}
