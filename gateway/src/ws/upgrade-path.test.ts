import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { withoutTrailingSlashes } from './socket-router.ts';

/** Sends a raw WebSocket upgrade for `path`; resolves with the status line of the answer. */
function upgrade(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer.split('\r\n', 1)[0] ?? ''));
    socket.on('error', reject);
    socket.end(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\n` +
        'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
  });
}

describe('the upgrade path of a WebSocket request', () => {
  let gw: TestGateway;
  beforeAll(async () => void (gw = await startTestGateway()));
  afterAll(() => gw.close());

  // Before anything is authenticated: `/\/+$/` took 0.5 s on a path of 16 K slashes.
  it('is read in linear time, whatever run of slashes it carries', async () => {
    expect(await upgrade(gw.port, '/nowhere')).toBe('HTTP/1.1 404 Not Found');
    const started = performance.now();
    expect(await upgrade(gw.port, `/ws${'/'.repeat(15_000)}x`)).toBe('HTTP/1.1 404 Not Found');
    // Generous over a socket on a busy machine; the direct check below is the sharp one.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('drops trailing slashes in linear time (a million slashes before the end)', () => {
    const path = `/ws${'/'.repeat(1_000_000)}x`;
    const started = performance.now();
    expect(withoutTrailingSlashes(path)).toBe(path);
    expect(withoutTrailingSlashes('/ws///')).toBe('/ws');
    // `/\/+$/` needs minutes here; the loop, a few milliseconds.
    expect(performance.now() - started).toBeLessThan(200);
  });
});
