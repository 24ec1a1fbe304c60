/**
 * Edit and resend forgets the replaced turn in memory too: what `rememberTurn` wrote for each
 * exchange of a live history is kept here, by the exchange's user message, so the replaced
 * turn's own short-term items and long-term row are removed, never another turn's copy of the
 * same text. A turn's memory is written after its reply (in the background): forgetting it
 * waits for that write first.
 */
import type { HistoryMessage, MemoryService, RememberedTurn } from '../memory/ports.ts';

export interface RememberedTurns {
  /** Records the memory write of the exchange that starts with `user`. */
  track(user: HistoryMessage, written: Promise<RememberedTurn | null>): void;
  /**
   * Forgets in memory the exchange `dropped` (its user message, then its reply if any), after
   * its memory write. A turn of an earlier run is forgotten by its text (MemoryService.forgetTurn).
   */
  forget(sessionId: string, dropped: readonly HistoryMessage[]): Promise<number>;
}

export function createRememberedTurns(memory: () => MemoryService): RememberedTurns {
  const written = new WeakMap<HistoryMessage, Promise<RememberedTurn | null>>();
  return {
    track(user, write) {
      written.set(user, write);
    },
    async forget(sessionId, dropped) {
      const [user, reply] = dropped;
      if (user === undefined || reply?.role !== 'assistant') return 0;
      const tracked = written.get(user);
      written.delete(user);
      const remembered = tracked === undefined ? undefined : await tracked;
      // A write that failed left nothing this run can name: forgotten by text as a fallback.
      return memory().forgetTurn(
        { sessionId, user: user.content, assistant: reply.content },
        remembered ?? undefined,
      );
    },
  };
}
