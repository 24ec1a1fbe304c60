import { defineArea } from '../lifecycle/install.ts';
import { createConversationStore } from './conversations.ts';
import { conversationSockets } from './local-sockets.ts';
import type { SessionsArea, SessionsOptions } from './ports.ts';

/** Live sessions in process memory, evicted when idle (their memories stay in the tiers). */
export const sessions = defineArea(
  'sessions',
  (kernel, _needs: object, options: SessionsOptions | undefined): SessionsArea => {
    const conversations = createConversationStore({
      idleTimeoutMs: kernel.config.gateway.session_idle_timeout_minutes * 60_000,
      now: kernel.now,
      maxSessions: options?.maxLiveSessions,
      onQueueFull: () => kernel.metrics.sessionTurnsRefusedTotal.inc(),
    });
    return {
      name: 'sessions',
      conversations,
      localSockets: conversationSockets(conversations),
      close: () => conversations.close(),
    };
  },
);
