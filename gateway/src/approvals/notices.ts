import type { Logger } from 'pino';
import type {
  ApprovalDecided,
  ApprovalNotice,
  ApprovalNotices,
  NoticeListener,
  NoticeSurface,
} from './ports.ts';

export interface NoticeFanOut extends ApprovalNotices {
  /**
   * Shows a notice on every screen and chat at once; when no screen saw it, the fallbacks are
   * told too. True when a screen or a chat got it.
   */
  deliver(notice: ApprovalNotice): Promise<boolean>;
  /** Tells the decided listeners; one that throws does not keep the others from hearing it. */
  decided(decided: ApprovalDecided): void;
}

/** The surfaces approval notices go to; the gate delivers, the surfaces subscribe. */
export function createNoticeFanOut(logger: Logger): NoticeFanOut {
  const listeners: Record<NoticeSurface, Set<NoticeListener>> = {
    screen: new Set(),
    chat: new Set(),
    fallback: new Set(),
  };
  const decidedListeners = new Set<(decided: ApprovalDecided) => void>();
  const showOn = (surface: NoticeSurface, notice: ApprovalNotice) =>
    Promise.all([...listeners[surface]].map((listener) => listener(notice).catch(() => false)));
  return {
    subscribe(surface, listener) {
      listeners[surface].add(listener);
      return () => listeners[surface].delete(listener);
    },
    subscribeDecided(listener) {
      decidedListeners.add(listener);
      return () => decidedListeners.delete(listener);
    },
    decided(decided) {
      for (const listener of decidedListeners) {
        try {
          listener(decided);
        } catch (error) {
          logger.warn({ err: error }, 'approval decision listener failed');
        }
      }
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
