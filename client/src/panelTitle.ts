// The results panel's tab title: its heading up to the first formula (a tab cannot typeset
// math; the panel's own heading shows it typeset), and not so long that the tab hides the rest.

/** Characters of the heading a tab shows at most. */
const MAX_TITLE = 60;

export function panelTitle(heading: string): string {
  const math = heading.indexOf('$');
  let title = (math >= 0 ? heading.slice(0, math) : heading).trim();
  const cut = math >= 0 || title.length > MAX_TITLE;
  if (title.length > MAX_TITLE) title = title.slice(0, MAX_TITLE).trimEnd();
  return `MathSense: ${title}${cut ? ' …' : ''}`;
}
