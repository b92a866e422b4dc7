// How a search result reads in the quick pick. VS Code re-sorts a quick pick by where the typed
// text matches each label, so a workspace statement named by the query would fall behind every
// index title that starts with it; its label starts with its own name, as theirs do, and its
// kind goes to the description.
import type { SearchResponse } from 'mathsense-server/protocol';

type Item = SearchResponse['items'][number];

/** The label (with its source icon) and description of a result in the pick list. */
export function pickText(i: Item): { label: string; description: string } {
  if (i.source !== 'workspace') return { label: `$(book) ${i.title}`, description: i.detail };
  // "Theorem (Lagrange's theorem)": the name first
  const m = /^([^()]+?) \((.+)\)$/.exec(i.title);
  return m ? { label: `$(file) ${m[2]}`, description: `${m[1]} · ${i.detail}` } : { label: `$(file) ${i.title}`, description: i.detail };
}
