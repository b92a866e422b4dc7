import type { Connection } from 'vscode-languageserver/node';
import { referenceInlayHints } from '../../features/inlayHints.js';
import type { Session } from '../../session/session.js';

export function registerInlayHints(c: Connection, s: Session): void {
  c.languages.inlayHint.on((p) => s.guard('inlayHint', [], () => {
    const doc = s.ws.get(p.textDocument.uri);
    return doc ? referenceInlayHints(s.ws, doc, p.range, s.numbers(doc)) : [];
  }));
}
