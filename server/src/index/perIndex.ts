// Values computed once per loaded index from many entry reads (citation counts, title indexes).
import type { LoadedIndex } from './store.js';
import { drain } from '../util/turns.js';

/**
 * A value computed once per index from many entry reads, in slices (the builder yields between
 * them): read synchronously by a request (built there and then if need be, or the background
 * preparation finished from where it is), or prepared in the background after a load, awaiting
 * `pause` between slices (by default a timer tick).
 */
export type Pause = () => Promise<void>;
export const tick: Pause = () => new Promise((resolve) => setTimeout(resolve, 1));

export function perIndex<T, A extends unknown[]>(build: (index: LoadedIndex, ...args: A) => Generator<void, T>) {
  const done = new WeakMap<LoadedIndex, T>();
  /** A background preparation under way: a request finishes it rather than starting over. */
  const started = new WeakMap<LoadedIndex, Generator<void, T>>();
  return {
    get(index: LoadedIndex, ...args: A): T {
      let v = done.get(index);
      if (v === undefined) {
        done.set(index, (v = drain(started.get(index) ?? build(index, ...args))));
        started.delete(index);
      }
      return v;
    },
    async prepare(pause: Pause, index: LoadedIndex, ...args: A): Promise<void> {
      if (done.has(index) || started.has(index)) return;
      const steps = build(index, ...args);
      started.set(index, steps);
      for (;;) {
        if (done.has(index)) return; // a request finished it meanwhile
        const r = steps.next();
        if (r.done) { done.set(index, r.value); started.delete(index); return; }
        await pause();
      }
    },
  };
}
