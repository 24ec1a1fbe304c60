import { createOnePasswordReader, resolveSecret, statePaths } from '@hearth/gateway/config';
import { readRawConfig } from './config-file.ts';
import type { CommandContext } from './deps.ts';
import { createGatewayClient, type GatewayClient } from './gateway-client.ts';
import { gatewayUrl } from './gateway-url.ts';
import { readPidFile } from './pid-file.ts';
import { isProcessAlive } from './process-alive.ts';

/**
 * A client for the gateway this machine runs: the URL recorded by `start --background` when
 * that gateway is alive, else the config's [gateway] host/port. The API key is read from the
 * config the gateway was started with (resolving ENV:/op://) only when a request needs it.
 */
export async function locateGateway(ctx: CommandContext): Promise<GatewayClient> {
  const { env } = ctx.deps;
  const record = await readPidFile(statePaths(env.home).pidFile);
  const live = record !== undefined && isProcessAlive(record.pid);
  const configPath = (live ? record.configPath : undefined) ?? ctx.configPath();

  let baseUrl = live ? record.url : undefined;
  if (baseUrl === undefined) {
    const config = await readRawConfig(configPath);
    baseUrl = gatewayUrl(config.gateway.host, config.gateway.port);
  }

  return createGatewayClient({
    baseUrl,
    fetch: ctx.deps.fetch,
    apiKey: async () => {
      const raw = (await readRawConfig(configPath)).gateway.api_key;
      if (raw === '') return undefined;
      return resolveSecret('gateway.api_key', raw, {
        env: env.variables,
        readOnePassword: createOnePasswordReader(env.variables),
      });
    },
  });
}
