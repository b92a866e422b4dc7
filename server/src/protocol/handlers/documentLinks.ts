import type { Connection } from 'vscode-languageserver/node';
import { documentLinks } from '../../features/documentLinks.js';
import type { Session } from '../../session/session.js';

export function registerDocumentLinks(c: Connection, s: Session): void {
  c.onDocumentLinks((p) => s.guard('documentLink', [], () => {
    const doc = s.ws.get(p.textDocument.uri);
    return doc ? documentLinks(s.ws, doc) : [];
  }));
}
