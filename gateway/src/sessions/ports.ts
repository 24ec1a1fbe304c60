import type { LocalSessionSockets } from '../scale-out/ports.ts';
import type { Area } from '../lifecycle/area.ts';
import type { Conversation } from '../memory/ports.ts';

/** Something bound to a session that can be told to go away (a WebSocket). */
export interface SessionConnection {
  close(code: number, reason: string): void;
  /** Sends a text frame (approval notices). */
  send(data: string): void;
}

export interface SessionState {
  readonly id: string;
  readonly conversation: Conversation;
  messageCount: number;
  /** Epoch milliseconds of the last turn. */
  lastActive: number;
  readonly connections: Set<SessionConnection>;
  /** Tail of this session's turn queue: turns of one session run one at a time. */
  queue: Promise<unknown>;
}

/** Told when a session gets its first live socket here (true) and loses its last (false). */
export type PresenceListener = (sessionId: string, present: boolean) => void;

/**
 * Live sessions: their in-memory conversation, counters and sockets (sessions/conversations.ts).
 */
export interface ConversationStore {
  /** The session, created when new; marks it the most recently active. */
  get(id: string): SessionState;
  peek(id: string): SessionState | undefined;
  /** Runs `work` after the session's earlier turns, so one session's turns never interleave. */
  serialise<T>(id: string, work: () => Promise<T>): Promise<T>;
  list(): SessionState[];
  /** Removes a session from process memory and disconnects its sockets. */
  delete(id: string): boolean;
  size(): number;
  /** Whether the session has a live socket in this process. */
  hasConnections(id: string): boolean;
  /** Follows which sessions have live sockets here; returns the unsubscribe function. */
  watchPresence(listener: PresenceListener): () => void;
  /** Evicts the sessions idle past the timeout; returns how many. */
  sweep(): number;
  close(): void;
}

/** The sessions area's options. */
export interface SessionsOptions {
  /** Live sessions kept in process memory (default 10,000; tests lower it). */
  maxLiveSessions?: number;
}

/** The sessions area as other areas see it. */
export interface SessionsArea extends Area {
  /** The live sessions of this process: conversation, counters, sockets. */
  readonly conversations: ConversationStore;
  /** Their sockets, as the session events deliver to them. */
  readonly localSockets: LocalSessionSockets;
}
