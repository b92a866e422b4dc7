// Markdown table with padded columns, shared by the eval and bench scripts.
export function table(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r, k) => {
    const line = '| ' + r.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |';
    return k === 0 ? `${line}\n|${w.map((n) => '-'.repeat(n + 2)).join('|')}|` : line;
  }).join('\n');
}
