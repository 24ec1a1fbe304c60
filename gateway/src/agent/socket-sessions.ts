import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sessionIdFor } from '../memory/ports.ts';
import type { ConversationStore, SessionState } from '../sessions/ports.ts';

/**
 * Which chat sockets may name which sessions. A socket is bound to its own sessions: the one it
 * was given at connect — the client id's durable session `web:<client_id>` (the client id is
 * the browser's or CLI's persistent identity), or else a fresh `ws-<uuid>` (an id of that shape
 * is never created by naming it) — and any session it created by naming an id nobody used yet. Naming a session that exists and belongs to another
 * holder (another client id, another connection, a REST conversation) is refused. Connections
 * that present the same client id are the same holder, so a client that reconnects keeps its
 * sessions.
 */
export interface SocketSessionBinding {
  /** The session this connection was given. */
  readonly given: string;
  /** Whether this connection may use the session (claiming it when it is new or unused). */
  mayUse(sessionId: string): boolean;
}

/** The shape of the sessions given to connections without a client id. */
const GIVEN_ID = /^ws-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Owners by session state: they leave with the session when it is evicted or cleared. */
export type SessionOwners = WeakMap<SessionState, string>;

/** The web client's persistent id (`?client_id=`), its durable memory identity. */
export function clientIdOf(request: IncomingMessage): string | undefined {
  const id = new URL(request.url ?? '/', 'http://gateway').searchParams.get('client_id');
  return id && /^[\w.-]{1,128}$/.test(id) ? id : undefined;
}

export function bindSocketSessions(
  owners: SessionOwners,
  request: IncomingMessage,
  sessions: Pick<ConversationStore, 'get' | 'peek'>,
): SocketSessionBinding {
  const clientId = clientIdOf(request);
  const holder = clientId ? `client:${clientId}` : `connection:${randomUUID()}`;
  const given = clientId ? sessionIdFor('web', clientId) : `ws-${randomUUID()}`;
  const claim = (state: SessionState) => {
    owners.set(state, holder);
    return true;
  };
  return {
    given,
    mayUse(sessionId) {
      if (sessionId === given) return claim(sessions.get(sessionId));
      const state = sessions.peek(sessionId);
      // `ws-<uuid>` ids are only ever given: naming one never creates it.
      if (state === undefined) return !GIVEN_ID.test(sessionId) && claim(sessions.get(sessionId));
      const owner = owners.get(state);
      if (owner !== undefined) return owner === holder;
      const unused =
        state.messageCount === 0 &&
        state.connections.size === 0 &&
        state.conversation.history.length === 0;
      return unused && claim(state);
    },
  };
}

/** The error detail for a session a socket may not name. */
export function foreignSessionDetail(sessionId: string): string {
  return (
    `session_id: ${JSON.stringify(sessionId.slice(0, 64))} belongs to another connection; ` +
    'omit it to use this connection’s own session, or name a new one'
  );
}
