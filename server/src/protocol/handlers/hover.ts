import type { Connection } from 'vscode-languageserver/node';
import { hoverAt } from '../../features/hover.js';
import type { Session } from '../../session/session.js';

export function registerHover(c: Connection, s: Session): void {
  c.onHover((p) => s.guard('hover', null, () => {
    s.index.noteRequest();
    const doc = s.ws.get(p.textDocument.uri);
    return doc ? hoverAt(s, doc, doc.offsetAt(p.position)) : null;
  }));
}
