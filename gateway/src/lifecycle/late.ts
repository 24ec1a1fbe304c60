import { HearthError } from '../errors.ts';

/**
 * What a part is called in the 503 it answers while it starts: "Memory is starting", "Tools are
 * starting". `plural` picks the verb.
 */
export interface PartLabel {
  readonly name: string;
  readonly plural?: boolean;
}

/** Seconds a client is told to wait (`Retry-After`) before asking a part that is starting. */
export const STARTING_RETRY_AFTER_SECONDS = 2;

/** The 503 of a part that is still starting, with `Retry-After`. */
export function stillStarting(label: PartLabel | string): HearthError {
  const { name, plural } = typeof label === 'string' ? { name: label, plural: false } : label;
  return new HearthError('unavailable', `${name} ${plural ? 'are' : 'is'} starting`, {
    retryAfterSeconds: STARTING_RETRY_AFTER_SECONDS,
  });
}

/**
 * A part built during start-up (after the database opens, say) that routes reference from the
 * beginning: `get()` answers 503 "<label> is starting" (with `Retry-After`) until `set()`.
 */
export function late<T>(label: PartLabel | string) {
  let value: T | undefined;
  return {
    set: (next: T): void => {
      value = next;
    },
    get: (): T => {
      if (value === undefined) throw stillStarting(label);
      return value;
    },
    peek: (): T | undefined => value,
  };
}

export type Late<T> = ReturnType<typeof late<T>>;
