// MathD2 term disambiguation (ProofWiki content, CC BY-SA 3.0): definition -> title among the
// titles that share its term.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface MathD2Row { title: string; term: string; definition: string }
export type MathD2Split = 'train' | 'test_new_candi' | 'test_new_term';

/** RFC 4180 CSV (quoted fields may hold newlines and doubled quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') { if (text[i + 1] === '"') { field += '"'; i++; } else quoted = false; }
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); field = '';
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

export function loadMathD2(dataDir: string, split: MathD2Split): MathD2Row[] {
  const file = path.join(dataDir, 'mathd2', 'sp_cls', `df_flattened_${split}_disam_list.csv`);
  const [head, ...rows] = parseCsv(fs.readFileSync(file, 'utf8'));
  const col = (n: string) => head.indexOf(n);
  const [t, m, d] = [col('title'), col('term'), col('definition')];
  return rows.filter((r) => r.length >= head.length).map((r) => ({ title: r[t], term: r[m], definition: r[d] }));
}

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
