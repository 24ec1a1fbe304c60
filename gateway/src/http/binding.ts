import { isIP } from 'node:net';
import { HearthError } from '../errors.ts';
import type { GatewayConfig } from '../config/schema.ts';

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/**
 * Refuses to expose an unauthenticated gateway: binding anything but a loopback address needs
 * `[gateway] api_key`, or an explicit `allow_unauthenticated = true` (for a trusted network or
 * a reverse proxy that authenticates).
 */
export function assertSafeBinding(
  gateway: Pick<GatewayConfig, 'host' | 'api_key' | 'allow_unauthenticated'>,
): void {
  if (isLoopbackHost(gateway.host) || gateway.api_key !== '' || gateway.allow_unauthenticated)
    return;
  throw new HearthError(
    'forbidden',
    `Refusing to bind ${gateway.host} without authentication: set [gateway] api_key in config.toml ` +
      '(clients then send X-API-Key), bind 127.0.0.1, or set allow_unauthenticated = true if a ' +
      'trusted proxy or network protects the gateway.',
  );
}
