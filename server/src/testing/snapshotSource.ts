// Where an inline snapshot lives in the test's TypeScript source, and rewriting it there.
// Tests run compiled (server/out/…test.js); the `expect` call site V8 reports is mapped back
// through the compiled file's source map to the .ts file, which is parsed with the TypeScript
// compiler to find the tagged template there. Every snapshot rewritten in one file is applied
// to the text the file had when the first was (so positions stay those the parser saw).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SourceMap, createRequire, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

/** A place in a running (compiled) file, 1-based as V8 reports it. */
export interface CallSite { file: string; line: number; column: number }

/** The caller of the function `fn` (its call expression's position). */
export function callerOf(fn: Function): CallSite | undefined {
  const holder: { stack?: unknown } = {};
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (_, frames) => frames;
  try {
    Error.captureStackTrace(holder, fn);
    const frame = (holder.stack as NodeJS.CallSite[] | undefined)?.[0];
    const name = frame?.getFileName();
    if (!frame || !name) return undefined;
    return { file: name.startsWith('file:') ? fileURLToPath(name) : name, line: frame.getLineNumber() ?? 0, column: frame.getColumnNumber() ?? 0 };
  } finally {
    Error.prepareStackTrace = prepare;
  }
}

/** The source position (0-based) of a compiled position, through the file's `.map`. */
export function originalPosition(site: CallSite): { file: string; line: number; column: number } {
  const mapFile = `${site.file}.map`;
  if (!fs.existsSync(mapFile)) return { file: site.file, line: site.line - 1, column: site.column - 1 };
  const payload = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as SourceMapPayload;
  const entry = new SourceMap(payload).findEntry(site.line - 1, site.column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
  if (entry.originalSource === undefined || entry.originalLine === undefined) throw new Error(`no source position for ${site.file}:${site.line}:${site.column}`);
  const source = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : path.resolve(path.dirname(mapFile), payload.sourceRoot || '', entry.originalSource);
  return { file: source, line: entry.originalLine, column: entry.originalColumn ?? 0 };
}

/** The literal of a tagged template in `text`: offsets of its content (inside the backticks) and its line's indentation. */
export interface LiteralSpan { start: number; end: number; indent: string }

type TS = typeof import('typescript');
let ts: TS | undefined;

/**
 * The tagged template without substitutions whose raw text is `raw`, nearest the position
 * (0-based line and column); undefined when there is none (the source changed since compiling).
 */
export function findTaggedLiteral(file: string, text: string, line: number, column: number, raw: string): LiteralSpan | undefined {
  ts ??= createRequire(import.meta.url)('typescript') as TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const at = source.getPositionOfLineAndCharacter(Math.min(line, source.getLineStarts().length - 1), 0) + column;
  let best: { span: LiteralSpan; distance: number } | undefined;
  const visit = (node: import('typescript').Node): void => {
    if (ts!.isTaggedTemplateExpression(node) && ts!.isNoSubstitutionTemplateLiteral(node.template)) {
      const start = node.template.getStart(source) + 1;
      const end = node.template.end - 1;
      if (text.slice(start, end).replace(/\r\n?/g, '\n') === raw) {
        const distance = Math.min(Math.abs(node.getStart(source) - at), Math.abs(start - 1 - at));
        if (!best || distance < best.distance) {
          const lineStart = text.lastIndexOf('\n', node.getStart(source) - 1) + 1;
          best = { span: { start, end, indent: /^[ \t]*/.exec(text.slice(lineStart))![0] }, distance };
        }
      }
    }
    ts!.forEachChild(node, visit);
  };
  visit(source);
  return best?.span;
}

const originals = new Map<string, { text: string; patches: Map<number, { end: number; text: string }> }>();

/**
 * Replaces the content of the snapshot called at `site` (whose raw text is `raw`) by `literal`
 * in the TypeScript source, and returns the source file and 1-based line.
 */
export function rewriteSnapshot(site: CallSite, raw: string, literal: (indent: string) => string): { file: string; line: number } {
  const pos = originalPosition(site);
  let state = originals.get(pos.file);
  if (!state) {
    state = { text: fs.readFileSync(pos.file, 'utf8'), patches: new Map() };
    originals.set(pos.file, state);
  }
  const span = findTaggedLiteral(pos.file, state.text, pos.line, pos.column, raw);
  if (!span) throw new Error(`snapshot not found in ${pos.file} near line ${pos.line + 1}: the source changed since it was compiled? (build again)`);
  state.patches.set(span.start, { end: span.end, text: literal(span.indent) });
  let out = state.text;
  for (const [start, p] of [...state.patches].sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + p.text + out.slice(p.end);
  fs.writeFileSync(pos.file, out);
  return { file: pos.file, line: state.text.slice(0, span.start).split('\n').length };
}
