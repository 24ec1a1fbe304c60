/**
 * What the page remembers: the API key in session storage only (gone when the tab closes),
 * and the persistent client id in local storage (the gateway's durable memory identity for
 * this browser).
 */
const KEY_ITEM = 'hearth.api_key';
const CLIENT_ITEM = 'hearth.client_id';

export function storedKey(): string | undefined {
  return sessionStorage.getItem(KEY_ITEM) ?? undefined;
}

export function storeKey(key: string | undefined): void {
  if (key === undefined) sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

/**
 * A random UUID v4. `crypto.randomUUID` exists only in a secure context; a page served over
 * plain http from another host (a LAN address) has `getRandomValues`, which makes the same.
 */
function randomUuid(): string {
  if (window.isSecureContext) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function clientId(): string {
  let id = localStorage.getItem(CLIENT_ITEM);
  if (!id || !/^[\w.-]{1,128}$/.test(id)) {
    id = randomUuid();
    localStorage.setItem(CLIENT_ITEM, id);
  }
  return id;
}

/** `hearth.key.<base64url(key)>`: how a browser WebSocket carries the key. */
export function keyProtocol(key: string): string {
  const bytes = new TextEncoder().encode(key);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `hearth.key.${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}
