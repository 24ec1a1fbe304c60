import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who an outbound request is made for, carried through every asynchronous step of the work
 * that makes it (like the session context): the gateway makes a skill's requests itself inside
 * `run('skill:<name>', …)`, and the audit records what it observes with that source.
 */
export interface EgressSource {
  run<T>(source: string, work: () => T): T;
  /** The source of the calling code, or undefined (the gateway itself). */
  current(): string | undefined;
}

export function createEgressSource(): EgressSource {
  const storage = new AsyncLocalStorage<string>();
  return {
    run: (source, work) => storage.run(source, work),
    current: () => storage.getStore(),
  };
}
