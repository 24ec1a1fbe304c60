/**
 * README's "Limits" table is the one list of every cap. This keeps it true: every configuration
 * key that is a cap has a row naming it with its default, no row names a key that is not there
 * (or with another default), and the rows of caps fixed in the code show the code's values.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { APPROVAL_EXPIRY_MS } from '../approvals/ports.ts';
import { MAX_WAITING_APPROVALS } from '../approvals/approval-service.ts';
import { MAX_WAITING_TURNS } from '../agent/chat-sockets.ts';
import { CHAT_TOP_K, MAX_MESSAGE_CHARS } from '../agent/pipeline.ts';
import { MAX_SESSION_CHATS, MAX_TURNS_PER_CHANNEL } from '../channels/inbound.ts';
import { MAX_HISTORY_MESSAGES } from '../memory/conversation-history.ts';
import { MAX_SESSION_ID_CHARS } from '../memory/session-id.ts';
import { DEFAULT_MAX_ITEMS_PER_SESSION } from '../memory/short-term/rules.ts';
import { MAX_NODES } from '../orchestrator/orchestrator-service.ts';
import { MAX_PUSH_SUBSCRIPTIONS } from '../push/push-service.ts';
import { DEFAULT_MAX_SESSIONS, MAX_QUEUED_TURNS } from '../sessions/conversations.ts';
import { MAX_PENDING_PROPOSALS } from '../skills/review/proposals.ts';
import {
  MAX_HISTORY_DAYS,
  MAX_HOURLY_DAYS,
  MAX_MODEL_ID_CHARS,
  USAGE_HISTORY_RETENTION_DAYS,
} from '../usage/usage-history.ts';
import { MAX_REPORTED_MODELS } from '../usage/usage-tracker.ts';
import { MAX_OPEN_SOCKETS } from '../ws/socket-router.ts';
import { channelSchema, defaultConfig } from './schema.ts';
import { MINIMAL_CHANNELS } from './testing/minimal-channels.ts';

/**
 * Whether a configuration key is a cap, by its name and default: a number whose name starts
 * with `max_`, has `max`, `limit`, `timeout`, `quota` or `ttl` as a word, or ends in a unit of
 * size or time. (Ports, thresholds and counts of things to quote are settings, not caps.)
 */
export function isCapKey(key: string, value: unknown): boolean {
  if (typeof value !== 'number') return false;
  return (
    /(^|_)(max|limit|timeout|quota|ttl)(_|$)/.test(key) ||
    /_(bytes|mb|ms|seconds|minutes|days)$/.test(key)
  );
}

/** Every cap key of the configuration with its default as JSON. */
function capKeys(): Map<string, string> {
  const caps = new Map<string, string>();
  for (const [section, values] of Object.entries(defaultConfig())) {
    for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
      if (isCapKey(key, value)) caps.set(`${section}.${key}`, JSON.stringify(value));
    }
  }
  for (const minimal of MINIMAL_CHANNELS) {
    const parsed = channelSchema.parse(minimal) as Record<string, unknown>;
    for (const [key, value] of Object.entries(parsed)) {
      if (isCapKey(key, value)) caps.set(`channels.<name>.${key}`, JSON.stringify(value));
    }
  }
  return caps;
}

/** Every configuration value a test could look up: `section.key` and `channels.<name>.key`. */
function allKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [section, values] of Object.entries(defaultConfig())) {
    for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
      keys.set(`${section}.${key}`, JSON.stringify(value));
    }
  }
  for (const minimal of MINIMAL_CHANNELS) {
    for (const [key, value] of Object.entries(channelSchema.parse(minimal))) {
      keys.set(`channels.<name>.${key}`, JSON.stringify(value));
    }
  }
  return keys;
}

interface Row {
  limit: string;
  value: string;
  setBy: string;
}

async function limitsRows(): Promise<Row[]> {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const table = readme.split('<!-- limits:start -->')[1]?.split('<!-- limits:end -->')[0] ?? '';
  const rows: Row[] = [];
  for (const line of table.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| limit ') || line.startsWith('|---')) continue;
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    expect(cells, `a Limits row has five cells: ${line}`).toHaveLength(5);
    const [limit = '', value = '', setBy = ''] = cells;
    // A group heading (`**Memory**`) with empty cells.
    if (limit.startsWith('**')) continue;
    rows.push({ limit, value, setBy });
  }
  return rows;
}

/** The configuration key a row is set by, when it is one (`section.key`). */
const configKeyOf = (row: Row): string | undefined =>
  /^`([a-z_]+\.(?:<name>\.)?[a-z_]+)`$/.exec(row.setBy)?.[1];

