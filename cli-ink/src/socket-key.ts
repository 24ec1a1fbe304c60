/**
 * The WebSocket subprotocol that carries the API key (or the terminal's local token):
 * `hearth.key.<base64url(secret)>`. The gateway selects it in the handshake; a subprotocol
 * works with the standard WebSocket API, which cannot set headers.
 */
export function keyProtocol(secret: string): string {
  return `hearth.key.${Buffer.from(secret, 'utf8').toString('base64url')}`;
}
