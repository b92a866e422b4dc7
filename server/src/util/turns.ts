// Background work on the server thread runs in slices, one slice per turn of the event loop for
// all of it together. Each slice-by-slice job that queued its own setImmediate got one slice per
// turn of its own, so with several running (a large file's build, its derivation reading, the
// index's idle work) a request read in that turn waited behind all of their slices. Here the
// jobs wait in one queue, first come first served, and the connection's dispatch of a request
// (itself a setImmediate queued when the request was read) waits behind one slice at most.
//
// The connection reads, dispatches and answers a message over several turns (each stage an
// immediate of its own), so a message would still wait for a slice at each stage. The protocol
// layer therefore says when a message was read or dispatched (`holdFor`), and the slices wait
// that many turns: turns with nothing else to run pass at once; and while messages to the
// client wait to be written (`messageOut`).

/** Main-thread time one background slice may take. */
export const SLICE_MS = 8;

const waiting: Array<() => void> = [];
let scheduled = false;
let held = 0;
/** Messages to the client queued or being written, and since when there have been any. */
let outgoing = 0;
let outgoingSince = 0;
/** Longest wait for outgoing messages: a client that stops reading must not stop background work. */
const MAX_OUTGOING_HOLD_MS = 250;

function runOne(): void {
  scheduled = false;
  if (held > 0 || (outgoing > 0 && performance.now() - outgoingSince < MAX_OUTGOING_HOLD_MS)) {
    if (held > 0) held--;
    schedule();
    return;
  }
  const run = waiting.shift();
  // queued before `run` so that what it queues goes after the jobs already waiting; an
  // immediate queued while immediates run waits for the next turn of the loop
  if (waiting.length) schedule();
  run?.();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(runOne);
}

/** A message of the client's was read or dispatched: no background slice runs in the next `turns` turns of the event loop. */
export function holdFor(turns: number): void {
  held = Math.max(held, turns);
}

/**
 * A message to the client was queued: no background slice runs until it is written (call the
 * function returned). A writer that writes one message per turn of the loop (stdio) would
 * otherwise let a slice run before each message, and an answer queued behind a few
 * notifications would wait that many slices.
 */
export function messageOut(): () => void {
  if (outgoing++ === 0) outgoingSince = performance.now();
  let done = false;
  return () => { if (!done) { done = true; outgoing--; } };
}

/** Runs `run` as one background slice in a later turn of the event loop, after the slices queued before it. */
export function nextTurn(run: () => void): void {
  waiting.push(run);
  schedule();
}

/** Resolves in a later turn of the event loop, as `nextTurn`: `await turn()` between slices. */
export function turn(): Promise<void> {
  return new Promise((resolve) => nextTurn(resolve));
}

/** Runs `steps` to its end at once and gives its value: a generator's slices, in one go. */
export function drain<T>(steps: Iterator<void, T>): T {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

export interface TurnsJob<T> {
  /** Runs one slice, guarded by the caller: undefined when it failed, which ends the job (then `failed`). */
  guard(slice: () => IteratorResult<void, T>): IteratorResult<void, T> | undefined;
  done(value: T): void;
  failed?(): void;
  /** Checked before each slice: true ends the job (what it was for is gone). */
  stop?(): boolean;
}

/** Goes on with `steps` until it ends or SLICE_MS have passed: one background slice. */
function oneSlice<T>(steps: Iterator<void, T>): IteratorResult<void, T> {
  const deadline = performance.now() + SLICE_MS;
  let step = steps.next();
  while (!step.done && performance.now() < deadline) step = steps.next();
  return step;
}

/** Runs `steps` to its end, a slice of at most SLICE_MS per turn (`nextTurn`), then hands its value to `job.done`. */
export function runInTurns<T>(steps: Iterator<void, T>, job: TurnsJob<T>): void {
  const slice = (): void => {
    if (job.stop?.()) return;
    const r = job.guard(() => oneSlice(steps));
    if (!r) job.failed?.();
    else if (r.done) job.done(r.value);
    else nextTurn(slice);
  };
  nextTurn(slice);
}

/** `runInTurns` for an async caller: the value of `steps`, or undefined when `stop` (asked between slices) ends it first. */
export async function drainInTurns<T>(steps: Iterator<void, T>, stop?: () => boolean): Promise<T | undefined> {
  for (;;) {
    const r = oneSlice(steps);
    if (r.done) return r.value;
    await turn();
    if (stop?.()) return undefined;
  }
}
