import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import {
  deleteKeys,
  requireRedis,
  testRedisUrl,
} from '../memory/short-term/testing/redis-server.ts';
import { silentLogger } from '../observability/logger.ts';
import { createRedisLink } from '../redis/link.ts';
import { CONFORMANCE_LIMITS, runCanvasStoreConformance } from './conformance.ts';
import { createRedisCanvasStore } from './redis.ts';
import { testSeal } from '../scale-out/testing/test-seal.ts';

const url = testRedisUrl(process.env);
const runPrefix = `hearth:canvas:test-${randomBytes(6).toString('hex')}:`;
let stores = 0;

beforeAll(async () => {
  await requireRedis(url);
});

afterAll(async () => {
  await deleteKeys(url, runPrefix);
});

runCanvasStoreConformance('redis', async () => {
  stores += 1;
  const logger = silentLogger();
  return createRedisCanvasStore({
    link: await createRedisLink({ url, logger }),
    limits: CONFORMANCE_LIMITS,
    logger,
    seal: testSeal(),
    keyPrefix: `${runPrefix}${stores}:`,
  });
});
