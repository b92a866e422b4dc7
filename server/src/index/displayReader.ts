// The relations of display texts as the equivalence check reads them, kept per macro signature
// and text: the claims of every search and the claims eval read the same displays again.
import { displayRelations, type DisplayRelations } from '../math/equations/equation.js';
import type { MacroTable } from '../math/macros.js';

const MAX_READ = 2000;

/** Display relations by (macro signature, text), kept for a few thousand texts. */
export class DisplayReader {
  private young = new Map<string, DisplayRelations | null>();
  private old = new Map<string, DisplayRelations | null>();

  read(latex: string, macroKey: string, table: MacroTable | undefined): DisplayRelations | undefined {
    const k = `${macroKey}\u0000${latex}`;
    let v = this.young.get(k) ?? this.old.get(k);
    if (v === undefined) {
      v = displayRelations(latex, table) ?? null;
      if (this.young.size >= MAX_READ) { this.old = this.young; this.young = new Map(); }
      this.young.set(k, v);
    }
    return v ?? undefined;
  }
}
