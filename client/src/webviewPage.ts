// The page every MathSense webview starts from: a strict Content-Security-Policy (no inline
// code: nonce'd local scripts; local styles, fonts and images only), KaTeX's stylesheet and
// script from the packaged dist/media, then the view's own styles, body and scripts.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  title: string;
  /** Stylesheets under media/. */
  styles: string[];
  /** Scripts after KaTeX, each a path under media/ or dist/media/ (`dist:` prefix). */
  scripts: string[];
  body: string;
}

export function webviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  const bundled = vscode.Uri.joinPath(extensionUri, 'dist', 'media');
  const nonce = crypto.randomBytes(16).toString('base64');
  const uri = (base: vscode.Uri, ...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(base, ...p)).toString();
  const src = (s: string) => (s.startsWith('dist:') ? uri(bundled, ...s.slice(5).split('/')) : uri(media, ...s.split('/')));
  const csp = ["default-src 'none'", `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `img-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${uri(bundled, 'katex', 'katex.min.css')}">
${page.styles.map((s) => `<link rel="stylesheet" href="${src(s)}">`).join('\n')}
<title>${page.title}</title>
</head>
<body>
${page.body}
<script nonce="${nonce}" src="${uri(bundled, 'katex', 'katex.min.js')}"></script>
${page.scripts.map((s) => `<script nonce="${nonce}" src="${src(s)}"></script>`).join('\n')}
</body>
</html>`;
}

/** Where a webview may load from: media/ and dist/media/. */
export function webviewRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist', 'media')];
}
