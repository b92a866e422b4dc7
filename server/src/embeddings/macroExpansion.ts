// User macros are expanded before tokenizing, so `\R` and `\mathbb{R}` give the same tokens
// and the model sees the notation it was trained on. Definitions are read from the text
// itself or passed in (the server has them as facts); reading and expansion are the project's
// one expander (`syntax/macroExpander.ts`), spliced into the text (no groups added).
import { expand, readDefinitions, type MacroDef } from '../syntax/macroExpander.js';

export type { MacroDef } from '../syntax/macroExpander.js';
export type MacroTable = Map<string, MacroDef>;

/** Reads macro definitions from `text`; returns the table and the text with them removed. */
export function readMacroDefinitions(text: string, into: MacroTable = new Map()): { macros: MacroTable; text: string } {
  return readDefinitions(text, into);
}

/** Expands the macros of `table` in `text`; bounded (a runaway keeps what was expanded so far). */
export function expandMacros(text: string, table: MacroTable): string {
  if (table.size === 0) return text;
  return expand(text, table, { maxExpansions: 64 + text.length, maxLength: text.length * 4 + 10_000 }).text;
}
