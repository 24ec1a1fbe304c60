import type { Logger } from 'pino';
import type { ApprovalNotice, ApprovalNotices, NoticeListener, NoticeSurface } from './ports.ts';

export interface NoticeFanOut extends ApprovalNotices {
  /**
   * Shows a notice on every screen and chat at once; when no screen saw it, the fallbacks are
   * told too. True when a screen or a chat got it.
   */
  deliver(notice: ApprovalNotice): Promise<boolean>;
}

/** The surfaces approval notices go to; the gate delivers, the surfaces subscribe. */
export function createNoticeFanOut(logger: Logger): NoticeFanOut {
  const listeners: Record<NoticeSurface, Set<NoticeListener>> = {
    screen: new Set(),
    chat: new Set(),
    fallback: new Set(),
  };
  const showOn = (surface: NoticeSurface, notice: ApprovalNotice) =>
    Promise.all([...listeners[surface]].map((listener) => listener(notice).catch(() => false)));
  return {
    subscribe(surface, listener) {
      listeners[surface].add(listener);
      return () => listeners[surface].delete(listener);
    },
    async deliver(notice) {
      const [screens, chats] = await Promise.all([
        showOn('screen', notice),
        showOn('chat', notice),
      ]);
      const seen = screens.some(Boolean);
      if (!seen) {
        for (const listener of listeners.fallback) {
          await listener(notice).catch((error: unknown) => {
            logger.warn({ err: error }, 'approval push failed');
            return false;
          });
        }
      }
      return seen || chats.some(Boolean);
    },
  };
}
