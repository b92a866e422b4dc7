// Every diagnostic code MathSense publishes, in one table: its usual severity, the setting that
// switches it, what its truth rests on (the publish gate reads this, never the code's spelling),
// and the check that proposes it. A new diagnostic is a row here and a producer that proposes it.
import { DiagnosticSeverity, type Diagnostic, type DiagnosticTag, type Range } from 'vscode-languageserver-types';

/**
 * What a diagnostic's truth rests on: `compiled`, that LaTeX compiles the file as part of a
 * document; `whole-project`, that every file of the project has been read.
 */
export type Need = 'compiled' | 'whole-project';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** The checks that propose diagnostics (each one module). */
export type Producer = 'files' | 'labels' | 'includes' | 'structure' | 'citations' | 'derivations' | 'dependencies';

export interface CodeRule {
  /** The usual severity; a producer lowers it only for a case its message names. */
  severity: Severity;
  /** The `mathsense.*` setting that switches the code off (package.json); none: always on. */
  setting?: string;
  needs: readonly Need[];
  /** Published for a package or class file too, which is otherwise read for its definitions only. */
  inMacroSources?: boolean;
  producer: Producer;
}

const COMPILED: readonly Need[] = ['compiled'];
const WHOLE: readonly Need[] = ['compiled', 'whole-project'];
const NONE: readonly Need[] = [];

export const CODES = {
  // the file itself
  'unreadable': { severity: 'warning', needs: NONE, inMacroSources: true, producer: 'files' },
  // labels and references (labelChecks.ts); an undefined reference is also judged against the
  // project's label universe by its key
  'undefined-ref': { severity: 'error', needs: WHOLE, producer: 'labels' },
  // within one file's text it holds whatever compiles it
  'duplicate-label': { severity: 'error', setting: 'mathsense.diagnostics.duplicateLabels', needs: NONE, producer: 'labels' },
  'unused-label': { severity: 'hint', setting: 'mathsense.diagnostics.unusedLabels', needs: WHOLE, producer: 'labels' },
  // includes (includeChecks.ts)
  'missing-include': { severity: 'warning', setting: 'mathsense.diagnostics.structure', needs: COMPILED, producer: 'includes' },
  'include-letter-case': { severity: 'information', setting: 'mathsense.diagnostics.structure', needs: COMPILED, producer: 'includes' },
  // a cycle loops whenever any of its files is compiled; reading a file twice depends on the compilation
  'include-cycle': { severity: 'warning', setting: 'mathsense.diagnostics.structure', needs: NONE, producer: 'includes' },
  'duplicate-include': { severity: 'warning', setting: 'mathsense.diagnostics.structure', needs: COMPILED, producer: 'includes' },
  // environments (structureChecks.ts, from the analyser's facts)
  'unclosed-environment': { severity: 'warning', setting: 'mathsense.diagnostics.structure', needs: COMPILED, producer: 'structure' },
  'unmatched-end': { severity: 'warning', setting: 'mathsense.diagnostics.structure', needs: COMPILED, producer: 'structure' },
  // citations (features/citations/citations.ts)
  'undefined-citation': { severity: 'warning', needs: WHOLE, producer: 'citations' },
  // what rests on what (dependencyChecks.ts): a circle or an order needs every file of the compilation
  'proof-cycle': { severity: 'warning', setting: 'mathsense.diagnostics.structure', needs: WHOLE, producer: 'dependencies' },
  // some authors state a result after its first use on purpose: said, not flagged
  'used-before-stated': { severity: 'information', setting: 'mathsense.diagnostics.structure', needs: WHOLE, producer: 'dependencies' },
  'blueprint-marks': { severity: 'warning', needs: NONE, producer: 'dependencies' },
  'blueprint-ready': { severity: 'information', needs: WHOLE, producer: 'dependencies' },
  'unused-statement': { severity: 'hint', setting: 'mathsense.diagnostics.unusedStatements', needs: WHOLE, producer: 'dependencies' },
  // derivation steps (features/equations/derivation.ts), checked in the background
  'derivation-step': { severity: 'warning', setting: 'mathsense.derivations.enabled', needs: NONE, producer: 'derivations' },
  'derivation-unknown': { severity: 'information', setting: 'mathsense.derivations.showUnknown', needs: NONE, producer: 'derivations' },
  'derivations-skipped': { severity: 'information', setting: 'mathsense.derivations.enabled', needs: NONE, producer: 'derivations' },
} as const satisfies Record<string, CodeRule>;

export type DiagnosticCode = keyof typeof CODES;

/** The rule of a published code; undefined for a code not in the table. */
export function ruleOf(code: Diagnostic['code']): CodeRule | undefined {
  return typeof code === 'string' && Object.hasOwn(CODES, code) ? CODES[code as DiagnosticCode] : undefined;
}

const LSP_SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, information: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint,
};

export const SOURCE = 'mathsense';

/** A diagnostic of `code` with the table's severity unless `severity` says otherwise. */
export function diagnostic(code: DiagnosticCode, range: Range, message: string, more: { severity?: Severity; tags?: DiagnosticTag[] } = {}): Diagnostic {
  const d: Diagnostic = { range, severity: LSP_SEVERITY[more.severity ?? CODES[code].severity], source: SOURCE, code, message };
  if (more.tags) d.tags = more.tags;
  return d;
}
