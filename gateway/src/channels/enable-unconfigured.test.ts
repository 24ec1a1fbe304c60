/**
 * Channel states: "Operations enable, disable (graceful disconnect), reconnect. Enable needs
 * the channel to be configured." Through REST on a gateway with no channel configured.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

describe('a channel that is not configured', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());

  it.each(['enable', 'disable', 'reconnect'])(
    'cannot be switched with POST /channels/{name}/%s: 404 naming it, nothing configured',
    async (operation) => {
      const configBefore = await readFile(join(bed.gw.home, 'config.toml'), 'utf8').catch(
        () => null,
      );
      const answer = await bed.post(`/channels/telegram/${operation}`, {});
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toMatch(/telegram/);
      expect((await bed.get('/channels')).body).toMatchObject({ channels: [] });
      expect(await readFile(join(bed.gw.home, 'config.toml'), 'utf8').catch(() => null)).toBe(
        configBefore,
      );
      // Still no channel configured: readiness has no channel_connected check.
      const ready = await fetch(`${bed.gw.url}/ready`);
      expect(await ready.json()).toEqual({ ready: true, checks: { phase: true, runtime: true } });
    },
  );
});
