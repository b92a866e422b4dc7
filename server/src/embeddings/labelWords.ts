// The words of a LaTeX label: authors name results after what they say
// ('lemma-finite-length' -> 'finite length', 'algebra-lemma-snake' -> 'algebra snake',
// 'thm:heine-borel' -> 'heine borel', 'eq:mainEstimate' -> 'main estimate'). Dropped as no
// content: segments that only say what kind of thing is labelled, segments without a letter
// ('2'), and letters followed by a number ('lem3', 'eq12'; 'L2' too, a price paid for the
// many numbered labels).

const KIND = /^(?:lemma|lem|theorem|thm|proposition|prop|corollary|cor|definition|defn|def|remark|rem|remarks|example|ex|exercise|exer|situation|claim|conjecture|conj|fact|observation|obs|notation|assumption|hypothesis|hyp|criterion|principle|problem|question|axiom|property|equation|eqn|eq|section|sec|subsection|chapter|ch|item|fig|figure|tab|table)$/i;

export function labelWords(label: string): string {
  return label
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[-:_./\s]+/)
    .filter((w) => /[a-z]/i.test(w) && !KIND.test(w) && !/^[a-z]+\d+$/i.test(w))
    .join(' ');
}
