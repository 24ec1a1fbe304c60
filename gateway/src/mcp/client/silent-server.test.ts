import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../testing/gateway/test-gateway.ts';
import { FAST_TIMING } from '../testing/mcp-test-bed.ts';
import type { ExternalServerStatus } from '../ports.ts';

describe('an external server that never answers the handshake', { timeout: 120_000 }, () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({
      config: {
        mcp: {
          servers: [
            {
              name: 'mute',
              command: process.execPath,
              // Reads everything, says nothing.
              args: ['-e', 'process.stdin.resume()'],
              env: {},
              enabled: true,
            },
          ],
        },
      },
      mcpTiming: { ...FAST_TIMING, connectTimeoutMs: 1_500 },
    });
    await gw.gateway.whenReady();
  }, 60_000);

  afterAll(async () => {
    await gw.close();
  });

  it('is timed out, disconnected, reported, and retried with backoff; the gateway answers meanwhile', async () => {
    const read = async () =>
      (await (await fetch(`${gw.url}/api/v1/mcp/servers/mute`)).json()) as ExternalServerStatus;
    let status = await read();
    const end = Date.now() + 60_000;
    while (status.restarts < 1 && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await read();
    }
    expect(status.last_error).toMatch(/^could not connect: .*timed out/i);
    expect(status.tool_count).toBe(0);
    expect(status.restarts).toBeGreaterThanOrEqual(1);
    const health = await fetch(`${gw.url}/api/v1/status`);
    expect(health.status).toBe(200);
    const { backends } = (await health.json()) as { backends: Record<string, string> };
    expect(backends['mcp:mute']).toMatch(/0 tools; last error: could not connect/);
  });
});
