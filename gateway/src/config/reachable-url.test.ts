import { describe, expect, it } from 'vitest';
import { gatewayUrl } from './reachable-url.ts';

describe('gatewayUrl', () => {
  it.each([
    ['127.0.0.1', 7432, 'http://127.0.0.1:7432'],
    ['0.0.0.0', 7432, 'http://127.0.0.1:7432'],
    ['::', 8000, 'http://127.0.0.1:8000'],
    ['[::]', 8000, 'http://127.0.0.1:8000'],
    ['::1', 8000, 'http://[::1]:8000'],
    ['[::1]', 8000, 'http://[::1]:8000'],
    ['localhost', 1, 'http://localhost:1'],
  ])('%s:%d is reached at %s', (host, port, url) => {
    expect(gatewayUrl(host, port)).toBe(url);
  });
});
