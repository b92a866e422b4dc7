// How index results and places of the workspace are written in hovers and result lists: a
// place as `file:line` relative to the document asking, an excerpt in Markdown, an indexed entry
// with its title, link, source and licence.
import * as path from 'node:path';
import type { Doc } from '../../project/workspace.js';
import { uriToPath } from '../../project/files.js';
import { expandProofWikiMacros } from '../../syntax/proofwikiMacros.js';
import { latexToMarkdown } from '../../analysis/render.js';
import type { Result } from '../../index/retrieval.js';


export const where = (d: Doc, offset: number, from: Doc) => {
  const file = uriToPath(d.uri) ?? d.uri;
  const rel = d === from ? path.basename(file) : (uriToPath(from.uri) ? path.relative(path.dirname(uriToPath(from.uri)!), file) : file);
  return `${rel}:${d.positionAt(offset).line + 1}`;
};

export function excerptMd(text: string, max = 280): string {
  return latexToMarkdown(text, { maxLength: max }).replace(/\n+/g, ' ');
}

export function entryLine(r: Result, src: string): string {
  const why = r.named ? 'the theorem\'s title names it' : `score ${r.score.toFixed(2)}`;
  return `**[${r.entry.title.replace(/[[\]]/g, '')}](${r.entry.url})** · ${why} · ${src}, ${r.entry.licence.split(',')[0]}\n\n> ${excerptMd(expandProofWikiMacros(r.entry.text))}`;
}
