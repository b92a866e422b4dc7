// Startup and shutdown over real stdio (the bundled server, `lsp --stdio`):
// * a document opened while the workspace scan (or the loading of its included files) is still
//   under way never shows references into files not read yet as undefined, and gets its real
//   label diagnostics as soon as the scan ends, for every version;
// * statements of a document opened before the index has loaded are prefetched once it has
//   (the first hover on them is already semantic);
// * `shutdown` + `exit` while the encoder is embedding a batch releases the onnxruntime session
//   in order and exits with 0 (it used to abort: "terminate called after throwing an instance
//   of 'Napi::Error'").
// The last two need the built index (build/index, `npm run setup`) and the encoder model.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DidChangeTextDocumentNotification, ExecuteCommandRequest, HoverRequest, type PublishDiagnosticsParams, type MarkupContent, type Position,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from './lspClient.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const serverBundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');
const indexDir = path.join(repoRoot, 'build', 'index');
const encoderConfig = path.join(repoRoot, 'models', 'mathsense-encoder', 'config.json');

/** Why the index tests cannot run here, or undefined. */
function indexMissing(): string | undefined {
  if (!fs.existsSync(path.join(indexDir, 'index.json'))) return 'build/index missing (npm run setup)';
  if (!fs.existsSync(encoderConfig)) return 'encoder model missing';
  try {
    const idx = JSON.parse(fs.readFileSync(path.join(indexDir, 'index.json'), 'utf8')) as { modelVersion?: string };
    const enc = JSON.parse(fs.readFileSync(encoderConfig, 'utf8')) as { version?: string };
    if (!idx.modelVersion || idx.modelVersion !== enc.version) return 'build/index was built with another encoder version';
  } catch (e) {
    return `unreadable index header: ${(e as Error).message}`;
  }
  return undefined;
}

async function waitFor<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, timeout = 30_000, every = 20): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() - started > timeout) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

function posOf(text: string, needle: string, delta = 0): Position {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  const before = text.slice(0, at + delta);
  return { line: before.split('\n').length - 1, character: at + delta - (before.lastIndexOf('\n') + 1) };
}

/**
 * A client whose answer to `workspace/configuration` waits until `releaseSettings()`: the
 * server pulls settings before it scans the workspace or loads the index, so what the test
 * does before releasing them happens, deterministically, before both.
 */
class Client extends LspClient {
  constructor(settings: unknown, env: NodeJS.ProcessEnv = process.env) {
    super({ bundle: serverBundle, env, settings: () => settings, holdSettings: true });
  }

  start(folder: string | undefined): Promise<unknown> {
    return this.initialize(folder, { window: { workDoneProgress: true }, workspace: { configuration: true }, textDocument: { publishDiagnostics: { versionSupport: true } } });
  }
}

const MAIN = String.raw`\documentclass{article}
\newtheorem{theorem}{Theorem}
\begin{document}
\input{sec1}
\input{sec2}
\end{document}
`;
const SEC1 = String.raw`\section{One}\label{sec:one}
\begin{theorem}\label{thm:main}
Every right triangle satisfies $a^2+b^2=c^2$.
\end{theorem}
`;
const SEC2 = String.raw`\section{Two}
By \ref{thm:main} and \ref{sec:one}; \ref{nope} is wrong.
`;

const undefinedRefs = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === 'undefined-ref').map((d) => String(d.message));

