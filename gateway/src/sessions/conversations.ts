import { HearthError } from '../errors.ts';
import type {
  ConversationStore,
  PresenceListener,
  SessionConnection,
  SessionState,
} from './ports.ts';

export type { ConversationStore, SessionConnection, SessionState };

/** A session's sockets; reports the empty ↔ non-empty transitions. */
class ConnectionSet extends Set<SessionConnection> {
  readonly #changed: (present: boolean) => void;

  constructor(changed: (present: boolean) => void) {
    super();
    this.#changed = changed;
  }

  override add(connection: SessionConnection): this {
    const before = this.size;
    super.add(connection);
    if (before === 0 && this.size === 1) this.#changed(true);
    return this;
  }

  override delete(connection: SessionConnection): boolean {
    const removed = super.delete(connection);
    if (removed && this.size === 0) this.#changed(false);
    return removed;
  }
}

/** Live sessions kept in process memory before the least recently active one is evicted. */
export const DEFAULT_MAX_SESSIONS = 10_000;

/**
 * Turns of one session running or waiting their turn at once, whatever they came by (REST,
 * SSE, sockets, channels). Each waiting one holds its request open; one more is refused (409).
 */
export const MAX_QUEUED_TURNS = 32;

/**
 * Live sessions: their in-memory conversation, counters and sockets. A session idle for
 * `idleTimeoutMs` (default 30 minutes) is evicted from process memory — its memories stay in
 * the memory tiers, and its id is the same when it comes back. At most `maxSessions` are live:
 * a new one beyond that evicts the least recently active session without a socket (or, when
 * every one has a socket, the least recently active one, whose sockets are closed with 1013).
 */
export function createConversationStore(options: {
  idleTimeoutMs: number;
  now: () => number;
  maxSessions?: number;
  /** Default `MAX_QUEUED_TURNS`. */
  maxQueuedTurns?: number;
  /** Told of each turn refused because its session's queue was full. */
  onQueueFull?: () => void;
}): ConversationStore {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxQueuedTurns = options.maxQueuedTurns ?? MAX_QUEUED_TURNS;
  /** Turns running or waiting per session id (kept apart from the state, which may be evicted). */
  const queued = new Map<string, number>();
  /** In order of last use: the first entry is the least recently active session. */
  const sessions = new Map<string, SessionState>();
  const presenceListeners = new Set<PresenceListener>();

  function sweep(): number {
    const cutoff = options.now() - options.idleTimeoutMs;
    let evicted = 0;
    for (const [id, state] of sessions) {
      if (state.lastActive < cutoff && state.connections.size === 0) {
        sessions.delete(id);
        evicted += 1;
      }
    }
    return evicted;
  }
  const timer = setInterval(sweep, Math.min(60_000, options.idleTimeoutMs)).unref();

  function evictLeastRecent(): void {
    let victim: SessionState | undefined;
    for (const state of sessions.values()) {
      if (state.connections.size === 0) {
        victim = state;
        break;
      }
    }
    victim ??= sessions.values().next().value;
    if (!victim) return;
    for (const connection of victim.connections) connection.close(1013, 'Too many live sessions');
    sessions.delete(victim.id);
  }

  return {
    /** The session, created when new; marks it the most recently active. */
    get(id: string): SessionState {
      let state = sessions.get(id);
      if (state) {
        sessions.delete(id);
        sessions.set(id, state);
      } else {
        if (sessions.size >= maxSessions) evictLeastRecent();
        state = {
          id,
          conversation: { history: [], summary: null },
          messageCount: 0,
          lastActive: options.now(),
          connections: new ConnectionSet((present) => {
            for (const listener of presenceListeners) listener(id, present);
          }),
          queue: Promise.resolve(),
        };
        sessions.set(id, state);
      }
      return state;
    },
    peek(id: string): SessionState | undefined {
      return sessions.get(id);
    },
    /** Runs `work` after the session's earlier turns, so one session's turns never interleave. */
    serialise<T>(id: string, work: () => Promise<T>): Promise<T> {
      const waiting = queued.get(id) ?? 0;
      if (waiting >= maxQueuedTurns) {
        options.onQueueFull?.();
        return Promise.reject(
          new HearthError(
            'conflict',
            `Session ${id} already has ${maxQueuedTurns} turns running or waiting; send this one once they are done`,
          ),
        );
      }
      queued.set(id, waiting + 1);
      const state = this.get(id);
      const run = state.queue.then(work, work).finally(() => {
        const left = (queued.get(id) ?? 1) - 1;
        if (left <= 0) queued.delete(id);
        else queued.set(id, left);
      });
      state.queue = run.catch(() => undefined);
      return run;
    },
    list(): SessionState[] {
      return [...sessions.values()];
    },
    /** Removes a session from process memory and disconnects its sockets. */
    delete(id: string): boolean {
      const state = sessions.get(id);
      if (!state) return false;
      for (const connection of state.connections) connection.close(4000, 'Session cleared');
      sessions.delete(id);
      return true;
    },
    size(): number {
      return sessions.size;
    },
    /** Whether the session has a live socket in this process. */
    hasConnections(id: string): boolean {
      return (sessions.get(id)?.connections.size ?? 0) > 0;
    },
    /** Follows which sessions have live sockets here; returns the unsubscribe function. */
    watchPresence(listener: PresenceListener): () => void {
      presenceListeners.add(listener);
      return () => presenceListeners.delete(listener);
    },
    sweep,
    close(): void {
      clearInterval(timer);
    },
  };
}
