// Which environments are theorem-like, what they are called and how they are numbered:
// amsthm defaults plus `\newtheorem`, thmtools `\declaretheorem`, `\theoremstyle`, and user
// macros that wrap `\newtheorem` (the HoTT book's `\defthm{lem}{Lemma}{Lemmas}`).
import type { DocTheoremDef, DocumentView } from '../model/documentView.js';
import { texText } from './texText.js';

/** A declared name as it prints (`The\\-o\\-rem` → Theorem); as written when it holds what cannot be written out. */
function printedTitle(title: string | undefined): string | undefined {
  if (title === undefined) return undefined;
  // a name macro a language package defines (`\\lemmaname`, `\\definitionname`): the word it names
  const named = /^\s*\\([a-z]{3,})name\s*$/.exec(title);
  if (named) return named[1][0].toUpperCase() + named[1].slice(1);
  return texText(title) || title;
}

export type TheoremStyle = 'plain' | 'definition' | 'remark' | string;

export interface TheoremKind {
  env: string;
  title: string;
  style: TheoremStyle;
  /** Counter this environment is numbered with (its own name unless shared). */
  counter: string;
  /** Counter that resets this one (`\newtheorem{a}{A}[section]`). */
  parent?: string;
  numbered: boolean;
  source: 'default' | 'user';
}

const DEFAULTS: Array<[string, string, TheoremStyle]> = [
  ['theorem', 'Theorem', 'plain'], ['lemma', 'Lemma', 'plain'], ['proposition', 'Proposition', 'plain'],
  ['corollary', 'Corollary', 'plain'], ['conjecture', 'Conjecture', 'plain'], ['claim', 'Claim', 'plain'],
  ['fact', 'Fact', 'plain'], ['observation', 'Observation', 'plain'], ['hypothesis', 'Hypothesis', 'plain'],
  ['axiom', 'Axiom', 'plain'], ['assumption', 'Assumption', 'plain'], ['criterion', 'Criterion', 'plain'],
  ['definition', 'Definition', 'definition'], ['example', 'Example', 'definition'],
  ['exercise', 'Exercise', 'definition'], ['problem', 'Problem', 'definition'], ['question', 'Question', 'definition'],
  ['notation', 'Notation', 'definition'], ['construction', 'Construction', 'definition'],
  ['remark', 'Remark', 'remark'], ['note', 'Note', 'remark'], ['case', 'Case', 'remark'],
  ['thm', 'Theorem', 'plain'], ['lem', 'Lemma', 'plain'], ['prop', 'Proposition', 'plain'],
  ['cor', 'Corollary', 'plain'], ['conj', 'Conjecture', 'plain'], ['defn', 'Definition', 'definition'],
  ['dfn', 'Definition', 'definition'], ['defi', 'Definition', 'definition'], ['rem', 'Remark', 'remark'],
  ['rmk', 'Remark', 'remark'], ['ex', 'Example', 'definition'], ['exa', 'Example', 'definition'],
];

/** Kinds no proof is written for, by their printed name or environment, whatever their style. */
const NOT_PROVED = /definition|example|question|remark|note|notation|solution|answer|hint|construction|convention|assumption|axiom|hypothesis|algorithm|open|caution|warning|aside|summary|recall|reminder/i;
/** Kinds proofs are written for (an exercise's solution too), by their printed name or environment (English, German, French, Spanish, Italian). */
const PROVED = /exercise|problem|theorem|lemma|proposition|corollary|claim|fact|observation|conjecture|criterion|principle|law\b|identity|inequality|formula|result|satz|s[äa]tze|folgerung|korollar|hilfssatz|th[ée]or[èe]me|lemme|corollaire|teorema|lema|proposici[óo]n|corolario|proposizione|corollario|^(?:thm|lem|prop|cor|conj|clm)s?\*?$/i;

