// What the server tells the client it can do. A new request handler is registered in
// handlers/ and announced here.
import { CodeActionKind, TextDocumentSyncKind, type ServerCapabilities } from 'vscode-languageserver/node';
import { SERVER_COMMANDS } from '../ext/protocol.js';

export const CAPABILITIES: ServerCapabilities = {
  textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
  hoverProvider: true,
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Refactor] },
  definitionProvider: true,
  referencesProvider: true,
  documentSymbolProvider: true,
  workspaceSymbolProvider: true,
  completionProvider: { triggerCharacters: ['{', ',', '[', '\\'], resolveProvider: true },
  renameProvider: { prepareProvider: true },
  documentHighlightProvider: true,
  foldingRangeProvider: true,
  documentLinkProvider: { resolveProvider: false },
  codeLensProvider: { resolveProvider: true },
  inlayHintProvider: true,
  callHierarchyProvider: true,
  executeCommandProvider: { commands: [...SERVER_COMMANDS] },
  workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
};
