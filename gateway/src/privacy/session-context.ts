import { AsyncLocalStorage } from 'node:async_hooks';

export interface SessionScope {
  sessionId: string;
}

/**
 * Carries the session id of a chat turn through every asynchronous step it causes, so an
 * outbound request made deep inside a provider SDK can still be attributed to its session.
 */
export interface SessionContext {
  /** Runs `fn` (and everything it starts) as part of the session `sessionId`. */
  run<T>(sessionId: string, fn: () => T): T;
  /** The session of the calling code, or undefined outside any `run`. */
  current(): SessionScope | undefined;
}

export function createSessionContext(): SessionContext {
  const storage = new AsyncLocalStorage<SessionScope>();
  return {
    run: (sessionId, fn) => storage.run({ sessionId }, fn),
    current: () => storage.getStore(),
  };
}
