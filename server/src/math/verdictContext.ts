// What the verdict reads from the prose around a step: equations stated there (a step may
// substitute them), a golden mean named, and in an annotation a rounding or a local fact cited.
import { readDomains } from './domain.js';
import { readSetting, settingKey } from './setting.js';

/** What the checker reads from the prose around a display: domains, hypotheses, constants. */
export function contextSignature(context: string): string {
  return JSON.stringify([...readDomains(context)]) + settingKey(readSetting(context)) + (GOLDEN.test(context) ? 'G' : '') + hypotheses(context).join('\u0001');
}

export const ROUNDING = /\b(significant (figures|digits)|decimal places|nearest|round(ed|ing)?|truncat|approximat)/i;

/** An equals sign (not `\\le`, `:=`, `\\neq`). */
export const EQUALS = /(^|[^<>!\\:])=(?!:)/;

/** The text names the golden mean: `\\phi` is that constant, not a variable. */
export const GOLDEN = /golden (mean|ratio|section)/i;
export const PHI = (1 + Math.sqrt(5)) / 2;

/**
 * Equations stated in the prose (`where $q = 1 - p$`, `\\(\\Delta = \\sqrt{m^2 + 4}\\)`): a step may
 * substitute them, so a step that fails only as an identity in their variables is not refuted.
 */
export function hypotheses(context: string): string[] {
  const out: string[] = [];
  const re = /\$\$([^$]{1,400})\$\$|\$([^$]{1,400})\$|\\\(([\s\S]{1,400}?)\\\)|\\\[([\s\S]{1,400}?)\\\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(context)) && out.length < 40) {
    const math = (m[1] ?? m[2] ?? m[3] ?? m[4]).trim();
    // an equals sign of the relation itself, not of an index (`\\{x_n\\}_{n=1}^\\infty`, `\\sum_{k=1}`)
    if (EQUALS.test(math.replace(/[_^]\s*\{[^{}]*\}/g, ' '))) out.push(math);
  }
  return out;
}

/**
 * What in an annotation cites a fact of this text rather than a general result: an equation
 * number or label, a hypothesis or assumption, a case, an induction step, a substitution, a
 * definition of a letter (`by definition of $q$`), "where"/"since"/"as" with a condition.
 */
export const LOCAL_FACT = /\\(?:eq)?ref|\\cite|\(\s*[\dA-Za-z*†]{1,4}(?:\.\d+)*\s*\)|\[\s*\d+\s*\]|\b(?:hypothes|assum|given|induct|premise|condition|constraint|substitut|putting|setting|choos|case|lemma|claim|step|above|previous|earlier|below|eq(?:uation|n)?\.?\s*\d|line\s*\(?\d)|\b(?:where|since|as|if|when|with|let|for|because)\b[^.]*\$|\b(?:definition|def(?:\.|n)?)\s+of\s+(?:\$|[A-Za-z](?![A-Za-z]))/i;
