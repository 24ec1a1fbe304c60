import { unavailable } from '../errors.ts';

/**
 * A part built during start-up (after the database opens, say) that routes reference from the
 * beginning: `get()` answers 503 "… is starting" until `set()`.
 */
export function late<T>(what: string) {
  let value: T | undefined;
  return {
    set: (next: T): void => {
      value = next;
    },
    get: (): T => {
      if (value === undefined) throw unavailable(`${what} is starting`);
      return value;
    },
    peek: (): T | undefined => value,
  };
}

export type Late<T> = ReturnType<typeof late<T>>;
