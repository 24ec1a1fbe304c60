import type { IncomingMessage } from 'node:http';

/** The subprotocol prefix a browser uses to send a secret it cannot put in a header. */
export const KEY_PROTOCOL_PREFIX = 'hearth.key.';

/** The subprotocol carrying `secret`: `hearth.key.<base64url(secret)>`. */
export function keyProtocol(secret: string): string {
  return `${KEY_PROTOCOL_PREFIX}${Buffer.from(secret, 'utf8').toString('base64url')}`;
}

/**
 * The secret (API key or local terminal token) a WebSocket client presents: header
 * `X-API-Key`, else the first subprotocol `hearth.key.<base64url(secret)>`, with that protocol
 * so the handshake can select it.
 */
export function presentedSecret(
  request: IncomingMessage,
): { value: string; protocol?: string } | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string') return { value: header };
  const protocol = (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .find((p) => p.startsWith(KEY_PROTOCOL_PREFIX));
  if (protocol === undefined) return undefined;
  return {
    value: Buffer.from(protocol.slice(KEY_PROTOCOL_PREFIX.length), 'base64url').toString('utf8'),
    protocol,
  };
}
