import { describe, expect, it } from 'vitest';
import { startChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { callTool, connected, FAST_TIMING, send, stdioEntry } from '../testing/mcp-test-bed.ts';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('external stdio servers end with the gateway', { timeout: 120_000 }, () => {
  it('a removed server’s process is gone when DELETE answers, every other one when the gateway closes', async () => {
    const bed = await startChatTestBed(undefined, {
      config: {
        security: { security: 'full' },
        mcp: { servers: [stdioEntry('a'), stdioEntry('b')] },
      },
      mcpTiming: FAST_TIMING,
    });
    try {
      await Promise.all([connected(bed, 'a'), connected(bed, 'b')]);
      const pidA = Number((await callTool(bed, 'a__pid')).body.content);
      const pidB = Number((await callTool(bed, 'b__pid')).body.content);
      expect(alive(pidA) && alive(pidB)).toBe(true);
      expect((await send(bed, 'DELETE', '/mcp/servers/a')).status).toBe(200);
      expect(alive(pidA)).toBe(false);
      await bed.close();
      expect(alive(pidB)).toBe(false);
    } finally {
      await bed.close().catch(() => undefined);
    }
  });
});
