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

export function clientId(): string {
  let id = localStorage.getItem(CLIENT_ITEM);
  if (!id || !/^[\w.-]{1,128}$/.test(id)) {
    id = crypto.randomUUID();
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
