// The server over real stdio under seeded abuse: real files of the projects in
// ../shared/data/latex-wild, each opened and mutated through incremental edits (10,000 mutations in
// all: structure snippets, garbage, deletions, moves, truncations, CRLF runs), with requests of
// every kind at random places in between. Properties:
//   (a) the server never exits, and every request is answered within REQUEST_LIMIT_MS;
//   (b) each version's diagnostics arrive; after the last edit, the label, reference and
//       structure diagnostics equal those of the final text opened afresh.
// Reproducible: MATHSENSE_FUZZ_SEED and MATHSENSE_PROTOCOL_FUZZ_MUTATIONS override the seed and
// the number of mutations; MATHSENSE_FUZZ_CORPUS names another folder of projects (one folder
// each) to mutate. mathcomp-book and tcs-markdown are left out: their licences allow no changed
// copies.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest, CodeLensRequest, CompletionRequest, DefinitionRequest, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification, DocumentHighlightRequest, DocumentLinkRequest, DocumentSymbolRequest, FoldingRangeRequest, HoverRequest,
  InlayHintRequest, PrepareRenameRequest, ReferencesRequest, type Diagnostic, type ProtocolConnection, type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { withServer } from '../testing/stdioServer.js';
import { applyEdit, mutation, Rng } from '../testing/latexMutations.js';
import { sharedData } from '../testing/paths.js';

const WILD = process.env.MATHSENSE_FUZZ_CORPUS ?? path.join(sharedData, 'latex-wild');
const NOT_CHANGED = new Set(['mathcomp-book', 'tcs-markdown']);
const SEED = Number(process.env.MATHSENSE_FUZZ_SEED ?? 0x5eed1e55) >>> 0;
const MUTATIONS = Number(process.env.MATHSENSE_PROTOCOL_FUZZ_MUTATIONS ?? 10_000);
const FILES = 40;
const REQUEST_LIMIT_MS = 1000;
/** A request not answered in this long is a hang: the test stops there with what it was. */
const HANG_MS = 20_000;
/** Files larger than this are cut to a window of this size (mutations of a window are as good, and faster). */
const WINDOW = 60_000;

function corpus(): Array<{ name: string; text: string }> {
  if (!fs.existsSync(WILD)) return [];
  const files: string[] = [];
  for (const project of fs.readdirSync(WILD).sort()) {
    if (NOT_CHANGED.has(project)) continue;
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p); else if (e.name.endsWith('.tex') && fs.statSync(p).size > 2000) files.push(p);
      }
    };
    const dir = path.join(WILD, project);
    if (fs.statSync(dir).isDirectory()) walk(dir);
  }
  // a spread over every project, chosen by the seed
  const rng = new Rng(SEED);
  const picked = new Set<string>();
  while (picked.size < Math.min(FILES, files.length)) picked.add(rng.pick(files));
  return [...picked].sort().map((f) => {
    const text = fs.readFileSync(f, 'utf8');
    const from = text.length > WINDOW ? rng.int(0, text.length - WINDOW) : 0;
    return { name: path.relative(WILD, f), text: text.slice(from, from + WINDOW) };
  });
}

const FILES_READ = corpus();

type Ask = (conn: ProtocolConnection, uri: string, doc: TextDocument, rng: Rng) => Promise<unknown>;

const at = (doc: TextDocument, rng: Rng) => doc.positionAt(rng.int(0, doc.getText().length));

const ASKS: Array<[string, Ask]> = [
  ['hover', (c, uri, d, r) => c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: at(d, r) })],
  ['completion', (c, uri, d, r) => c.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: at(d, r) })],
  ['definition', (c, uri, d, r) => c.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: at(d, r) })],
  ['references', (c, uri, d, r) => c.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position: at(d, r), context: { includeDeclaration: true } })],
  ['highlight', (c, uri, d, r) => c.sendRequest(DocumentHighlightRequest.type, { textDocument: { uri }, position: at(d, r) })],
  ['prepareRename', (c, uri, d, r) => c.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position: at(d, r) })],
  ['codeAction', (c, uri, d, r) => { const a = at(d, r); return c.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: a, end: a }, context: { diagnostics: [] } }); }],
  ['symbols', (c, uri) => c.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })],
  ['folding', (c, uri) => c.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } })],
  ['links', (c, uri) => c.sendRequest(DocumentLinkRequest.type, { textDocument: { uri } })],
  ['lenses', (c, uri) => c.sendRequest(CodeLensRequest.type, { textDocument: { uri } })],
  ['inlayHints', (c, uri, d) => c.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: d.positionAt(d.getText().length) } })],
];

