/**
 * The memory area's ports. Three tiers, each a port with two adapters and one conformance
 * suite every adapter passes:
 * - short-term: Redis (`[memory] cache_url`) | in-process, entries expire after short_term_ttl;
 * - vectors: Qdrant (`[memory] vector_store_url`) | in-memory cosine index;
 * - long-term: the SQL store (SQLite | PostgreSQL), `LongTermMemory` below.
 * The embedder runs in-process only; no embedding ever leaves the process.
 */

import type { ChatMessage } from '../providers/ports.ts';
import type { MemoryOrigin } from './origin.ts';
import type { RetrievedMemory } from './prompt-blocks.ts';

export type MemoryRole = 'user' | 'assistant' | 'summary' | 'note';

/** One remembered piece of text in the short-term tier. */
export interface ShortTermItem {
  /** Unique within the session (e.g. a random id). */
  id: string;
  sessionId: string;
  role: MemoryRole;
  content: string;
  /** sha256 hex of the normalised content; retrieval deduplicates on it. */
  contentHash: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /**
   * Where the text came from (origin.ts). Absent on items written before provenance was kept:
   * they read as `defaultItemOrigin(role)` (the user's words the owner's, the rest Hearth's).
   */
  origin?: MemoryOrigin;
}

export interface ShortTermStore {
  readonly kind: 'redis' | 'in-process';
  /** Appends an item; it expires `ttlSeconds` after it was written. */
  add(item: ShortTermItem, ttlSeconds: number): Promise<void>;
  /** The session's unexpired items, newest first, at most `limit`. */
  recent(sessionId: string, limit: number): Promise<ShortTermItem[]>;
  /** Removes the session's items whose content contains `keyword` (case-insensitive); count removed. */
  removeMatching(sessionId: string | null, keyword: string): Promise<number>;
  /**
   * Removes exactly the session's items with these ids (edit and resend forgets the items the
   * replaced turn wrote, never another turn's copy of the same text); count removed.
   */
  removeIds(sessionId: string, ids: readonly string[]): Promise<number>;
  /** Removes every item of a session (or of all sessions with null); count removed. */
  clear(sessionId: string | null): Promise<number>;
  /** Sessions with unexpired items and their item counts. */
  sessions(): Promise<Map<string, number>>;
  /** Cheap liveness probe; false while the backend is unreachable. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface VectorPoint {
  /** The long-term entry id (or a negative id for short-term-only items). */
  id: number;
  vector: Float32Array;
  sessionId: string;
}

export interface VectorHit {
  id: number;
  /** Cosine similarity in [-1, 1]. */
  score: number;
}

