import type { Connection } from 'vscode-languageserver/node';
import { codeActionsAt } from '../../features/codeActions.js';
import type { Session } from '../../session/session.js';

export function registerCodeActions(c: Connection, s: Session): void {
  c.onCodeAction((p) => s.guard('codeAction', [], () => {
    const doc = s.ws.get(p.textDocument.uri);
    return doc ? codeActionsAt(s, doc, p.range, p.context.diagnostics) : [];
  }));
}
