import type { Logger } from '../observability/logger.ts';
import type { RedisLink } from '../redis/link.ts';
import type { BusSeal } from './bus-seal.ts';

/**
 * Claims a network's message id among the gateways sharing Redis, so a push network's delivery
 * (a webhook) that reached two gateways — or was retried to another one — is answered once.
 * True when this gateway is first to claim it (or Redis did not answer: each gateway's own
 * de-duplication still applies, and a message is never dropped because Redis was down).
 */
export type MessageClaim = (key: string) => Promise<boolean>;

/** How long a claimed id is remembered (a network's redeliveries come within minutes). */
export const CLAIM_TTL_MS = 600_000;

/**
 * KEYS: the claim. ARGV: the signed claim value, TTL ms. 0 when a gateway already claimed it
 * (the value is the genuine one); otherwise the claim is taken (a value nobody signed, written
 * by something that is not a gateway to make the message look handled, is replaced) and 1.
 */
const CLAIM_SIGNED = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

export function createRedisMessageClaim(options: {
  link: RedisLink;
  gatewayId: string;
  logger: Logger;
  ttlMs?: number;
  /**
   * With the cluster secret: a claim counts only when a gateway signed it (the same value on
   * every gateway for one key), so a forger cannot make a message look handled in advance.
   */
  seal?: BusSeal;
}): MessageClaim {
  const ttlMs = options.ttlMs ?? CLAIM_TTL_MS;
  return async (key) => {
    const claimKey = `hearth:seen:${key}`;
    try {
      if (options.seal) {
        const taken = await options.link.client.eval(CLAIM_SIGNED, {
          keys: [claimKey],
          arguments: [options.seal.sign(claimKey, 'claimed'), String(ttlMs)],
        });
        return taken === 1;
      }
      const set = await options.link.client.set(claimKey, options.gatewayId, {
        NX: true,
        PX: ttlMs,
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
