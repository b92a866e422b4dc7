// Markdown notes: unified + remark-parse + remark-math find headings and `$…$` / `$$…$$`
// math; each math node's source is run through the same block analyser as LaTeX, so labels,
// references and display-math rows inside notes enter the same model.
import { unified } from 'unified';
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

const processor = unified().use(remarkParse).use(remarkMath);

const EMPTY_FACTS: BlockFacts = analyseBlock('');

function plainText(node: MdNode): string {
  if (node.value !== undefined) return node.type === 'inlineMath' ? `$${node.value}$` : node.value;
  return (node.children ?? []).map(plainText).join('');
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
    let tree: MdNode;
    try {
      tree = processor.parse(text) as unknown as MdNode;
    } catch {
      // remark never throws on text, but a corrupt file must not take the server down
      this.blockList = [{ start: 0, end: text.length, facts: EMPTY_FACTS }];
      this.inline = [];
      return;
    }
    const visit = (node: MdNode): void => {
      const s = node.position?.start.offset;
      const e = node.position?.end.offset;
      if (node.type === 'math' || node.type === 'inlineMath') {
        if (s === undefined || e === undefined) return;
        if (node.type === 'inlineMath') inline.push({ start: s, end: e });
        blocks.push({ start: s, end: e, facts: analyseBlock(text.slice(s, e)) });
        return;
      }
      if (node.type === 'heading' && s !== undefined && e !== undefined) {
        const section: SectionFact = {
          cmd: 'heading', level: node.depth ?? 1, title: plainText(node).trim(), starred: false, start: 0, end: e - s,
        };
        blocks.push({ start: s, end: e, facts: { ...EMPTY_FACTS, sections: [section] } });
      }
      for (const child of node.children ?? []) visit(child);
    };
    visit(tree);
    blocks.sort((a, b) => a.start - b.start);
    this.blockList = blocks.length ? blocks : [{ start: 0, end: text.length, facts: EMPTY_FACTS }];
    this.inline = inline;
  }
}
