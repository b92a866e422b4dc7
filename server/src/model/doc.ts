// A document of the model: LaTeX or a Markdown note with math, both read through the same views.
import type { LatexDocument } from './latexDocument.js';
import type { MarkdownDocument } from './markdownDocument.js';

export type Doc = LatexDocument | MarkdownDocument;
