/**
 * SQLite tables of the long-term store. Column names are snake_case in SQL, camelCase in
 * TypeScript. To extend: add tables here (and the same ones in ../postgres/schema.ts), then
 * `npm run db:generate -- --name <what>` from the repo root writes the next versioned
 * migration into gateway/drizzle/sqlite; commit it with the schema change.
 */
import { orm, sqliteCore } from '../drizzle.ts';

const { sql } = orm;
const { blob, check, index, integer, primaryKey, real, sqliteTable, text } = sqliteCore;

const epochSecondsNow = sql`(unixepoch())`;

/** Non-secret runtime settings: one JSON document per key. */
export const settings = sqliteTable(
  'settings',
  {
    key: text('key').primaryKey(),
    value: text('value', { mode: 'json' }).$type<unknown>().notNull(),
    updatedAt: integer('updated_at').notNull().default(epochSecondsNow),
  },
  (table) => [check('settings_value_is_json', sql`json_valid(${table.value})`)],
);

/** Approval allowlist entries; ids are never reused (AUTOINCREMENT). */
export const allowlist = sqliteTable('allowlist', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  pattern: text('pattern').notNull(),
  argPattern: text('arg_pattern'),
  /** The working directory the entry is limited to; null = inside the workspace only. */
  directory: text('directory'),
  createdAt: integer('created_at').notNull().default(epochSecondsNow),
});

/**
 * The long-term memory tier (`LongTermMemory`, ../../memory/ports.ts). `content_hash` is
 * `contentHash(content)` (../../memory/content-hash.ts), written by the store; `tags` is a JSON
 * array of strings; `embedding` is the normalised vector as Float32 little-endian bytes.
 * Ids are never reused (AUTOINCREMENT): the vector index keys its points by them.
 */
export const memoryEntries = sqliteTable(
  'memory_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: text('session_id').notNull(),
    content: text('content').notNull(),
    contentHash: text('content_hash').notNull(),
    importanceScore: real('importance_score').notNull(),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull().default([]),
    type: text('type').notNull().default('turn'),
    embedding: blob('embedding', { mode: 'buffer' }),
    createdAt: integer('created_at').notNull().default(epochSecondsNow),
    updatedAt: integer('updated_at').notNull().default(epochSecondsNow),
    /**
     * Provenance (`MemoryOrigin`, ../../memory/origin.ts) as JSON text. NULL only in rows
     * written before it was kept (migration 0006_memory_origin): they read as the default of
     * their type (../memory-rows.ts `originColumn`).
     */
    origin: text('origin'),
  },
  (table) => [
    check(
      'memory_entries_importance_in_range',
      sql`${table.importanceScore} >= 0 and ${table.importanceScore} <= 1`,
    ),
    check(
      'memory_entries_tags_is_json_array',
      sql`json_valid(${table.tags}) and json_type(${table.tags}) = 'array'`,
    ),
    index('memory_entries_session_created_idx').on(table.sessionId, table.createdAt),
    index('memory_entries_content_hash_idx').on(table.contentHash),
    index('memory_entries_created_idx').on(table.createdAt),
  ],
);

/**
 * Orchestrator nodes (`OrchestratorNodeStore`, ../../orchestrator/ports.ts), keyed by name;
 * `keywords`, `channels` and `task_types` are JSON arrays of strings.
 */
export const orchestratorNodes = sqliteTable(
  'orchestrator_nodes',
  {
    name: text('name').primaryKey(),
    modelOverride: text('model_override').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    priority: integer('priority').notNull().default(0),
    keywords: text('keywords', { mode: 'json' }).$type<string[]>().notNull().default([]),
    channels: text('channels', { mode: 'json' }).$type<string[]>().notNull().default([]),
    taskTypes: text('task_types', { mode: 'json' }).$type<string[]>().notNull().default([]),
    systemPrompt: text('system_prompt'),
    createdAt: integer('created_at').notNull().default(epochSecondsNow),
    updatedAt: integer('updated_at').notNull().default(epochSecondsNow),
  },
  (table) => [
    check(
      'orchestrator_nodes_lists_are_json_arrays',
      sql`json_type(${table.keywords}) = 'array' and json_type(${table.channels}) = 'array' and json_type(${table.taskTypes}) = 'array'`,
    ),
  ],
);