export interface VectorStore {
  readonly kind: 'qdrant' | 'in-memory';
  readonly dimensions: number;
  upsert(points: readonly VectorPoint[]): Promise<void>;
  /** The `topK` nearest points, best first; restricted to one session when given. */
  search(vector: Float32Array, topK: number, sessionId?: string): Promise<VectorHit[]>;
  remove(ids: readonly number[]): Promise<void>;
  count(): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

import type { Embedder } from './embedder/port.ts';

export type { Embedder, EmbedderState } from './embedder/port.ts';

/** A row of the long-term store (the spec's "Memory entry" plus Hearth's own fields). */
export interface MemoryEntry {
  id: number;
  session_id: string;
  content: string;
  content_hash: string;
  /** 0 to 1. */
  importance_score: number;
  tags: string[];
  /** 'turn' | 'summary' | 'note' | 'archive' | any caller-chosen type. */
  type: string;
  /** Epoch seconds. */
  created_at: number;
  updated_at: number;
  /**
   * Where what the row was made from came from (origin.ts). Rows written before provenance was
   * kept (and rows written without one) read as `defaultEntryOrigin(type)`.
   */
  origin: MemoryOrigin;
}

export interface NewMemoryEntry {
  session_id: string;
  content: string;
  importance_score: number;
  tags?: string[];
  type?: string;
  /** Normalised embedding, stored with the row so the in-memory index can be rebuilt. */
  embedding?: Float32Array | null;
  /** Epoch seconds; now when omitted. */
  created_at?: number;
  /** The least trusted origin of what the row was made from; `defaultEntryOrigin(type)` when omitted. */
  origin?: MemoryOrigin;
}

export interface MemoryFilter {
  session_id?: string;
  tag?: string;
  type?: string;
  limit: number;
}

/** The long-term tier: the `memory_entries` table of the SQL store (both adapters). */
export interface LongTermMemory {
  insert(entry: NewMemoryEntry): Promise<MemoryEntry>;
  get(id: number): Promise<MemoryEntry | undefined>;
  getMany(ids: readonly number[]): Promise<MemoryEntry[]>;
  /** Newest first. */
  list(filter: MemoryFilter): Promise<MemoryEntry[]>;
  /** Case-insensitive substring match on content, newest first. */
  search(query: string, options: { limit: number; session_id?: string }): Promise<MemoryEntry[]>;
  /**
   * `search` for each query, answered together (the chat's keywords on every turn): a store
   * that has it runs them in one go; without it each query is searched on its own.
   */
  searchMany?(
    queries: readonly string[],
    options: { limit: number; session_id?: string },
  ): Promise<MemoryEntry[][]>;
  update(
    id: number,
    patch: {
      content?: string;
      importance_score?: number;
      tags?: string[];
      embedding?: Float32Array | null;
    },
  ): Promise<MemoryEntry | undefined>;
  remove(id: number): Promise<boolean>;
  removeMany(ids: readonly number[]): Promise<number>;
  removeSession(sessionId: string): Promise<number>;
  removeAll(): Promise<number>;
  /** Deletes rows older than `days`, or (when given) with importance below `threshold`; count removed. */
  prune(options: { days?: number; threshold?: number; now?: number }): Promise<number>;
  /**
   * Ids of the rows `prune` would delete with these options, oldest first, at most `limit`:
   * the memory service deletes them batch by batch from every tier (vectors included), for
   * POST /memory/prune and retention (`[memory] long_term_days`).
   */
  pruneIds(
    options: { days?: number; threshold?: number; now?: number },
    limit: number,
  ): Promise<number[]>;
  count(): Promise<number>;
  /** Every row that has an embedding, in id order, in pages (rebuilds the in-memory index). */
  embeddings(
    afterId: number,
    pageSize: number,
  ): Promise<{ id: number; session_id: string; embedding: Float32Array }[]>;
  /** Sessions with their last activity (epoch seconds) and row counts. */
  sessions(): Promise<{ session_id: string; last_active: number; count: number }[]>;
}

/**
 * A message of a session's history. `origin` is set on a message made from untrusted content
 * (the reply of a turn that read some, a forwarded message): while it is in the history, every
 * turn that sends it upstream holds that content too. Absent: the owner's words (user) or
 * Hearth's (assistant). The providers map messages field by field: `origin` never goes upstream.
 */
export type HistoryMessage = ChatMessage & { origin?: MemoryOrigin };

/** The live conversation of one session, owned by the chat area. */
export interface Conversation {
  history: HistoryMessage[];
  /** The summary that replaced older history, prepended to the system prompt. */
  summary: string | null;
  /**
   * The least trusted origin of what is no longer in the history: what the summary was made
   * from, and messages that left without one (older than the history cap when a stored history
   * is loaded). Compaction gives the summary it stores the least trusted of this, the
   * summarised messages' own origins and the origins short-term memory holds for them.
   * Absent: the owner's and Hearth's own words only.
   */
  origin?: MemoryOrigin;
}

/** A session's history as stored (`conversation_messages`), so it outlives the process. */
export interface StoredHistoryMessage {
  /** Increasing in the order messages were stored (a compaction deletes by it). */
  id: number;
  role: 'user' | 'assistant' | 'summary';
  content: string;
  /** Null: the role's default (the user's words the owner's, the rest Hearth's). */
  origin: MemoryOrigin | null;
  /** Epoch seconds. */
  created_at: number;
}

/** A session found in the stored history (`ConversationHistoryStore.sessions`). */
export interface StoredSessionSummary {
  id: string;
  /** Its stored title (PATCH /sessions/{id}), else null. */
  title: string | null;
  /** The start of its first stored user message (null when it has none). */
  firstUserText: string | null;
  /** Epoch seconds of its newest stored row. */
  lastActive: number;
  /** Its stored user messages (the live list counts the messages a session received). */
  messageCount: number;
}

/** What `ConversationHistoryStore.sessions` lists. */
export interface StoredSessionsQuery {
  /** Only sessions whose stored title or a stored message contains it (case-insensitive). */
  q: string | null;
  /** Live sessions' ids: left out of `sessions` and `total`, checked against `q`. */
  live: readonly string[];
  /** Sessions returned at most (the most recently active). */
  limit: number;
}

/** The stored history of every session: the `conversation_messages` table (both adapters). */
export interface ConversationHistoryStore {
  /**
   * The session's summary (null when it has none) and its newest `limit` messages, oldest
   * first; `truncated` when it has older ones, and `earlier`: the untrusted origins among
   * those (at most 64, each once).
   */
  load(
    sessionId: string,
    limit: number,
  ): Promise<{
    summary: StoredHistoryMessage | null;
    messages: StoredHistoryMessage[];
    truncated: boolean;
    earlier: MemoryOrigin[];
  }>;
  /** Appends messages in order; their ids. A malformed origin is refused before anything is written. */
  append(
    sessionId: string,
    messages: readonly {
      role: 'user' | 'assistant';
      content: string;
      origin: MemoryOrigin | null;
    }[],
  ): Promise<number[]>;
  /**
   * Compaction: in one transaction, deletes the session's messages with ids up to `upTo` and
   * its summary, and stores `summary` in its place.
   */
  summarise(
    sessionId: string,
    upTo: number,
    summary: { content: string; origin: MemoryOrigin | null },
  ): Promise<void>;
  /** Deletes the session's stored history, summary included, and its title; how many rows. */
  clear(sessionId: string): Promise<number>;
  /**
   * Edit and resend: deletes the session's newest user message and every message after it (its
   * reply); the summary stays. How many rows (0: it has no stored user message).
   */
  dropLastExchange(sessionId: string): Promise<number>;
  /** The stored titles of those of `sessionIds` that have one. */
  titles(sessionIds: readonly string[]): Promise<Map<string, string>>;
  /** Stores a session's title (PATCH /sessions/{id}). */
  setTitle(sessionId: string, title: string): Promise<void>;
  /**
   * GET /sessions?stored=true: one item per session with stored rows (but the live ones), most
   * recently active first, the newest `limit`; `total` counts them all; `liveMatching`: the live
   * ids whose stored title or messages contain `q` (empty without `q`).
   */
  sessions(query: StoredSessionsQuery): Promise<{
    sessions: StoredSessionSummary[];
    total: number;
    liveMatching: string[];
  }>;
}

/** The chat area's side of the stored history (conversation-history.ts). */
export interface ConversationHistory {
  /**
   * Fills a conversation this process has not seen yet with the session's stored history (once
   * per conversation object). A store that cannot be read leaves it empty: what it holds is
   * then not sent upstream either; the failure is logged.
   */
  restore(sessionId: string, conversation: Conversation): Promise<void>;
  /** Stores messages just added to the history (failures logged, never thrown). */
  append(sessionId: string, messages: readonly HistoryMessage[]): Promise<void>;
  /** Compaction replaced `summarised` (the oldest messages) with the conversation's summary. */
  summarised(
    sessionId: string,
    conversation: Conversation,
    summarised: readonly HistoryMessage[],
  ): Promise<void>;
  /** Deletes the session's stored history (DELETE /sessions/{id}); throws when it cannot. */
  clear(sessionId: string): Promise<number>;
  /**
   * The session's stored messages for GET /sessions/{id}/messages, after the appends still
   * being written: its summary (null when none) and its newest `limit` messages, oldest first.
   */
  read(
    sessionId: string,
    limit: number,
  ): Promise<{
    summary: StoredHistoryMessage | null;
    messages: StoredHistoryMessage[];
    truncated: boolean;
  }>;
  /**
   * Edit and resend: removes the conversation's last user message and what followed it, in
   * memory and in the store. False when it has no user message to replace.
   */
  dropLastExchange(sessionId: string, conversation: Conversation): Promise<boolean>;
  /** The stored titles of those of `sessionIds` that have one. */
  titles(sessionIds: readonly string[]): Promise<Map<string, string>>;
  /** Stores a session's title. */
  setTitle(sessionId: string, title: string): Promise<void>;
  /** The sessions with a stored history (GET /sessions?stored=true), after the pending appends. */
  sessions: ConversationHistoryStore['sessions'];
}

/** Compaction of a conversation into a long-term summary. */
export interface Compactor {
  needsCompaction(conversation: Conversation, contextWindow: number): boolean;
  /** `/compact` and POST /memory/compact: compacts now and reports whether anything was compacted. */
  compact(sessionId: string, conversation: Conversation): Promise<boolean>;
  /** After a reply: compacts in the background when over the threshold; never throws. */
  compactInBackground(sessionId: string, conversation: Conversation, contextWindow: number): void;
  /** Settles when every running compaction has finished (tests, shutdown). */
  idle(): Promise<void>;
}

export interface TurnToRemember {
  sessionId: string;
  user: string;
  assistant: string;
  /**
   * The turn's least trusted origin (its taint ledger): every row written from the turn (both
   * short-term items and the long-term row) takes it. Absent: today's behaviour, the user's
   * message the owner's and the reply and the long-term row Hearth's.
   */
  origin?: MemoryOrigin;
}

/** What `rememberTurn` wrote for a turn, so a replaced turn can be forgotten exactly. */
export interface RememberedTurn {
  importance: number;
  /** The long-term row written for the turn, null when it was not important enough. */
  longTermId: number | null;
  /** The ids of the turn's short-term items (user, then assistant). */
  shortTermIds: string[];
}

/** The three tiers behind one interface (memory-service.ts has the retrieval rules). */
export interface MemoryService {
  /** Null until the embedder's load state is known; reading never triggers a load. */
  semanticAvailable(): boolean | null;
  rememberTurn(turn: TurnToRemember): Promise<RememberedTurn>;
  /**
   * Edit and resend: forgets a replaced turn. With what `rememberTurn` returned for it, exactly
   * the short-term items and the long-term row it wrote; without (a turn of an earlier run),
   * the newest user/assistant item pair written together for that text, if short-term memory
   * still holds one (its long-term row, if any, stays). Count of what was removed.
   */
  forgetTurn(turn: TurnToRemember, remembered?: RememberedTurn | null): Promise<number>;
  retrieve(request: {
    sessionId: string;
    query: string;
    topK: number;
    /** Hashes already in the prompt (the live history), left out. */
    exclude?: ReadonlySet<string>;
  }): Promise<RetrievedMemory[]>;
  /** `/forget <keyword>`: what would be deleted, without deleting. */
  forgetPreview(sessionId: string, keyword: string): Promise<{ count: number; snippets: string[] }>;
  /** `/forget <keyword> confirm`: deletes matches from every tier. */
  forget(sessionId: string, keyword: string): Promise<number>;
  /** `/tag <name>`: attaches a tag to every long-term memory of the session; count tagged. */
  tag(sessionId: string, tag: string): Promise<number>;
  /** `/tags`: the tags on the session's memories with their counts. */
  tags(sessionId: string): Promise<Record<string, number>>;
  /**
   * The origins short-term memory holds for these content hashes of a session (compaction
   * lowers a summary's origin by them); hashes it no longer holds add nothing.
   */
  originsOf(sessionId: string, hashes: ReadonlySet<string>): Promise<MemoryOrigin[]>;
  /** Stores a row (POST /memory, summaries, archives), embedded when possible. */
  store(entry: Omit<NewMemoryEntry, 'embedding'>): Promise<MemoryEntry>;
  update(
    id: number,
    patch: { content?: string; importance_score?: number },
  ): Promise<MemoryEntry | undefined>;
  removeEntries(ids: readonly number[]): Promise<number>;
  removeSession(sessionId: string): Promise<number>;
  /**
   * Empties every tier (`hearth memory clear`, DELETE /memory): the long-term rows with their
   * vectors, in batches, every session's short-term items, the cached turn embeddings.
   */
  removeAll(): Promise<{ long_term: number; short_term: number }>;
  /**
   * Semantic retrieval on its own (`hearth memory search --semantic`, GET /memory/semantic):
   * the query embedded locally, its nearest long-term rows in the vector tier, ranked as the
   * chat's semantic tier ranks them. Throws `unavailable` (503) without an embedding model.
   */
  searchSemantic(
    query: string,
    options: { limit: number; session_id?: string },
  ): Promise<SemanticMatch[]>;
  /** Deletes old and/or unimportant rows (POST /memory/prune) from every tier, in batches. */
  prune(options: { days?: number; threshold?: number }): Promise<number>;
  /**
   * Retention (`[memory] long_term_days`): deletes the long-term rows created more than `days`
   * days ago, with their vectors, `batchSize` rows at a time. `days` 0 keeps everything.
   */
  expireOlderThan(days: number, batchSize?: number): Promise<number>;
  /** Loads every stored embedding into an in-memory vector index (at start, without Qdrant). */
  rebuildVectorIndex(target?: VectorStore): Promise<number>;
}

/** A long-term row found by meaning: its cosine similarity to the query, and its rank score. */
export interface SemanticMatch extends MemoryEntry {
  /** Cosine similarity of the row's embedding to the query's, -1 to 1. */
  similarity: number;
  /** similarity × (0.75 + 0.25 × importance), as retrieval ranks the semantic tier. */
  score: number;
}

/** The memory area as built at start-up: the service, the compactor and the tiers. */
export interface MemoryRuntime {
  service: MemoryService;
  compactor: Compactor;
  /** Sessions' stored history, restored into a conversation on its first turn here. */
  history: ConversationHistory;
  shortTerm: ShortTermStore;
  vectors: VectorStore;
  embedder: Embedder;
  /** Which adapter each tier uses right now (for /status). */
  backends(): { short_term: string; vectors: string; embedder: string };
  close(): Promise<void>;
}

// Helpers other areas use: session ids, content hashes, query keywords, the prompt block of
// retrieved memories, and the local embedder's model files.
export {
  groupSessionIdFor,
  MAX_SESSION_ID_CHARS,
  sessionIdFor,
  sessionIdSchema,
} from './session-id.ts';
export { contentHash, normaliseContent } from './content-hash.ts';
export { keywordsOf } from './keywords.ts';
export {
  memoryPromptBlock,
  memorySearchText,
  recallOrigin,
  type RetrievedMemory,
} from './prompt-blocks.ts';
// Provenance: memory rows keep where they came from; recall hands it back to re-taint a turn.
export {
  HEARTH_ORIGIN,
  MAX_ORIGIN_SOURCES,
  MAX_SOURCE_NAME_CHARS,
  OWNER_ORIGIN,
  isUntrusted,
  leastTrusted,
  memoryOriginSchema,
  type MemoryOrigin,
  type OriginSource,
  type OriginSourceKind,
  type OriginTrust,
} from './origin.ts';
// For the store adapters (db area): how origins are checked, stored and read back.
export {
  copyOrigin,
  decodeOrigin,
  defaultEntryOrigin,
  normaliseOrigin,
  UNREADABLE_ORIGIN,
} from './origin.ts';
export {
  DEFAULT_EMBEDDING_MODEL_ID,
  PULL_COMMAND,
  createTransformersEmbedder,
  inspectModelFolder,
} from './embedder/index.ts';
