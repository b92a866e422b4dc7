import type { Connection } from 'vscode-languageserver/node';
import { codeLensesAt, resolveCodeLens } from '../../features/codeLenses.js';
import type { Session } from '../../session/session.js';

export function registerCodeLens(c: Connection, s: Session): void {
  c.onCodeLens((p) => s.guardAsync('codeLens', [], async () => {
    const doc = s.ws.get(p.textDocument.uri);
    if (!doc) return [];
    const r = await s.index.during(codeLensesAt(s, doc));
    s.refreshLenses(r.refresh, doc);
    return r.lenses;
  }));
  c.onCodeLensResolve((lens) => s.guardAsync('codeLensResolve', lens, async () => {
    const r = await resolveCodeLens(s, lens);
    s.refreshLenses(r.refresh);
    return r.lens;
  }));
}
