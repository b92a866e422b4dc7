import type { Connection } from 'vscode-languageserver/node';
import { documentSymbols, workspaceSymbols } from '../../features/symbols.js';
import type { Session } from '../../session/session.js';

export function registerSymbols(c: Connection, s: Session): void {
  c.onDocumentSymbol((p) => s.guard('documentSymbol', [], () => {
    const doc = s.ws.get(p.textDocument.uri);
    // the outline can be left to a neighbour (LaTeX Workshop, texlab)
    return doc && s.settingsFor(doc).providers.outline ? documentSymbols(s.ws, doc, s.numbers(doc)) : [];
  }));
  c.onWorkspaceSymbol((p) => s.guard('workspaceSymbol', [], () => workspaceSymbols(s.ws, p.query)));
}
