import type { LocalSessionSockets, SessionEvents } from './ports.ts';

/** One gateway: frames go to this process's sockets only. */
export function createLocalSessionEvents(sockets: LocalSessionSockets): SessionEvents {
  return {
    kind: 'in-process',
    send: (sessionId, frame) => Promise.resolve(sockets.deliver(sessionId, frame) > 0),
    clear: (sessionId) => Promise.resolve(sockets.clear(sessionId)),
    close: () => Promise.resolve(),
  };
}