/** Every message a channel received or sent (`direction` in|out); `read` 0|1 for unread counts. */
export const channelMessages = sqliteTable(
  'channel_messages',
  {
    id: text('id').primaryKey(),
    channel: text('channel').notNull(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    chatId: text('chat_id').notNull(),
    user: text('user'),
    text: text('text').notNull(),
    /** Epoch milliseconds. */
    timestamp: integer('timestamp').notNull(),
    read: integer('read', { mode: 'boolean' }).notNull().default(false),
  },
  (table) => [
    check('channel_messages_direction', sql`${table.direction} in ('in', 'out')`),
    index('channel_messages_channel_time_idx').on(table.channel, table.timestamp),
  ],
);

/** Senders paired with a channel (pending with a one-time code, or approved). */
export const channelPairings = sqliteTable(
  'channel_pairings',
  {
    channel: text('channel').notNull(),
    senderId: text('sender_id').notNull(),
    code: text('code'),
    status: text('status', { enum: ['pending', 'approved'] }).notNull(),
    /** Epoch milliseconds. */
    createdAt: integer('created_at').notNull(),
    approvedAt: integer('approved_at'),
  },
  (table) => [
    primaryKey({ columns: [table.channel, table.senderId] }),
    check('channel_pairings_status', sql`${table.status} in ('pending', 'approved')`),
    index('channel_pairings_code_idx').on(table.channel, table.code),
  ],
);

/**
 * What a channel has already taken (a delivery's signature, a message or update id), so that a
 * repeated one is dropped across restarts and among gateways sharing the database: inserting
 * `(channel, key)` is the claim. A row holds until `expires_at` (epoch milliseconds), after which
 * the key may be claimed again; expired rows are pruned.
 */
export const channelSeen = sqliteTable(
  'channel_seen',
  {
    channel: text('channel').notNull(),
    key: text('key').notNull(),
    /** Epoch milliseconds. */
    expiresAt: integer('expires_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.channel, table.key] }),
    index('channel_seen_expires_idx').on(table.expiresAt),
  ],
);

/**
 * Sessions' conversation history (`ConversationHistoryStore`, ../../memory/ports.ts): the
 * messages a session's turns send upstream again, in id order, and at most one `summary` row
 * per session (what compaction replaced the older messages with). `origin` is the message's
 * provenance (`MemoryOrigin`, ../../memory/origin.ts) as JSON text; NULL: the role's default (the
 * user's words the owner's, the rest Hearth's). Ids are never reused (AUTOINCREMENT): a
 * compaction deletes the messages up to one.
 */
export const conversationMessages = sqliteTable(
  'conversation_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: text('session_id').notNull(),
    role: text('role', { enum: ['user', 'assistant', 'summary'] }).notNull(),
    content: text('content').notNull(),
    origin: text('origin'),
    createdAt: integer('created_at').notNull().default(epochSecondsNow),
  },
  (table) => [
    check('conversation_messages_role', sql`${table.role} in ('user', 'assistant', 'summary')`),
    check(
      'conversation_messages_origin_is_json',
      sql`${table.origin} is null or json_valid(${table.origin})`,
    ),
    index('conversation_messages_session_idx').on(table.sessionId, table.id),
  ],
);

/**
 * Usage over time (`UsageHistoryStore`, ../../usage/ports.ts): one row per hour (its start in
 * epoch seconds, UTC), provider and model, with the generations' tokens, priced cost and count.
 * `unpriced` counts the generations whose model has no price (their cost is not in `cost_usd`).
 * Rows older than the retention are pruned.
 */
export const usageHourly = sqliteTable(
  'usage_hourly',
  {
    hour: integer('hour').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    costUsd: real('cost_usd').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    unpriced: integer('unpriced').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.hour, table.provider, table.model] }),
    check('usage_hourly_hour_aligned', sql`${table.hour} % 3600 = 0`),
  ],
);

/**
 * Sessions' titles (PATCH /sessions/{id}): one row per renamed session. A session without one
 * is shown with a title derived from its first message.
 */
export const sessionTitles = sqliteTable('session_titles', {
  sessionId: text('session_id').primaryKey(),
  title: text('title').notNull(),
  updatedAt: integer('updated_at').notNull().default(epochSecondsNow),
});
