import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sessionIdFor } from '../memory/ports.ts';

/**
 * Which session a chat socket talks in. A connection starts in the session it is given: the
 * client id's durable session `web:<client_id>` (the client id is the browser's or CLI's
 * persistent identity), or else a fresh `ws-<uuid>`. A `session_id` it names (a `/ws` chat
 * frame, a `/ws/chat` hello) continues that session, whoever used it before: another
 * connection, an earlier one of the same client, a REST client (`default`), before a restart
 * or an idle eviction (the spec's rule 8: session identity survives both). Session ids are
 * names, not credentials: whoever may open a chat socket may already continue any session over
 * REST (`POST /chat` with its `session_id`) and list them (`GET /sessions`), and with
 * `gateway.api_key` set every socket needs the key as every REST call does.
 */
export function givenSession(request: IncomingMessage): string {
  const clientId = clientIdOf(request);
  return clientId ? sessionIdFor('web', clientId) : `ws-${randomUUID()}`;
}

/** The web client's persistent id (`?client_id=`), its durable memory identity. */
export function clientIdOf(request: IncomingMessage): string | undefined {
  const id = new URL(request.url ?? '/', 'http://gateway').searchParams.get('client_id');
  return id && /^[\w.-]{1,128}$/.test(id) ? id : undefined;
}
