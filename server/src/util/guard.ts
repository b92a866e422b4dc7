// One failing part of an answer must not take the whole answer (or the server) down: a guard
// runs it, logs the failure with what it was for, and gives the fallback instead. Errors meant
// for the client (an invalid rename, bad command arguments) pass through.

export type Guard = <T>(what: string, fallback: T, f: () => T) => T;
export type GuardAsync = <T>(what: string, fallback: T, f: () => Promise<T>) => Promise<T>;

export interface Guards { guard: Guard; guardAsync: GuardAsync }

/** Guards that log to `error` and rethrow what `passThrough` says belongs to the caller. */
export function guards(error: (msg: string) => void, passThrough: (e: unknown) => boolean = () => false): Guards {
  const report = (what: string, e: unknown): void => error(`${what} failed: ${(e as Error)?.stack ?? e}`);
  return {
    guard: (what, fallback, f) => {
      try {
        return f();
      } catch (e) {
        if (passThrough(e)) throw e;
        report(what, e);
        return fallback;
      }
    },
    guardAsync: async (what, fallback, f) => {
      try {
        return await f();
      } catch (e) {
        if (passThrough(e)) throw e;
        report(what, e);
        return fallback;
      }
    },
  };
}
