import type { LocalSessionSockets } from '../scale-out/ports.ts';
import type { ConversationStore } from './ports.ts';

/** The sockets of the live sessions in `conversations`. */
export function conversationSockets(conversations: ConversationStore): LocalSessionSockets {
  return {
    deliver(sessionId, frame) {
      const connections = conversations.peek(sessionId)?.connections;
      if (!connections) return 0;
      for (const connection of connections) connection.send(frame);
      return connections.size;
    },
    has: (sessionId) => conversations.hasConnections(sessionId),
    sessions: () =>
      conversations
        .list()
        .filter((state) => state.connections.size > 0)
        .map((state) => state.id),
    watch: (listener) => conversations.watchPresence(listener),
    clear: (sessionId) => conversations.delete(sessionId),
  };
}
