import type { Connection } from 'vscode-languageserver/node';
import { foldingRanges } from '../../features/folding.js';
import type { Session } from '../../session/session.js';

export function registerFolding(c: Connection, s: Session): void {
  c.onFoldingRanges((p) => s.guard('foldingRange', [], () => {
    const doc = s.ws.get(p.textDocument.uri);
    return doc ? foldingRanges(doc, s.foldingRangeLimit) : [];
  }));
}
