import { silentLogger } from '../../observability/logger.ts';
import { busKey, createBusSeal, type BusSeal } from '../bus-seal.ts';

/** The `[gateway] cluster_secret` of test gateways that trust one another. */
export const TEST_CLUSTER_SECRET = 'test-cluster-secret-0123456789abcdef0123456789';

/** A seal as a gateway with `secret` has it (each gateway its own replay memory). */
export function testSeal(secret = TEST_CLUSTER_SECRET, now?: () => number): BusSeal {
  return createBusSeal({ key: busKey(secret), logger: silentLogger(), now });
}
