// Values computed once per loaded index from many entry reads (citation counts, title indexes).
import type { LoadedIndex } from './store.js';
import { drain } from '../util/turns.js';

/**
 * A value computed once per index from many entry reads, in slices (the builder yields between
 * them): read synchronously by a request (built there and then if need be), or prepared in the
 * background after a load, awaiting `pause` between slices (the server's waits until requests
 * pause, so they are never held up; by default a timer tick).
 */
export type Pause = () => Promise<void>;
export const tick: Pause = () => new Promise((resolve) => setTimeout(resolve, 1));

export function perIndex<T, A extends unknown[]>(build: (index: LoadedIndex, ...args: A) => Generator<void, T>) {
  const done = new WeakMap<LoadedIndex, T>();
  return {
    get(index: LoadedIndex, ...args: A): T {
      let v = done.get(index);
      if (v === undefined) done.set(index, (v = drain(build(index, ...args))));
      return v;
    },
    async prepare(pause: Pause, index: LoadedIndex, ...args: A): Promise<void> {
      const steps = build(index, ...args);
      for (let r = steps.next(); ; r = steps.next()) {
        if (done.has(index)) return; // a request built it meanwhile
        if (r.done) { done.set(index, r.value); return; }
        await pause();
      }
    },
  };
}

