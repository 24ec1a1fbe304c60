import type { ShortTermStore } from '../../ports.ts';

/**
 * Wraps a working store so a test can make it fail like an unreachable Redis: while `down`,
 * every call rejects and `ping()` answers false. It reports the kind it is told to.
 */
export function breakableStore(
  inner: ShortTermStore,
  kind: ShortTermStore['kind'] = 'redis',
): { store: ShortTermStore; setDown: (down: boolean) => void; calls: string[] } {
  let down = false;
  const calls: string[] = [];
  const guard = <T>(name: string, work: () => Promise<T>): Promise<T> => {
    calls.push(name);
    return down ? Promise.reject(new Error('connection refused (simulated)')) : work();
  };
  const store: ShortTermStore = {
    kind,
    add: (item, ttl) => guard('add', () => inner.add(item, ttl)),
    recent: (sessionId, limit) => guard('recent', () => inner.recent(sessionId, limit)),
    removeMatching: (sessionId, keyword) =>
      guard('removeMatching', () => inner.removeMatching(sessionId, keyword)),
    removeIds: (sessionId, ids) => guard('removeIds', () => inner.removeIds(sessionId, ids)),
    clear: (sessionId) => guard('clear', () => inner.clear(sessionId)),
    sessions: () => guard('sessions', () => inner.sessions()),
    ping: () => {
      calls.push('ping');
      return down ? Promise.resolve(false) : inner.ping();
    },
    close: () => inner.close(),
  };
  return { store, setDown: (value) => (down = value), calls };
}
