// VS Code client: starts the bundled MathSense language server for LaTeX and Markdown.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath('server/dist/mathsense.cjs');
  const serverOptions: ServerOptions = {
    run: { module, args: ['lsp'], transport: TransportKind.ipc },
    debug: { module, args: ['lsp'], transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const output = vscode.window.createOutputChannel('MathSense', { log: true });
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'latex' },
      { scheme: 'file', language: 'tex' },
      { scheme: 'file', language: 'markdown' },
      { scheme: 'untitled', language: 'latex' },
    ],
    synchronize: {
      configurationSection: 'mathsense',
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{tex,ltx,sty,cls,md}'),
    },
    outputChannel: output,
  };
  client = new LanguageClient('mathsense', 'MathSense', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand('mathsense.restartServer', async () => {
      await client?.restart();
      output.appendLine('MathSense server restarted');
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
