// Large documents the editor opens are built, and their views warmed, between turns of the event loop; the edits sent
// meanwhile are applied in order once the document is open, a close drops the build, and a
// small document is left to be opened at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SlicedOpens } from './slicedOpens.js';
import { SLICED_OPEN_CHARS } from '../model/slicedBuild.js';

function recorder() {
  const events: string[] = [];
  let opened!: () => void;
  const done = new Promise<void>((r) => { opened = r; });
  const opens = new SlicedOpens({
    // opened with the document built and its views warmed (asking for them again computes nothing)
    open: (uri, _lang, version, text, doc) => { events.push(`open ${uri} v${version} ${text.length} ${doc.blocks().length > 1 && doc.text === text && doc.labelMap().size === 1}`); opened(); },
    change: (uri, changes, version) => events.push(`change ${uri} v${version} ${changes.length}`),
    progress: async () => ({ report: (m) => events.push(`progress ${m.replace(/\d+%/, 'N%')}`), done: () => events.push('progress done') }),
  });
  return { events, opens, done };
}

const LARGE = ('\\begin{theorem}\\label{t}\n$x = y$\n\\end{theorem}\n\n'.repeat(Math.ceil(SLICED_OPEN_CHARS / 45) + 10));

test('a large document is built in slices, then opened, then its edits applied in order', async () => {
  const { events, opens, done } = recorder();
  let turns = 0;
  const ticker = setInterval(() => { turns++; }, 0);
  assert.equal(opens.open('file:///big.tex', 'latex', 1, LARGE), true);
  assert.equal(opens.building('file:///big.tex'), true);
  assert.equal(opens.change('file:///big.tex', [{ text: 'x' }], 2), true);
  assert.equal(opens.change('file:///big.tex', [], 3), true);
  assert.equal(opens.change('file:///other.tex', [{ text: 'x' }], 2), false, 'not being built: the caller applies it');
  await done;
  clearInterval(ticker);
  assert.ok(turns > 0, 'timers ran during the build');
  const main = events.filter((e) => !e.startsWith('progress'));
  assert.deepEqual(main, [`open file:///big.tex v1 ${LARGE.length} true`, 'change file:///big.tex v2 1', 'change file:///big.tex v3 0']);
  assert.equal(events.at(-1)?.startsWith('change'), true);
  assert.ok(events.includes('progress done'));
  assert.equal(opens.building('file:///big.tex'), false);
});

test('a close during the build drops it; a small document is opened at once by the caller', async () => {
  const { events, opens } = recorder();
  assert.equal(opens.open('file:///small.tex', 'latex', 1, 'x'), false);
  assert.equal(opens.open('file:///big.tex', 'latex', 1, LARGE), true);
  assert.equal(opens.close('file:///big.tex'), true);
  assert.equal(opens.close('file:///big.tex'), false);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(events.filter((e) => e.startsWith('open')), []);
  // opened again smaller while building: the build is dropped and the caller opens the new text
  assert.equal(opens.open('file:///big.tex', 'latex', 1, LARGE), true);
  assert.equal(opens.open('file:///big.tex', 'latex', 2, 'short'), false);
  opens.stop();
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(events.filter((e) => e.startsWith('open')), []);
});
