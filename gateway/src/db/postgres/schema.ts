/**
 * PostgreSQL tables of the long-term store, the same shape as ../sqlite/schema.ts. To extend:
 * add tables here and there, then `npm run db:generate -- --name <what>` from the repo root
 * writes the next versioned migration into gateway/drizzle/pg; commit it with the schema change.
 */
import { loadPgCore, orm } from '../drizzle.ts';

const { sql } = orm;
const {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} = loadPgCore();

const epochSecondsNow = sql`(extract(epoch from now()))::bigint`;

/**
 * jsonb handed back exactly as node-postgres parsed it. Drizzle's own `jsonb` JSON.parses any
 * string it reads again, so the stored JSON string "123" would come back as the number 123.
 */
const jsonValue = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
});

/** Non-secret runtime settings: one JSON document per key. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonValue('value').notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull().default(epochSecondsNow),
});

/** Approval allowlist entries; identity ids are never reused. */
export const allowlist = pgTable('allowlist', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  pattern: text('pattern').notNull(),
  argPattern: text('arg_pattern'),
  /** The working directory the entry is limited to; null = inside the workspace only. */
  directory: text('directory'),
  createdAt: bigint('created_at', { mode: 'number' }).notNull().default(epochSecondsNow),
});

/** bytea as a Buffer (pg-core has no bytea column of its own). */
const bytes = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

/**
 * The long-term memory tier (`LongTermMemory`, ../../memory/ports.ts), the same shape as the
 * SQLite table. `content_hash` is `contentHash(content)` (../../memory/content-hash.ts), written
 * by the store; `tags` is a jsonb array of strings; `embedding` is the normalised vector as
 * Float32 little-endian bytes. Identity ids are never reused: the vector index keys its points
 * by them.
 */
export const memoryEntries = pgTable(
  'memory_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sessionId: text('session_id').notNull(),
    content: text('content').notNull(),
    contentHash: text('content_hash').notNull(),
    importanceScore: doublePrecision('importance_score').notNull(),
    tags: jsonb('tags')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    type: text('type').notNull().default('turn'),
    embedding: bytes('embedding'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull().default(epochSecondsNow),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull().default(epochSecondsNow),
    /**
     * Provenance (`MemoryOrigin`, ../../memory/origin.ts). NULL only in rows written before it
     * was kept (migration 0006_memory_origin): they read as the default of their type
     * (../memory-rows.ts `originColumn`).
     */
    origin: jsonValue('origin'),
  },
  (table) => [
    check(
      'memory_entries_importance_in_range',
      sql`${table.importanceScore} >= 0 and ${table.importanceScore} <= 1`,
    ),
    check('memory_entries_tags_is_json_array', sql`jsonb_typeof(${table.tags}) = 'array'`),
    index('memory_entries_session_created_idx').on(table.sessionId, table.createdAt),
    index('memory_entries_content_hash_idx').on(table.contentHash),
    index('memory_entries_created_idx').on(table.createdAt),
  ],
);

/**
 * Orchestrator nodes (`OrchestratorNodeStore`, ../../orchestrator/ports.ts), keyed by name;
 * `keywords`, `channels` and `task_types` are jsonb arrays of strings.
 */
export const orchestratorNodes = pgTable(
  'orchestrator_nodes',
  {
    name: text('name').primaryKey(),
    modelOverride: text('model_override').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    priority: integer('priority').notNull().default(0),
    keywords: jsonb('keywords')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    channels: jsonb('channels')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    taskTypes: jsonb('task_types')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    systemPrompt: text('system_prompt'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull().default(epochSecondsNow),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull().default(epochSecondsNow),
  },
  (table) => [
    check(
      'orchestrator_nodes_lists_are_json_arrays',
      sql`jsonb_typeof(${table.keywords}) = 'array' and jsonb_typeof(${table.channels}) = 'array' and jsonb_typeof(${table.taskTypes}) = 'array'`,
    ),
  ],
);

/** Every message a channel received or sent (`direction` in|out), with a read flag. */
export const channelMessages = pgTable(
  'channel_messages',
  {
    id: text('id').primaryKey(),
    channel: text('channel').notNull(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    chatId: text('chat_id').notNull(),
    user: text('user'),
    text: text('text').notNull(),
    /** Epoch milliseconds. */
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    read: boolean('read').notNull().default(false),
  },
  (table) => [
    check('channel_messages_direction', sql`${table.direction} in ('in', 'out')`),
    index('channel_messages_channel_time_idx').on(table.channel, table.timestamp),
  ],
);

/** Senders paired with a channel (pending with a one-time code, or approved). */
export const channelPairings = pgTable(
  'channel_pairings',
  {
    channel: text('channel').notNull(),
    senderId: text('sender_id').notNull(),
    code: text('code'),
    status: text('status', { enum: ['pending', 'approved'] }).notNull(),
    /** Epoch milliseconds. */
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    approvedAt: bigint('approved_at', { mode: 'number' }),
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
export const channelSeen = pgTable(
  'channel_seen',
  {
    channel: text('channel').notNull(),
    key: text('key').notNull(),
    /** Epoch milliseconds. */
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.channel, table.key] }),
    index('channel_seen_expires_idx').on(table.expiresAt),
  ],
);

/**
 * Sessions' conversation history (`ConversationHistoryStore`, ../../memory/ports.ts), the same
 * shape as the SQLite table: the messages a session's turns send upstream again, in id order,
 * and at most one `summary` row per session. `origin` is the message's provenance; NULL: the
 * role's default (the user's words the owner's, the rest Hearth's). Identity ids are never
 * reused: a compaction deletes the messages up to one.
 */
export const conversationMessages = pgTable(
  'conversation_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: text('session_id').notNull(),
    role: text('role', { enum: ['user', 'assistant', 'summary'] }).notNull(),
    content: text('content').notNull(),
    origin: jsonValue('origin'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull().default(epochSecondsNow),
  },
  (table) => [
    check('conversation_messages_role', sql`${table.role} in ('user', 'assistant', 'summary')`),
    index('conversation_messages_session_idx').on(table.sessionId, table.id),
  ],
);

/** Usage over time, per hour, provider and model (the same shape as ../sqlite/schema.ts). */
export const usageHourly = pgTable(
  'usage_hourly',
  {
    hour: bigint('hour', { mode: 'number' }).notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    unpriced: bigint('unpriced', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.hour, table.provider, table.model] }),
    check('usage_hourly_hour_aligned', sql`${table.hour} % 3600 = 0`),
  ],
);
/** Sessions' titles (PATCH /sessions/{id}), the same shape as the SQLite table. */
export const sessionTitles = pgTable('session_titles', {
  sessionId: text('session_id').primaryKey(),
  title: text('title').notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull().default(epochSecondsNow),
});
