import type { Logger } from 'pino';
import { estimateTokensOfLength } from '../providers/ports.ts';
import { contentHash } from './content-hash.ts';
import { HEARTH_ORIGIN, isUntrusted, leastTrusted, type MemoryOrigin } from './origin.ts';
import type {
  Compactor,
  Conversation,
  ConversationHistory,
  MemoryEntry,
  NewMemoryEntry,
} from './ports.ts';

export type { Compactor, Conversation } from './ports.ts';

/** Summarises text with the LLM (a background generation; its usage is recorded). */
export type Summarise = (text: string) => Promise<string>;

export interface CompactorDeps {
  summarise: Summarise;
  store: (entry: Omit<NewMemoryEntry, 'embedding'>) => Promise<MemoryEntry>;
  /**
   * The origins memory holds for these content hashes of the session (MemoryService.originsOf):
   * the summary takes the least trusted of them too. A lookup that fails makes the summary
   * untrusted (fail closed).
   */
  originsOf?: (sessionId: string, hashes: ReadonlySet<string>) => Promise<MemoryOrigin[]>;
  /** The stored history: what a compaction summarised is replaced there too (absent: none). */
  history?: Pick<ConversationHistory, 'summarised'>;
  logger: Logger;
}

/** The origin a summary gets when the origins of what it summarises cannot be looked up. */
const ORIGIN_LOOKUP_FAILED: MemoryOrigin = {
  trust: 'untrusted',
  sources: [{ kind: 'memory', name: 'origin lookup failed' }],
};

/** Compaction starts when the estimate passes this share of the context window. */
export const COMPACTION_THRESHOLD = 0.5;

/**
 * The estimate of the summary followed by the history's messages joined by newlines. Checked
 * after every turn, so it adds up lengths instead of building that text.
 */
export function conversationTokens(conversation: Conversation): number {
  const { history } = conversation;
  let chars = (conversation.summary ?? '').length + Math.max(0, history.length - 1);
  for (const message of history) chars += message.content.length;
  return estimateTokensOfLength(chars);
}

function transcript(conversation: Conversation, upTo: number): string {
  const lines = conversation.history.slice(0, upTo).map((m) => {
    if (m.role === 'tool') return `tool ${m.toolName}: ${m.content}`;
    return `${m.role}: ${m.content}`;
  });
  return [conversation.summary ? `Earlier summary: ${conversation.summary}` : '', ...lines]
    .filter(Boolean)
    .join('\n');
}

/**
 * Auto-compaction: summarise a session's history, store the summary long-term FIRST, and only
 * then replace the summarised part of the in-memory history (turns that arrive meanwhile are
 * kept). One compaction per session at a time. In the background, failures are logged and
 * swallowed and the history is left as it was.
 */
export function createCompactor(deps: CompactorDeps): Compactor {
  const running = new Map<string, Promise<boolean>>();

  /**
   * A summary is Hearth's writing from what it summarises: the least trusted of Hearth, the
   * conversation's origin (the earlier summary and what left the history before), the
   * summarised messages' own origins and the origins memory holds for them.
   */
  async function summaryOrigin(
    sessionId: string,
    conversation: Conversation,
    upTo: number,
  ): Promise<MemoryOrigin> {
    let remembered: MemoryOrigin[] = [];
    if (deps.originsOf) {
      const hashes = new Set(
        conversation.history.slice(0, upTo).map((m) => contentHash(m.content)),
      );
      try {
        remembered = await deps.originsOf(sessionId, hashes);
      } catch (error) {
        deps.logger.warn(
          { sessionId, err: error instanceof Error ? error.message : String(error) },
          'origins of the compacted messages unknown; the summary is marked untrusted',
        );
        remembered = [ORIGIN_LOOKUP_FAILED];
      }
    }
    return leastTrusted([
      HEARTH_ORIGIN,
      conversation.origin,
      ...conversation.history.slice(0, upTo).map((message) => message.origin),
      ...remembered,
    ]);
  }

  async function compact(sessionId: string, conversation: Conversation): Promise<boolean> {
    const upTo = conversation.history.length;
    if (upTo < 2) return false;
    const [written, origin] = await Promise.all([
      deps.summarise(transcript(conversation, upTo)),
      summaryOrigin(sessionId, conversation, upTo),
    ]);
    const summary = written.trim();
    if (summary === '') throw new Error('the summary came back empty');
    await deps.store({
      session_id: sessionId,
      content: summary,
      importance_score: 0.8,
      type: 'summary',
      origin,
    });
    const summarised = conversation.history.splice(0, upTo);
    conversation.summary = summary;
    // Absent means the owner's and Hearth's words only, which a trusted summary still is.
    if (conversation.origin !== undefined || isUntrusted(origin)) conversation.origin = origin;
    deps.logger.info({ sessionId, turns: upTo }, 'history compacted');
    await deps.history?.summarised(sessionId, conversation, summarised);
    return true;
  }

  return {
    needsCompaction(conversation: Conversation, contextWindow: number): boolean {
      return conversationTokens(conversation) > COMPACTION_THRESHOLD * contextWindow;
    },

    /** `/compact` and POST /memory/compact: compacts now and reports whether anything was compacted. */
    compact(sessionId: string, conversation: Conversation): Promise<boolean> {
      const current = running.get(sessionId);
      if (current) return current;
      const job = compact(sessionId, conversation).finally(() => running.delete(sessionId));
      running.set(sessionId, job);
      return job;
    },

    /** After a reply: compacts in the background when over the threshold; never throws. */
    compactInBackground(
      sessionId: string,
      conversation: Conversation,
      contextWindow: number,
    ): void {
      if (running.has(sessionId) || !this.needsCompaction(conversation, contextWindow)) return;
      this.compact(sessionId, conversation).catch((error: unknown) => {
        deps.logger.warn(
          { sessionId, err: error instanceof Error ? error.message : String(error) },
          'compaction failed; history kept',
        );
      });
    },

    /** Settles when every running compaction has finished (tests, shutdown). */
    async idle(): Promise<void> {
      await Promise.allSettled([...running.values()]);
    },
  };
}
