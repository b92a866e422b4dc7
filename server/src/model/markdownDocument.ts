// Markdown notes: unified + remark-parse + remark-math find headings and `$…$` / `$$…$$`
// math; each math node's source is run through the same block analyser as LaTeX, so labels,
// references and display-math rows inside notes enter the same model.
import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import remarkMath from 'remark-math';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { BlockFacts, SectionFact, Span } from '../syntax/facts.js';
import { analyseBlock } from '../syntax/blockAnalyser.js';
import { DocumentView, type Block } from './documentView.js';

interface MdNode {
  type: string;
  depth?: number;
  value?: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/**
 * We only need headings, code (to skip it) and math. Emphasis and link-label resolution are
 * the constructs whose cost grows faster than the text (`a*b*c` prose took seconds per
 * keystroke), so they are switched off.
 */
function withoutInlineFormatting(this: Processor): void {
  const data = this.data() as { micromarkExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push({ disable: { null: ['attention', 'labelStartImage', 'labelStartLink', 'labelEnd'] } });
}

const processor = unified().use(remarkParse).use(withoutInlineFormatting).use(remarkMath);

/** Notes larger than this are not parsed (a clear limit instead of a stalled server). */
export const MAX_MARKDOWN_CHARS = 4 * 1024 * 1024;

const EMPTY_FACTS: BlockFacts = analyseBlock('');

function plainText(node: MdNode, depth = 0): string {
  if (node.value !== undefined) return node.type === 'inlineMath' ? `$${node.value}$` : node.value;
  if (depth > 50) return '';
  return (node.children ?? []).map((c) => plainText(c, depth + 1)).join('');
}

export class MarkdownDocument extends DocumentView {
  readonly kind = 'markdown' as const;
  private blockList: Block[] = [];
  private inline: Span[] = [];

  constructor(uri: string, text: string, version = 0, languageId = 'markdown') {
    super(uri, text, version, languageId);
    this.parse();
  }

  blocks(): readonly Block[] { return this.blockList; }

  /** Inline `$…$` math spans (delimiters included). */
  inlineMath(): readonly Span[] { return this.inline; }

  applyChanges(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    this.textDocument = TextDocument.update(this.textDocument, [...changes], version);
    this.parse();
    this.invalidate();
  }

  setText(text: string, version: number): void {
    this.textDocument = TextDocument.create(this.uri, this.languageId, version, text);
    this.parse();
    this.invalidate();
  }

  private parse(): void {
    const text = this.text;
    const blocks: Block[] = [];
    const inline: Span[] = [];
    this.blockList = [{ start: 0, end: text.length, facts: EMPTY_FACTS }];
    this.inline = [];
    if (text.length > MAX_MARKDOWN_CHARS) return;
    // remark drops a leading byte-order mark and counts offsets without it
    const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    let tree: MdNode;
    try {
      tree = processor.parse(bom ? text.slice(1) : text) as unknown as MdNode;
    } catch {
      // remark never throws on text, but a corrupt file must not take the server down
      return;
    }
    // explicit stack: deeply nested quotes/lists must not overflow the call stack
    const stack: MdNode[] = [tree];
    while (stack.length) {
      const node = stack.pop()!;
      const s0 = node.position?.start.offset;
      const e0 = node.position?.end.offset;
      const s = s0 === undefined ? undefined : s0 + bom;
      const e = e0 === undefined ? undefined : e0 + bom;
      if (node.type === 'math' || node.type === 'inlineMath') {
        if (s === undefined || e === undefined) continue;
        if (node.type === 'inlineMath') inline.push({ start: s, end: e });
        blocks.push({ start: s, end: e, facts: analyseBlock(text.slice(s, e)) });
        continue;
      }
      if (node.type === 'heading' && s !== undefined && e !== undefined) {
        const section: SectionFact = {
          cmd: 'heading', level: node.depth ?? 1, title: plainText(node).trim(), starred: false, start: 0, end: e - s,
        };
        blocks.push({ start: s, end: e, facts: { ...EMPTY_FACTS, sections: [section] } });
      }
      const kids = node.children ?? [];
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
    blocks.sort((a, b) => a.start - b.start);
    inline.sort((a, b) => a.start - b.start);
    if (blocks.length) this.blockList = blocks;
    this.inline = inline;
  }

}