/** What the gate published, without derivation steps (checked in the background, they may come later). */
const structural = (ds: readonly Diagnostic[]) => ds.filter((d) => !String(d.code).startsWith('derivation'))
  .map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code} ${d.message}`).sort();

async function waitFor<T>(get: () => T | undefined, what: string, ms = HANG_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('the server under 10,000 mutations of real files with requests between them', { skip: FILES_READ.length === 0 && `no corpus at ${WILD}`, timeout: 1_800_000 }, async () => {
  const rng = new Rng(SEED ^ 0x9e3779b9);
  const perFile = Math.ceil(MUTATIONS / FILES_READ.length);
  const slowest: Array<{ ms: number; what: string }> = [];
  let mutations = 0;
  let requests = 0;
  await withServer({}, {}, async ({ conn, dir, published }) => {
    const latest = (uri: string, version: number): PublishDiagnosticsParams | undefined => {
      for (let i = published.length - 1; i >= 0; i--) if (published[i].uri === uri && published[i].version === version) return published[i];
      return undefined;
    };
    for (const [k, file] of FILES_READ.entries()) {
      const uri = pathToFileURL(path.join(dir, `f${k}.tex`)).href;
      let doc = TextDocument.create(uri, 'latex', 1, file.text);
      await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text: file.text } });
      for (let m = 0; m < perFile && mutations < MUTATIONS; m++, mutations++) {
        const { kind, edits } = mutation(rng, doc.getText());
        // all edits in one notification, or one notification per edit
        const batches = rng.chance(0.5) ? [edits] : edits.map((e) => [e]);
        for (const batch of batches) {
          const changes = batch.map((e) => {
            const change = { range: { start: doc.positionAt(e.start), end: doc.positionAt(e.end) }, text: e.text };
            doc = TextDocument.create(uri, 'latex', doc.version, applyEdit(doc.getText(), e));
            return change;
          });
          doc = TextDocument.create(uri, 'latex', doc.version + 1, doc.getText());
          await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: doc.version }, contentChanges: changes });
        }
        if (rng.chance(0.3)) {
          const [name, ask] = rng.pick(ASKS);
          const t0 = performance.now();
          const what = `${name} on ${file.name} after mutation ${m} (${kind}, seed ${SEED})`;
          await Promise.race([ask(conn, uri, doc, rng), new Promise((_, no) => setTimeout(() => no(new Error(`${what}: no answer within ${HANG_MS} ms`)), HANG_MS))]);
          const ms = performance.now() - t0;
          requests++;
          if (ms > REQUEST_LIMIT_MS) slowest.push({ ms: Math.round(ms), what });
        }
        // now and then, every version's diagnostics so far (the server keeps up)
        if (m % 50 === 49) await waitFor(() => latest(uri, doc.version), `diagnostics for ${file.name} version ${doc.version}`);
      }
      const edited = structural((await waitFor(() => latest(uri, doc.version), `final diagnostics for ${file.name}`)).diagnostics);
      // the final text opened afresh: the same label, reference and structure diagnostics
      await conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: doc.version + 1, text: doc.getText() } });
      const fresh = structural((await waitFor(() => latest(uri, doc.version + 1), `diagnostics of ${file.name} opened afresh`)).diagnostics);
      assert.deepEqual(edited, fresh, `${file.name}: diagnostics after incremental edits differ from the final text opened afresh (seed ${SEED})`);
      await conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    }
  });
  assert.ok(mutations >= Math.min(MUTATIONS, 10_000), `${mutations} mutations ran`);
  assert.ok(requests > mutations / 5, `${requests} requests`);
  assert.deepEqual(slowest, [], `requests answered in over ${REQUEST_LIMIT_MS} ms`);
});
