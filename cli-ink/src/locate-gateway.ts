import { readGatewayAddress } from '@hearth/gateway/gateway-address';
import { createOnePasswordReader } from '@hearth/gateway/one-password';
import { resolveSecret } from '@hearth/gateway/secrets';
import { statePaths } from '@hearth/gateway/state-dir';
import type { CommandContext } from './deps.ts';
import { createGatewayClient, type GatewayClient } from './gateway-client.ts';
import { gatewayUrl } from './gateway-url.ts';
import { readPidFile } from './pid-file.ts';
import { isProcessAlive } from './process-alive.ts';

/**
 * A client for the gateway this machine runs: the URL recorded by `start --background` when
 * that gateway is alive, else the config's [gateway] host/port. The API key is read from the
 * config the gateway was started with (resolving ENV:/op://) only when a request needs it. Only
 * those three values are read (not the whole schema), so a command that just asks the gateway
 * starts fast.
 */
export async function locateGateway(
  ctx: CommandContext,
  options: { timeoutMs?: number } = {},
): Promise<GatewayClient> {
  const { env } = ctx.deps;
  const record = await readPidFile(statePaths(env.home).pidFile);
  const live = record !== undefined && isProcessAlive(record.pid);
  const configPath = (live ? record.configPath : undefined) ?? ctx.configPath();

  let baseUrl = live ? record.url : undefined;
  if (baseUrl === undefined) {
    const address = await readGatewayAddress(configPath);
    baseUrl = gatewayUrl(address.host, address.port);
  }

  return createGatewayClient({
    baseUrl,
    fetch: ctx.deps.fetch,
    timeoutMs: options.timeoutMs,
    apiKey: async () => {
      const raw = (await readGatewayAddress(configPath)).api_key;
      if (raw === '') return undefined;
      return resolveSecret('gateway.api_key', raw, {
        env: env.variables,
        readOnePassword: createOnePasswordReader(env.variables),
      });
    },
  });
}
