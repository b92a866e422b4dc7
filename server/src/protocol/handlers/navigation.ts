import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { definitionAt, highlightsAt, prepareRenameAt, referencesAt, renameAt, RenameError } from '../../features/navigate.js';
import type { Session } from '../../session/session.js';

export function registerNavigation(c: Connection, s: Session): void {
  c.onDefinition((p) => s.guard('definition', [], () => definitionAt(s, p.textDocument.uri, p.position)));
  c.onReferences((p) => s.guard('references', [], () => referencesAt(s, p.textDocument.uri, p.position, p.context.includeDeclaration)));
  c.onDocumentHighlight((p) => s.guard('documentHighlight', [], () => highlightsAt(s, p.textDocument.uri, p.position)));
  c.onPrepareRename((p) => s.guard('prepareRename', null, () => prepareRenameAt(s, p.textDocument.uri, p.position)));
  c.onRenameRequest((p) => s.guard('rename', null, () => {
    try {
      return renameAt(s, p.textDocument.uri, p.position, p.newName);
    } catch (e) {
      if (e instanceof RenameError) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
      throw e;
    }
  }));
}
