// A workspace the user has not trusted reads no file outside its folders, over real stdio: an
// \input of ../outside/… is not followed (the include says why, at information level, and the
// status lists the file), while the same project trusted reads it and its label resolves.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { STATUS_REQUEST, type ServerStatus } from '../ext/protocol.js';
import { withServer } from '../testing/stdioServer.js';

const MAIN = '\\documentclass{article}\n\\begin{document}\n\\input{../outside/secret}\nSee \\ref{sec:secret}.\n\\end{document}\n';
const files = { 'project/main.tex': MAIN, 'outside/secret.tex': '\\section{Secret}\\label{sec:secret}\n' };

for (const trusted of [false, true]) {
  test(`${trusted ? 'a trusted' : 'an untrusted'} workspace ${trusted ? 'reads' : 'does not read'} an include outside its folders`, async () => {
    await withServer(files, {}, async ({ conn, dir, published }) => {
      const uri = pathToFileURL(path.join(dir, 'project', 'main.tex')).href;
      await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text: MAIN } });
      const status = await conn.sendRequest<ServerStatus>(STATUS_REQUEST);
      const deadline = Date.now() + 20_000;
      const last = () => [...published].reverse().find((p) => p.uri === uri);
      const settled = () => (trusted ? last()?.diagnostics.length === 0 : (last()?.diagnostics.length ?? 0) > 0);
      while (!settled() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const secret = path.join(dir, 'outside', 'secret.tex');
      if (trusted) {
        assert.deepEqual(last()?.diagnostics, [], 'the include is read and the reference resolves');
        assert.equal(status.skippedOutside, undefined);
      } else {
        const msgs = (last()?.diagnostics ?? []).map((d) => `${d.severity} ${d.message}`);
        assert.deepEqual(msgs, [`3 Not read: ${secret} is outside the workspace folders, and this workspace is not trusted; its labels and contents are unknown, so undefined references are not reported in this project`], 'the include says why it is not followed; the reference stays silent');
        assert.deepEqual((await conn.sendRequest<ServerStatus>(STATUS_REQUEST)).skippedOutside, [secret]);
        assert.ok(fs.existsSync(secret));
      }
    }, undefined, (dir) => ({
      workspaceFolders: [{ uri: pathToFileURL(path.join(dir, 'project')).href, name: 'project' }],
      initializationOptions: trusted ? {} : { trusted: false },
    }));
  });
}
