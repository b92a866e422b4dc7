// Creates the LanguageClient for the bundled server (IPC), with the settings middleware that
// applies workspace trust before the server sees `mathsense.*` settings.
import * as vscode from 'vscode';
import {
  LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions,
} from 'vscode-languageclient/node';
import { INSERT_CITATION_COMMAND, type InitializationOptions } from 'mathsense-server/protocol';
import { sanitizeSettings } from './trust.js';

export function createClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('server/dist/mathsense.cjs');
  const serverOptions: ServerOptions = {
    run: { module, args: ['lsp'], transport: TransportKind.ipc },
    debug: { module, args: ['lsp'], transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const warned = new Set<string>();
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'latex' },
      { scheme: 'file', language: 'tex' },
      { scheme: 'file', language: 'markdown' },
      // .bib files: their edits reach the server's bibliography store before they are saved
      { scheme: 'file', language: 'bibtex' },
      { scheme: 'untitled', language: 'latex' },
    ],
    synchronize: {
      configurationSection: 'mathsense',
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{tex,ltx,sty,cls,md,bib,aux}'),
    },
    outputChannel: output,
    // a library result's "Insert citation" link in a hover runs the server's command; no other command link is trusted
    markdown: { isTrusted: { enabledCommands: [INSERT_CITATION_COMMAND] } },
    // results to cite open in the results panel (commands.ts: mathsense.showResultsToCite)
    // hovers show math typeset (MathJax SVG, drawn in the theme's text colour)
    // in a workspace not trusted the server reads no file outside its folders (asked again on each start)
    initializationOptions: () => ({ resultsPanel: true, mathsense: { hoverMath: 'svg', hoverMathColor: hoverMathColor() }, trusted: vscode.workspace.isTrusted }) satisfies InitializationOptions,
    middleware: {
      workspace: {
        // the server pulls `mathsense` settings; path settings are filtered in untrusted workspaces
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((value, i) => {
            const section = params.items[i]?.section;
            if (section !== 'mathsense') return value;
            const { settings, dropped } = sanitizeSettings(value, { trusted: vscode.workspace.isTrusted, extensionPath: context.extensionPath });
            for (const d of dropped) {
              const key = `${d.key}=${JSON.stringify(d.value)}`;
              if (warned.has(key)) continue;
              warned.add(key);
              output.warn(`untrusted workspace: ignoring ${d.key} (${JSON.stringify(d.value)}): it points outside the extension; using the bundled files`);
            }
            return settings;
          });
        },
      },
    },
  };
  return new LanguageClient('mathsense', 'MathSense', serverOptions, clientOptions);
}

/** Notification to the server when the theme (and so the text colour of hover math) changes. */
export { HOVER_MATH_COLOR } from 'mathsense-server/protocol';

/** The editor's usual text colour for the active theme kind (an image cannot inherit it). */
export function hoverMathColor(kind: vscode.ColorThemeKind = vscode.window.activeColorTheme.kind): string {
  switch (kind) {
    case vscode.ColorThemeKind.Dark: return '#cccccc';
    case vscode.ColorThemeKind.HighContrast: return '#ffffff';
    case vscode.ColorThemeKind.HighContrastLight: return '#000000';
    default: return '#3b3b3b';
  }
}
