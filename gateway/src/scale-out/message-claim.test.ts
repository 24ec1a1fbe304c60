import { describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { createRedisMessageClaim } from './message-claim.ts';
import type { RedisLink } from '../redis/link.ts';

/** A link whose client answers SET like Redis does (or fails like a Redis that went away). */
function linkAnswering(set: (key: string, options: unknown) => Promise<string | null>): RedisLink {
  return {
    client: { set: (key: string, _value: string, options: unknown) => set(key, options) },
  } as never;
}

describe('claiming a message id among gateways', () => {
  it('is SET NX with a ten-minute expiry under hearth:seen:, true only for the first claim', async () => {
    const keys = new Set<string>();
    const calls: unknown[] = [];
    const claim = createRedisMessageClaim({
      link: linkAnswering((key, options) => {
        calls.push({ key, options });
        if (keys.has(key)) return Promise.resolve(null);
        keys.add(key);
        return Promise.resolve('OK');
      }),
      gatewayId: 'g1',
      logger: silentLogger(),
    });
    expect(await claim('hooks:m-1')).toBe(true);
    expect(await claim('hooks:m-1')).toBe(false);
    expect(await claim('hooks:m-2')).toBe(true);
    expect(calls[0]).toEqual({ key: 'hearth:seen:hooks:m-1', options: { NX: true, PX: 600_000 } });
  });

  it('never drops a message because Redis did not answer', async () => {
    const claim = createRedisMessageClaim({
      link: linkAnswering(() => Promise.reject(new Error('The client is closed'))),
      gatewayId: 'g1',
      logger: silentLogger(),
    });
    expect(await claim('hooks:m-1')).toBe(true);
  });
});
