import type { Logger } from '../observability/logger.ts';
import type { RedisLink } from '../redis/link.ts';

/**
 * Claims a network's message id among the gateways sharing Redis, so a push network's delivery
 * (a webhook) that reached two gateways — or was retried to another one — is answered once.
 * True when this gateway is first to claim it (or Redis did not answer: each gateway's own
 * de-duplication still applies, and a message is never dropped because Redis was down).
 */
export type MessageClaim = (key: string) => Promise<boolean>;

/** How long a claimed id is remembered (a network's redeliveries come within minutes). */
export const CLAIM_TTL_MS = 600_000;

export function createRedisMessageClaim(options: {
  link: RedisLink;
  gatewayId: string;
  logger: Logger;
  ttlMs?: number;
}): MessageClaim {
  return async (key) => {
    try {
      const set = await options.link.client.set(`hearth:seen:${key}`, options.gatewayId, {
        NX: true,
        PX: options.ttlMs ?? CLAIM_TTL_MS,
      });
      return set === 'OK';
    } catch (error) {
      options.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'message claim not checked in Redis: this gateway de-duplicates alone',
      );
      return true;
    }
  };
}
