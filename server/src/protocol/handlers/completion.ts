import type { Connection } from 'vscode-languageserver/node';
import { completeAt } from '../../features/complete.js';
import { resolveCompletion } from '../../features/labels/labelCompletion.js';
import type { Session } from '../../session/session.js';

export function registerCompletion(c: Connection, s: Session): void {
  c.onCompletion((p) => s.guard('completion', null, () => {
    s.index.noteRequest();
    const doc = s.ws.get(p.textDocument.uri);
    return doc ? completeAt(s, doc, doc.offsetAt(p.position)) : null;
  }));
  c.onCompletionResolve((item) => s.guard('completionResolve', item, () => resolveCompletion(s.ws, item)));
}
