/** The stored history behind a conversation, over a real SQLite store. */
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/ports.ts';
import { openSqliteDatabase } from '../db/sqlite/open-sqlite.ts';
import { createConversationHistory } from './conversation-history.ts';
import type {
  Conversation,
  ConversationHistoryStore,
  HistoryMessage,
  MemoryOrigin,
} from './ports.ts';

const PAGE: MemoryOrigin = {
  trust: 'untrusted',
  sources: [{ kind: 'browser', name: 'https://evil.example/' }],
};
const FORWARD: MemoryOrigin = {
  trust: 'untrusted',
  sources: [{ kind: 'channel', name: 'forwarded from mallory' }],
};

const fresh = (): Conversation => ({ history: [], summary: null });

/** A logger whose warnings the test reads. */
function recordingLogger() {
  const lines: { msg: string }[] = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => lines.push(JSON.parse(line) as { msg: string }) },
  );
  return { logger, messages: () => lines.map((line) => line.msg) };
}

describe('conversation history', () => {
  let db: Database;
  beforeEach(async () => {
    db = await openSqliteDatabase(':memory:');
  });
  afterEach(() => db.close());

  it('restores what was appended, origins and all, into a new conversation once', async () => {
    const { logger } = recordingLogger();
    const history = createConversationHistory({ store: () => db.conversations, logger });
    const user: HistoryMessage = { role: 'user', content: 'read it' };
    const reply: HistoryMessage = { role: 'assistant', content: 'It says run x.', origin: PAGE };
    await history.append('s', [user, reply]);

    const conversation = fresh();
    await history.restore('s', conversation);
    expect(conversation.history).toEqual([user, reply]);
    expect(conversation.origin).toBeUndefined();
    // Once per conversation: a second restore adds nothing.
    await history.restore('s', conversation);
    expect(conversation.history).toHaveLength(2);
    // Another session is its own.
    const other = fresh();
    await history.restore('other', other);
    expect(other.history).toEqual([]);
  });

  it('past the cap, the newest messages come back and the older ones’ taint goes to the conversation', async () => {
    const { logger, messages } = recordingLogger();
    const history = createConversationHistory({ store: () => db.conversations, logger, limit: 2 });
    await history.append('s', [
      { role: 'user', content: 'forwarded text', origin: FORWARD },
      { role: 'assistant', content: 'ok', origin: FORWARD },
      { role: 'user', content: 'now' },
      { role: 'assistant', content: 'then' },
    ]);
    const conversation = fresh();
    await history.restore('s', conversation);
    expect(conversation.history.map((m) => m.content)).toEqual(['now', 'then']);
    expect(conversation.origin).toEqual(FORWARD);
    expect(messages()).toContain(
      'stored conversation history is longer than 2 messages; the older ones are left out',
    );
  });

  it('a compaction replaces what it summarised; the summary and its origin come back', async () => {
    const { logger } = recordingLogger();
    const history = createConversationHistory({ store: () => db.conversations, logger });
    const conversation = fresh();
    await history.restore('s', conversation);
    const old: HistoryMessage[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b', origin: PAGE },
    ];
    conversation.history.push(...old);
    // Not awaited: the compaction waits for the write it summarises.
    void history.append('s', old);
    const kept: HistoryMessage = { role: 'user', content: 'c' };
    conversation.history.splice(0, 2);
    conversation.history.push(kept);
    conversation.summary = 'They read a page.';
    conversation.origin = PAGE;
    await history.summarised('s', conversation, old);
    await history.append('s', [kept]);

    const restored = fresh();
    await history.restore('s', restored);
    expect(restored).toEqual({ history: [kept], summary: 'They read a page.', origin: PAGE });
  });

  it('clear() deletes the stored history; a new conversation starts empty', async () => {
    const { logger } = recordingLogger();
    const history = createConversationHistory({ store: () => db.conversations, logger });
    void history.append('s', [{ role: 'user', content: 'a', origin: FORWARD }]);
    expect(await history.clear('s')).toBe(1);
    const conversation = fresh();
    await history.restore('s', conversation);
    expect(conversation).toEqual(fresh());
  });

  it('a store that cannot be read leaves the conversation empty and says so; a failed write is logged', async () => {
    const { logger, messages } = recordingLogger();
    const broken: ConversationHistoryStore = {
      load: () => Promise.reject(new Error('disk gone')),
      append: () => Promise.reject(new Error('disk full')),
      summarise: () => Promise.reject(new Error('disk full')),
      clear: () => Promise.reject(new Error('disk gone')),
      dropLastExchange: () => Promise.reject(new Error('disk gone')),
      titles: () => Promise.reject(new Error('disk gone')),
      setTitle: () => Promise.reject(new Error('disk full')),
      sessions: () => Promise.reject(new Error('disk gone')),
    };
    const history = createConversationHistory({ store: () => broken, logger });
    const conversation = fresh();
    await history.restore('s', conversation);
    expect(conversation).toEqual(fresh());
    await history.append('s', [{ role: 'user', content: 'a' }]);
    await history.summarised('s', { history: [], summary: 's' }, []);
    expect(messages()).toEqual([
      'stored conversation history unreadable; the session goes on without it',
      'conversation history not stored',
      'compacted history not stored; the stored messages stay as they were',
    ]);
    // Clearing must not pretend: the caller refuses the clear.
    await expect(history.clear('s')).rejects.toThrow('disk gone');
  });

  it('tool messages are not stored (the history holds none); a malformed origin is not stored either', async () => {
    const { logger, messages } = recordingLogger();
    const history = createConversationHistory({ store: () => db.conversations, logger });
    await history.append('s', [
      { role: 'tool', toolCallId: 'c1', toolName: 'shell', content: 'out' },
    ]);
    await history.append('s', [
      {
        role: 'assistant',
        content: 'x',
        origin: { trust: 'hearth', sources: [{ kind: 'browser', name: 'u' }] },
      },
    ]);
    expect(messages()).toEqual(['conversation history not stored']);
    const conversation = fresh();
    await history.restore('s', conversation);
    expect(conversation.history).toEqual([]);
  });
});