describe('README Limits table', () => {
  it('tells caps from other keys by a clear rule', () => {
    expect(isCapKey('body_limit_bytes', 1)).toBe(true);
    expect(isCapKey('max_blocks', 1)).toBe(true);
    expect(isCapKey('short_term_max_bytes', 1)).toBe(true);
    expect(isCapKey('short_term_ttl', 1)).toBe(true);
    expect(isCapKey('rate_limit_per_minute', 1)).toBe(true);
    expect(isCapKey('session_idle_timeout_minutes', 1)).toBe(true);
    expect(isCapKey('data_quota_mb', 1)).toBe(true);
    expect(isCapKey('port', 1)).toBe(false);
    expect(isCapKey('wake_word_threshold', 0.5)).toBe(false);
    expect(isCapKey('group_context', 0)).toBe(false);
    expect(isCapKey('max_message_bytes', '1')).toBe(false);
  });

  it('lists every configuration key that is a cap, with its default', async () => {
    const rows = await limitsRows();
    expect(rows.length).toBeGreaterThan(50);
    const documented = new Map<string, string>();
    for (const row of rows) {
      const key = configKeyOf(row);
      if (key !== undefined) documented.set(key, /^`([^`]+)`/.exec(row.value)?.[1] ?? row.value);
    }
    const caps = capKeys();
    expect(caps.size).toBeGreaterThan(20);
    const missing = [...caps.keys()].filter((key) => !documented.has(key));
    expect(missing, 'cap keys without a row in README "Limits"').toStrictEqual([]);
    for (const [key, value] of caps) expect(documented.get(key), key).toBe(value);
  });

  it('names no configuration key that does not exist, nor a default it does not have', async () => {
    const keys = allKeys();
    for (const row of await limitsRows()) {
      const key = configKeyOf(row);
      if (key === undefined) continue;
      expect(keys.has(key), `${row.limit}: ${key} is not a configuration key`).toBe(true);
      expect(/^`([^`]+)`/.exec(row.value)?.[1], `${row.limit}: default of ${key}`).toBe(
        keys.get(key),
      );
    }
  });

  it('shows the values the code has for caps fixed in it', async () => {
    const rows = await limitsRows();
    const valueOf = (limit: string): string => {
      const row = rows.find((candidate) => candidate.limit === limit);
      expect(row, `a Limits row "${limit}"`).toBeDefined();
      return row?.value ?? '';
    };
    const n = (value: number): string => value.toLocaleString('en-US');
    const fixed: [string, string][] = [
      ['approval expiry', `${APPROVAL_EXPIRY_MS / 1000} s`],
      ['memories retrieved per turn (`top_k`)', n(CHAT_TOP_K)],
      ['chat message', `${n(MAX_MESSAGE_CHARS)} characters`],
      ['`session_id`', `${MAX_SESSION_ID_CHARS} characters`],
      ['sessions live in process memory', n(DEFAULT_MAX_SESSIONS)],
      ['session history loaded on a first turn', `newest ${n(MAX_HISTORY_MESSAGES)} messages`],
      ['turns running or queued per chat socket', n(MAX_WAITING_TURNS)],
      ['WebSockets open at once (all endpoints)', n(MAX_OPEN_SOCKETS)],
      ['turns of one session running or waiting, however they came', n(MAX_QUEUED_TURNS)],
      ['short-term cache: messages per session', n(DEFAULT_MAX_ITEMS_PER_SESSION)],
      ['approvals waiting in one process', n(MAX_WAITING_APPROVALS)],
      ['push subscriptions', n(MAX_PUSH_SUBSCRIPTIONS)],
      ['models in the usage report', n(MAX_REPORTED_MODELS)],
      ['usage history retention', `${USAGE_HISTORY_RETENTION_DAYS} days`],
      [
        'usage history window (`GET /usage/history`)',
        `${MAX_HISTORY_DAYS} days; ${MAX_HOURLY_DAYS} with \`bucket=hour\``,
      ],
      ['model id kept in the usage history', `${MAX_MODEL_ID_CHARS} characters`],
      ['orchestrator nodes', n(MAX_NODES)],
      ['skill proposals waiting for review', n(MAX_PENDING_PROPOSALS)],
      ['turns running at once per channel', n(MAX_TURNS_PER_CHANNEL)],
    ];
    for (const [limit, shown] of fixed) expect(valueOf(limit).startsWith(shown), limit).toBe(true);
    expect(
      valueOf(
        'message ids kept against duplicates; chats kept for approval notices; rate-limit buckets',
      ),
    ).toContain(`${n(MAX_SESSION_CHATS)} sessions`);
  });
});
