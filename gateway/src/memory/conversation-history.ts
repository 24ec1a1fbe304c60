/**
 * A session's history outlives the process: what the chat appends is stored
 * (`ConversationHistoryStore`, the `conversation_messages` table), a conversation this process
 * has not seen yet is filled from it on its first turn, compaction replaces what it summarised,
 * and DELETE /sessions/{id} deletes it. Each message keeps its origin, so what a restored
 * history was made from comes back with it.
 */
import type { Logger } from 'pino';
import { isUntrusted, leastTrusted } from './origin.ts';
import type {
  Conversation,
  ConversationHistory,
  ConversationHistoryStore,
  HistoryMessage,
} from './ports.ts';

/**
 * Messages a stored history is loaded with at most (the newest). Older ones are left out of
 * the history sent upstream; the untrusted origins among them go to the conversation's origin.
 */
export const MAX_HISTORY_MESSAGES = 1_000;

export interface ConversationHistoryDeps {
  store: () => ConversationHistoryStore;
  logger: Logger;
  /** Default MAX_HISTORY_MESSAGES (tests lower it). */
  limit?: number;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createConversationHistory(deps: ConversationHistoryDeps): ConversationHistory {
  const limit = deps.limit ?? MAX_HISTORY_MESSAGES;
  const restored = new WeakSet<Conversation>();
  /** Stored ids of the messages appended or loaded here (a compaction deletes up to one). */
  const ids = new WeakMap<HistoryMessage, number>();
  /** Appends still being written, by session: a load or a compaction waits for them. */
  const writing = new Map<string, Promise<void>>();

  const settled = (sessionId: string): Promise<void> => writing.get(sessionId) ?? Promise.resolve();

  return {
    async restore(sessionId, conversation) {
      if (restored.has(conversation)) return;
      restored.add(conversation);
      await settled(sessionId);
      let loaded: Awaited<ReturnType<ConversationHistoryStore['load']>>;
      try {
        loaded = await deps.store().load(sessionId, limit);
      } catch (error) {
        deps.logger.warn(
          { sessionId, err: reason(error) },
          'stored conversation history unreadable; the session goes on without it',
        );
        return;
      }
      const messages: HistoryMessage[] = [];
      for (const stored of loaded.messages) {
        if (stored.role === 'summary') continue;
        const message: HistoryMessage = {
          role: stored.role,
          content: stored.content,
          ...(isUntrusted(stored.origin) && stored.origin ? { origin: stored.origin } : {}),
        };
        ids.set(message, stored.id);
        messages.push(message);
      }
      conversation.history.splice(0, 0, ...messages);
      if (loaded.summary !== null && conversation.summary === null)
        conversation.summary = loaded.summary.content;
      const untrusted = [loaded.summary?.origin, ...loaded.earlier].filter(isUntrusted);
      if (untrusted.length > 0)
        conversation.origin = leastTrusted([conversation.origin, ...untrusted]);
      if (loaded.truncated)
        deps.logger.warn(
          { sessionId, kept: limit },
          `stored conversation history is longer than ${limit} messages; the older ones are left out`,
        );
    },

    append(sessionId, messages) {
      const storable = messages.filter(
        (message): message is HistoryMessage & { role: 'user' | 'assistant' } =>
          message.role === 'user' || message.role === 'assistant',
      );
      if (storable.length === 0) return Promise.resolve();
      const write = settled(sessionId)
        .then(() =>
          deps.store().append(
            sessionId,
            storable.map((message) => ({
              role: message.role,
              content: message.content,
              origin: message.origin ?? null,
            })),
          ),
        )
        .then(
          (stored) => storable.forEach((message, i) => ids.set(message, stored[i] ?? 0)),
          (error: unknown) =>
            deps.logger.warn({ sessionId, err: reason(error) }, 'conversation history not stored'),
        );
      const tail = write.finally(() => {
        if (writing.get(sessionId) === tail) writing.delete(sessionId);
      });
      writing.set(sessionId, tail);
      return tail;
    },

    async summarised(sessionId, conversation, summarised) {
      await settled(sessionId);
      let upTo = 0;
      for (const message of summarised) upTo = Math.max(upTo, ids.get(message) ?? 0);
      try {
        await deps.store().summarise(sessionId, upTo, {
          content: conversation.summary ?? '',
          origin: isUntrusted(conversation.origin) ? (conversation.origin ?? null) : null,
        });
      } catch (error) {
        deps.logger.warn(
          { sessionId, err: reason(error) },
          'compacted history not stored; the stored messages stay as they were',
        );
      }
    },

    async clear(sessionId) {
      await settled(sessionId);
      return deps.store().clear(sessionId);
    },

    async read(sessionId, wanted) {
      await settled(sessionId);
      const { summary, messages, truncated } = await deps.store().load(sessionId, wanted);
      return { summary, messages, truncated };
    },

    async dropLastExchange(sessionId, conversation) {
      const history = conversation.history;
      let last = history.length - 1;
      while (last >= 0 && history[last]?.role !== 'user') last -= 1;
      if (last < 0) return false;
      history.splice(last);
      await settled(sessionId);
      await deps.store().dropLastExchange(sessionId);
      return true;
    },

    titles: (sessionIds) => deps.store().titles(sessionIds),
    setTitle: (sessionId, title) => deps.store().setTitle(sessionId, title),
    async sessions(query) {
      await Promise.all(writing.values());
      return deps.store().sessions(query);
    },
  };
}
