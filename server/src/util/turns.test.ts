// Background slices share the event loop's turns: one slice per turn for all jobs together,
// first come first served, and none while a message of the client's is on its way through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdFor, messageOut, nextTurn, turn } from './turns.js';

/** Counts turns of the event loop, as a request's stages (each an immediate of its own) see them. */
function turnCounter(): { turns: () => number; stop: () => void } {
  let n = 0;
  let on = true;
  const tick = () => { n++; if (on) setImmediate(tick); };
  setImmediate(tick);
  return { turns: () => n, stop: () => { on = false; } };
}

test('jobs take turns: one slice per turn of the loop for all of them, in the order they asked', async () => {
  const counter = turnCounter();
  const log: Array<[string, number]> = [];
  const job = (name: string, slices: number) => new Promise<void>((done) => {
    let left = slices;
    const slice = () => { log.push([name, counter.turns()]); if (--left > 0) nextTurn(slice); else done(); };
    nextTurn(slice);
  });
  await Promise.all([job('a', 4), job('b', 4), job('c', 2)]);
  counter.stop();
  assert.deepEqual(log.map(([n]) => n).join(''), 'abcabcabab');
  for (let i = 1; i < log.length; i++) assert.ok(log[i][1] > log[i - 1][1], `slice ${i} ran in a turn of its own`);
});

test('a message read holds the slices for the turns it needs, then they go on', async () => {
  const counter = turnCounter();
  await turn();
  const from = counter.turns();
  holdFor(4);
  await turn();
  counter.stop();
  assert.ok(counter.turns() - from >= 4, `waited ${counter.turns() - from} turns`);
});

test('slices wait while a message to the client is not written yet, then go on', async () => {
  const counter = turnCounter();
  const written = messageOut();
  let ran = false;
  nextTurn(() => { ran = true; });
  const from = counter.turns();
  while (counter.turns() - from < 5) await new Promise((r) => setImmediate(r));
  assert.equal(ran, false, 'held while the message waits to be written');
  written();
  await turn();
  counter.stop();
  assert.equal(ran, true);
});
