/**
 * The long-term SQL store as the rest of Hearth sees it (ports.ts, the db area's public face,
 * re-exports these types). Two adapters implement it:
 * `sqlite/` (better-sqlite3, the default, a file in the state directory) and `postgres/`
 * (node-postgres, when `[memory] db_path` is a postgresql:// URL). Both pass
 * `runDatabaseConformance` (conformance.ts).
 */
import type { ConversationHistoryStore, LongTermMemory } from '../memory/ports.ts';
import type { OrchestratorNodeStore } from '../orchestrator/ports.ts';
import type { UsageHistoryStore } from '../usage/ports.ts';

export type DatabaseKind = 'sqlite' | 'postgresql';

/** Non-secret runtime settings persisted across restarts, as JSON values by key. */
export interface SettingsRepository {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  all(): Promise<Record<string, unknown>>;
}

export interface AllowlistEntry {
  id: number;
  pattern: string;
  arg_pattern: string | null;
  /**
   * The working directory the entry allows (exactly that directory); null: only inside the
   * workspace. A request from a directory the model chose outside the workspace matches only an
   * entry naming it.
   */
  directory: string | null;
  created_at: number;
}

/** Approval allowlist: glob on the program name plus an optional regex on the command line. */
export interface AllowlistRepository {
  list(): Promise<AllowlistEntry[]>;
  add(entry: {
    pattern: string;
    arg_pattern?: string | null;
    directory?: string | null;
  }): Promise<AllowlistEntry>;
  /** Returns false when no entry had that id. */
  remove(id: number): Promise<boolean>;
}

/** How `memory.search` finds its rows, for /status `backends` (settled when the store opens). */
export interface KeywordSearchInfo {
  /** An index narrows the candidates; false: every search scans the table. */
  readonly indexed: boolean;
  /** 'fts5-trigram' (SQLite), 'pg_trgm' (PostgreSQL), or 'scan' when there is no index. */
  readonly method: 'fts5-trigram' | 'pg_trgm' | 'scan';
  /** Why there is no index (for example "extension pg_trgm is not available: …"). */
  readonly reason?: string;
}

/** One message a channel received (`in`) or sent (`out`). */
export interface ChannelMessageRow {
  id: string;
  channel: string;
  direction: 'in' | 'out';
  /** The chat (conversation) on the network: a user id for direct messages, else a group id. */
  chat_id: string;
  /** The sender of an inbound message; null for outbound ones. */
  user: string | null;
  text: string;
  /** Epoch milliseconds. */
  timestamp: number;
  read: boolean;
}

/** A sender's pairing on a channel: pending with a one-time code, then approved by the owner. */
export interface ChannelPairing {
  channel: string;
  sender_id: string;
  /** The one-time code while pending; null once approved (or for `allow_from` senders). */
  code: string | null;
  status: 'pending' | 'approved';
  /** Epoch milliseconds. */
  created_at: number;
  approved_at: number | null;
}

export interface ChannelCounts {
  total: number;
  unread: number;
  in: number;
  out: number;
  /** Epoch milliseconds of the newest message, null when there is none. */
  last_at: number | null;
}

/** Every channel message in and out, with unread counts, and the pairings of senders. */
export interface ChannelRepository {
  addMessage(row: ChannelMessageRow): Promise<void>;
  /** Newest first, at most `limit`. */
  listMessages(channel: string, limit: number): Promise<ChannelMessageRow[]>;
  /**
   * The newest inbound messages of one chat, newest first, at most `limit`, leaving out those
   * of `exceptUser` (a group's recent messages from everyone but the sender of the current one).
   */
  recentInbound(
    channel: string,
    chatId: string,
    exceptUser: string,
    limit: number,
  ): Promise<ChannelMessageRow[]>;
  counts(channel: string): Promise<ChannelCounts>;
  /** Marks every unread message of the channel read; returns how many were unread. */
  markRead(channel: string): Promise<number>;
  pairing(channel: string, senderId: string): Promise<ChannelPairing | undefined>;
  pairingByCode(channel: string, code: string): Promise<ChannelPairing | undefined>;
  /** Inserts or replaces the pairing of (channel, sender). */
  savePairing(pairing: ChannelPairing): Promise<void>;
  listPairings(channel: string): Promise<ChannelPairing[]>;
  /**
   * Claims `key` (a delivery's signature, a message or update id) for the channel until
   * `expiresAt` (epoch ms): true when it was free (never claimed, or its claim expired before
   * `now`), false while an earlier claim holds. Atomic: of gateways claiming the same key on one
   * database, exactly one gets true.
   */
  claimSeen(channel: string, key: string, expiresAt: number, now: number): Promise<boolean>;
  /** Deletes every claim that expired before `now`, of every channel; returns how many. */
  pruneSeen(now: number): Promise<number>;
  /**
   * Removes the channel's messages, pairings and claims (the channel was removed); returns the
   * messages and pairings gone.
   */
  forget(channel: string): Promise<number>;
}

export interface Database {
  readonly kind: DatabaseKind;
  /** Where it lives, with any password removed (for /status and logs). */
  readonly location: string;
  readonly settings: SettingsRepository;
  readonly allowlist: AllowlistRepository;
  /** The long-term memory tier, the `memory_entries` table. */
  readonly memory: LongTermMemory;
  /** The orchestrator's nodes, the `orchestrator_nodes` table. */
  readonly orchestratorNodes: OrchestratorNodeStore;
  /** Messaging channels: their messages and the pairings of senders. */
  readonly channels: ChannelRepository;
  /** Usage over time, the `usage_hourly` table. */
  readonly usageHistory: UsageHistoryStore;
  /** Sessions' conversation history, the `conversation_messages` table. */
  readonly conversations: ConversationHistoryStore;
  readonly keywordSearch: KeywordSearchInfo;
  /** Cheap liveness probe for the readiness check. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export type OpenDatabase = (location: string) => Promise<Database>;
