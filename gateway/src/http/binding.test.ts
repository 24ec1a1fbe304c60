import { describe, expect, it } from 'vitest';
import { statePaths } from '../config/state-dir.ts';
import { createGateway } from '../gateway.ts';
import { silentLogger } from '../observability/logger.ts';
import { testConfig } from '../testing/gateway/test-gateway.ts';
import { isLoopbackHost } from './binding.ts';

const deps = {
  logger: silentLogger(),
  paths: statePaths('/tmp/hearth-never-used'),
  openDatabase: () => Promise.reject(new Error('not opened in this test')),
  secrets: { env: {}, readOnePassword: () => Promise.reject(new Error('unused')) },
};

describe('binding a non-loopback address', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])(
    'treats %s as loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.lan', '128.0.0.1'])(
    'treats %s as exposed',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );

  it('is refused without an API key, naming the way out', () => {
    expect(() => createGateway(testConfig({ gateway: { host: '0.0.0.0' } }), deps)).toThrow(
      /Refusing to bind 0\.0\.0\.0 without authentication: set \[gateway\] api_key/,
    );
  });

  it('is allowed with an API key or with allow_unauthenticated = true', () => {
    expect(() =>
      createGateway(testConfig({ gateway: { host: '0.0.0.0', api_key: 'k' } }), deps),
    ).not.toThrow();
    expect(() =>
      createGateway(
        testConfig({ gateway: { host: '0.0.0.0', allow_unauthenticated: true } }),
        deps,
      ),
    ).not.toThrow();
  });
});
