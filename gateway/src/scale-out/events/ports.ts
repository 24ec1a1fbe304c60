/** The live sockets of this process, by session (the chat WebSockets bound to it). */
export interface LocalSessionSockets {
  /** Sends a text frame to the session's sockets here; returns how many got it. */
  deliver(sessionId: string, frame: string): number;
  has(sessionId: string): boolean;
  /** Sessions with at least one socket here now. */
  sessions(): string[];
  /** Told when a session gets its first socket here and loses its last; returns unwatch. */
  watch(listener: (sessionId: string, present: boolean) => void): () => void;
  /**
   * Removes the session from this process's memory and closes its sockets here (code 4000,
   * `Session cleared`); true when it was in memory here.
   */
  clear(sessionId: string): boolean;
}

/**
 * Frames for a session's WebSocket clients wherever they are connected (DESIGN "Scale-out":
 * event fan-out via pub/sub). One gateway: the local sockets. Several sharing `[memory]
 * cache_url`: each gateway delivers to its own sockets of the session.
 */
export interface SessionEvents {
  /** Which adapter serves right now, for /status `backends.events`. */
  readonly kind: string;
  /** Sends a text frame to the session's sockets on every gateway; true when any got it. */
  send(sessionId: string, frame: string): Promise<boolean>;
  /**
   * Clears the session on every gateway: each removes it from its memory and closes its sockets.
   * True when it was in memory on this gateway (peers do not answer).
   */
  clear(sessionId: string): Promise<boolean>;
  close(): Promise<void>;
}