describe('startup: label diagnostics wait for the project to be loaded', { timeout: 120_000 }, () => {
  it('a chapter opened while the workspace scan runs never shows its references into unread files as undefined', { timeout: 60_000 }, async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-startup-')));
    fs.writeFileSync(path.join(dir, 'main.tex'), MAIN);
    fs.writeFileSync(path.join(dir, 'sec1.tex'), SEC1);
    fs.writeFileSync(path.join(dir, 'sec2.tex'), SEC2);
    const client = new Client({});
    try {
      await client.start(dir);
      // the scan has not started: it waits for the settings
      const uri = client.open(path.join(dir, 'sec2.tex'), SEC2);
      const first = await client.until('diagnostics for v1', () => client.forUri(uri).find((p) => p.version === 1));
      assert.deepEqual(undefinedRefs(first), [], 'references into files the scan has not read are not reported');
      // every version is still published while the scan runs
      const text2 = SEC2.replace('wrong.', 'wrong. More.');
      void client.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: text2 }] });
      const second = await client.until('diagnostics for v2', () => client.forUri(uri).find((p) => p.version === 2));
      assert.deepEqual(undefinedRefs(second), []);
      await new Promise((r) => setTimeout(r, 400)); // the re-validation 300 ms after a change
      client.releaseSettings();
      // the scan ends: the real undefined reference (and only it) is published
      await client.conn.sendRequest('mathsense/status');
      const last = await client.until('complete diagnostics', () => {
        const l = client.forUri(uri).at(-1);
        return l && undefinedRefs(l).length > 0 ? l : undefined;
      });
      assert.equal(last.version, 2);
      assert.deepEqual(undefinedRefs(last), ['Undefined reference: no \\label{nope} in this project']);
      for (const p of client.forUri(uri)) {
        assert.ok(!undefinedRefs(p).some((m) => /thm:main|sec:one/.test(m)), `false undefined reference published: ${JSON.stringify(p)}`);
      }
      assert.deepEqual((await client.stop()), { code: 0, signal: null });
    } finally {
      client.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without workspace folders, references into included files are reported only once those are read', { timeout: 60_000 }, async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-startup-')));
    const main = '\\documentclass{article}\n\\externaldocument[alg-]{algebra}\n\\begin{document}\n\\input{part}\nSee \\ref{sec:part}, \\ref{alg-lemma-one} and \\ref{missing}.\n\\end{document}\n';
    fs.writeFileSync(path.join(dir, 'main.tex'), main);
    fs.writeFileSync(path.join(dir, 'part.tex'), '\\section{Part}\\label{sec:part}\n');
    fs.writeFileSync(path.join(dir, 'algebra.tex'), '\\documentclass{article}\n\\begin{document}\n\\begin{lemma}\\label{lemma-one}x\\end{lemma}\n\\end{document}\n');
    const client = new Client({});
    client.releaseSettings();
    try {
      await client.start(undefined);
      const uri = client.open(path.join(dir, 'main.tex'), main);
      const done = await client.until('diagnostics after the includes are read', () => {
        const l = client.forUri(uri).at(-1);
        return l && undefinedRefs(l).length > 0 ? l : undefined;
      });
      assert.deepEqual(undefinedRefs(done), ['Undefined reference: no \\label{missing} in this project']);
      for (const p of client.forUri(uri)) {
        assert.ok(!undefinedRefs(p).some((m) => /sec:part|alg-lemma-one/.test(m)), `false undefined reference published: ${JSON.stringify(p)}`);
      }
      assert.deepEqual((await client.stop()), { code: 0, signal: null });
    } finally {
      client.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('startup and shutdown with the index and the encoder', { skip: indexMissing(), timeout: 300_000 }, () => {
  /** Statements nobody has embedded before (the run's nonce), so the fresh embedding cache misses. */
  const statementsDoc = (n: number, words: number, nonce: string) => {
    const vocab = 'group ring field module ideal prime finite abelian morphism scheme sheaf open closed compact dense continuous measurable bounded linear'.split(' ');
    let text = '\\documentclass{article}\n\\newtheorem{theorem}{Theorem}\n\\begin{document}\n';
    for (let i = 0; i < n; i++) {
      let body = `Let $G_{${i}}$ be a finite group of order $p^{${i}}$ (${nonce})`;
      for (let k = 0; k < words; k++) body += ` ${vocab[(i * 7 + k * 13) % vocab.length]}${k % 9 === 0 ? ` $a_{${k}} + b^{${i}}$` : ''}`;
      text += `\\begin{theorem}\\label{t${i}}\n${body}. Then $G_{${i}}$ is nilpotent.\n\\end{theorem}\n\n`;
    }
    return `${text}\\end{document}\n`;
  };

  type Status = { index: { state: string }; embeddings: { state: string; cache?: { entries: number; misses: number } } };

  it('statements of a document opened before the index has loaded are prefetched once it has', { timeout: 180_000 }, async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-prefetch-')));
    const small = statementsDoc(2, 12, `${process.pid}-${Date.now()}`);
    fs.mkdirSync(path.join(dir, 'proj'));
    fs.writeFileSync(path.join(dir, 'proj', 'small.tex'), small);
    // a fresh embedding cache: the vectors can only come from the encoder, asked by the prefetch
    const client = new Client({ index: { path: indexDir } }, { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') });
    const status = () => client.conn.sendRequest('mathsense/status') as Promise<Status>;
    try {
      await client.start(path.join(dir, 'proj'));
      // opened before the settings (and so the index) have arrived: the prefetch 500 ms later
      // finds no index
      const uri = client.open(path.join(dir, 'proj', 'small.tex'), small);
      await new Promise((r) => setTimeout(r, 900));
      client.releaseSettings();
      // no hover yet: only the prefetch can ask for these statements' vectors
      await waitFor('the prefetched vectors', async () => ((await status()).embeddings.cache?.entries ?? 0) >= 2, 120_000, 250);
      // the statements are word salad: the index's candidates are ranked, then withheld as
      // unlikely to be relevant, so the ranking is read through the command, which says both
      const r = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.candidateProofs', arguments: [{ uri, position: posOf(small, '\\begin{theorem}', 3) }] }) as { heading: string; items: unknown[]; withheld?: number } | null;
      assert.ok(r && r.items.length + (r.withheld ?? 0) > 0, JSON.stringify(r));
      assert.doesNotMatch(r.heading, /lexical match/, 'the first request on a prefetched statement is semantic');
      assert.deepEqual(await client.stop(), { code: 0, signal: null });
    } finally {
      client.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shutdown + exit while a batch is being embedded releases the encoder session in order and exits 0', { timeout: 180_000 }, async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-shutdown-')));
    const big = statementsDoc(200, 100, `${process.pid}-${Date.now()}`);
    fs.mkdirSync(path.join(dir, 'proj'));
    fs.writeFileSync(path.join(dir, 'proj', 'big.tex'), big);
    const client = new Client({ index: { path: indexDir } }, { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') });
    client.releaseSettings();
    const status = () => client.conn.sendRequest('mathsense/status') as Promise<Status>;
    try {
      await client.start(path.join(dir, 'proj'));
      await status();
      client.open(path.join(dir, 'proj', 'big.tex'), big);
      // asked for (a cache miss) and not answered yet: the worker is inside onnxruntime
      await waitFor('a batch being embedded', async () => {
        const c = (await status()).embeddings.cache;
        return !!c && c.misses > c.entries;
      }, 120_000, 200);
      // the batch is posted on the next turn of the server's loop; then it is tokenized and run
      await new Promise((r) => setTimeout(r, 30));
      const ended = await client.stop();
      assert.deepEqual(ended, { code: 0, signal: null }, `stderr: ${client.stderr.slice(-2000)}`);
      assert.doesNotMatch(client.stderr, /terminate called|Napi::Error/);
      const logs = client.logs.map((l) => l.message);
      assert.ok(logs.some((l) => /shutdown: encoder sessions released/.test(l)), logs.join('\n'));
      assert.ok(!logs.some((l) => /did not close/.test(l)), logs.join('\n'));
    } finally {
      client.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
