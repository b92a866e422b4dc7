// Hover math over real stdio: a client that asks for `hoverMath: "svg"` gets every formula of a
// \ref hover typeset (an SVG image drawn in the colour it sent, then in the colour of a theme
// change), and the formula under the cursor typeset; a client that asks for nothing gets the TeX
// in code spans, exactly as written.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, HoverRequest, type Hover } from 'vscode-languageserver-protocol/node';
import { LspClient } from './lspClient.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const serverBundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');

const TEXT = String.raw`\documentclass{article}
\newcommand{\R}{\mathbb{R}}
\begin{document}
\begin{lemma}\label{lem:set}
The set $\{ x \in \R : x > 0 \}$ is open, and
\begin{align}
  a &= b \\
    &= c
\end{align}
\end{lemma}
By Lemma~\ref{lem:set} and $y^2 \geq 0$ we are done.
\end{document}
`;

async function start(initializationOptions: unknown): Promise<LspClient> {
  const client = new LspClient({ bundle: serverBundle });
  await client.initialize(undefined, {}, { initializationOptions });
  return client;
}

const value = (h: Hover | null) => (h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '');
const svgs = (md: string) => [...md.matchAll(/!\[[^\]]*\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)/g)].map((m) => Buffer.from(m[1], 'base64').toString('utf8'));

describe('hover math over stdio', { timeout: 60_000 }, () => {
  let dir: string;
  let uri: string;
  const servers: LspClient[] = [];
  before(() => {
    assert.ok(fs.existsSync(serverBundle), `${serverBundle} missing: run node scripts/build.mjs`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-hovermath-'));
    fs.writeFileSync(path.join(dir, 'main.tex'), TEXT);
    uri = pathToFileURL(path.join(dir, 'main.tex')).href;
  });
  after(async () => {
    for (const s of servers) {
      try { await s.stop(); } finally { s.kill(); }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const refAt = { line: 10, character: TEXT.split('\n')[10].indexOf('lem:set') + 2 };

  it('svg: typeset formulas in the colour sent, the theme change followed, the formula under the cursor', async () => {
    const s = await start({ mathsense: { hoverMath: 'svg', hoverMathColor: '#cccccc' } });
    servers.push(s);
    await s.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text: TEXT } });
    const md = value(await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: refAt }));
    const images = svgs(md);
    assert.equal(images.length, 2, md.slice(0, 300));
    assert.ok(images.every((x) => x.includes('#cccccc')));
    assert.doesNotMatch(md, /\$/, 'no TeX left between dollars');
    await s.conn.sendNotification('mathsense/hoverMathColor', { color: '#222222' });
    const again = svgs(value(await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: refAt })));
    assert.ok(again.length === 2 && again.every((x) => x.includes('#222222')));
    const formula = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 10, character: TEXT.split('\n')[10].indexOf('y^2') + 1 } });
    assert.equal(svgs(value(formula)).length, 1);
  });

  it('source (the default): the TeX in code spans and a latex block, exactly as written', async () => {
    const s = await start({});
    servers.push(s);
    await s.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text: TEXT } });
    const md = value(await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: refAt }));
    assert.ok(md.includes('`$\\{ x \\in \\R : x > 0 \\}$`'), md);
    assert.match(md, /```latex\n\\begin\{aligned\}\na &= b \\\\\n&= c\n\\end\{aligned\}\n```/);
    assert.doesNotMatch(md, /data:image/);
    assert.equal(await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 10, character: TEXT.split('\n')[10].indexOf('y^2') + 1 } }), null);
  });
});