/**
 * Statement kinds that proofs attach to: by what the project's declaration prints (its name,
 * its environment) and the counter it shares (`\newtheorem{satz}[theorem]{Satz}`), never by
 * the typographic `\theoremstyle` it was declared under; the style decides only for a name
 * that says neither. `kindOf` looks up the kind numbered with a shared counter.
 */
export function provable(kind: TheoremKind, kindOf?: (env: string) => TheoremKind | undefined): boolean {
  const names = `${kind.title} ${kind.env}`;
  if (NOT_PROVED.test(kind.title) || NOT_PROVED.test(kind.env)) return false;
  if (PROVED.test(kind.title) || PROVED.test(kind.env)) return true;
  const shared = kind.counter !== kind.env.replace(/\*$/, '') ? kindOf?.(kind.counter) : undefined;
  if (shared && shared !== kind && (PROVED.test(shared.title) || PROVED.test(shared.env))) return true;
  return /\S/.test(names) && kind.style === 'plain';
}

export class TheoremRegistry {
  private readonly kinds = new Map<string, TheoremKind>();

  constructor() {
    for (const [env, title, style] of DEFAULTS) {
      this.kinds.set(env, { env, title, style, counter: env, numbered: true, source: 'default' });
      this.kinds.set(env + '*', { env: env + '*', title, style, counter: env, numbered: false, source: 'default' });
    }
  }

  get(env: string): TheoremKind | undefined {
    return this.kinds.get(env);
  }

  all(): TheoremKind[] {
    return [...this.kinds.values()];
  }

  /** Applies the definitions of one document, in source order. */
  addDefinitions(defs: readonly DocTheoremDef[], initialStyle: TheoremStyle = 'plain'): TheoremStyle {
    let style = initialStyle;
    for (const d of defs) {
      if (d.cmd === 'theoremstyle') { style = d.style ?? style; continue; }
      if (!d.env) continue;
      const shared = d.shared && this.kinds.get(d.shared);
      this.kinds.set(d.env, {
        env: d.env, title: printedTitle(d.title) ?? d.env, style: d.style ?? style,
        counter: shared ? shared.counter : d.shared ?? d.env, parent: shared ? shared.parent : d.parent,
        numbered: !d.starred, source: 'user',
      });
    }
    return style;
  }

  /** Applies wrapper-macro invocations found in `doc` (e.g. `\defthm{lem}{Lemma}{...}`). */
  addWrapperInvocations(doc: DocumentView, wrappers: ReadonlyMap<string, { envArg: number; titleArg?: number; sharedArg?: number }>): void {
    if (wrappers.size === 0) return;
    const names = [...wrappers.keys()].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    const re = new RegExp(`\\\\(${names})(?![a-zA-Z@])((?:\\s*\\{[^{}\\n]*\\})+)`, 'g');
    const text = doc.text;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      const w = wrappers.get(m[1])!;
      const args = [...m[2].matchAll(/\{([^{}\n]*)\}/g)].map((a) => a[1].trim());
      const env = args[w.envArg - 1];
      if (!env || /[#\\]/.test(env)) continue;
      const title = w.titleArg ? printedTitle(args[w.titleArg - 1]) ?? env : env;
      const shared = w.sharedArg ? args[w.sharedArg - 1] : undefined;
      const sharedKind = shared ? this.kinds.get(shared) : undefined;
      const lineStart = text.lastIndexOf('\n', m.index) + 1;
      const style = this.styleBefore(doc, m.index) ?? 'plain';
      if (/^\s*%/.test(text.slice(lineStart, m.index))) continue;
      this.kinds.set(env, {
        env, title, style, counter: sharedKind?.counter ?? env, parent: sharedKind?.parent, numbered: true, source: 'user',
      });
    }
  }

  private styleBefore(doc: DocumentView, offset: number): TheoremStyle | undefined {
    let style: TheoremStyle | undefined;
    for (const d of doc.theoremDefs()) {
      if (d.start > offset) break;
      if (d.cmd === 'theoremstyle') style = d.style;
    }
    return style;
  }
}
