import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, type HearthConfig } from './config/schema.ts';
import { statePaths } from './config/state-dir.ts';
import { createGateway } from './gateway.ts';
import { silentLogger } from './observability/logger.ts';

/**
 * The OpenAPI document a gateway with this config serves at `/openapi.json` (the defaults when
 * none is given), built on a temporary state directory without listening or starting anything:
 * what `scripts/generate-client.ts` turns into the clients' types.
 */
export async function openApiDocument(
  config: HearthConfig = configSchema.parse({}),
): Promise<Record<string, unknown>> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-openapi-'));
  try {
    const gateway = createGateway(config, {
      logger: silentLogger(),
      paths: statePaths(home),
      openDatabase: () => Promise.reject(new Error('not started')),
      secrets: { env: {}, readOnePassword: () => Promise.reject(new Error('not started')) },
    });
    await gateway.close();
    return gateway.openApi;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
