import { readGatewayAddress } from '@hearth/gateway/gateway-address';
import { createOnePasswordReader } from '@hearth/gateway/one-password';
import { resolveSecret } from '@hearth/gateway/secrets';
import { CliError } from './cli-error.ts';
import type { CommandContext } from './deps.ts';
import { createGatewayClient, type GatewayClient } from './gateway-client.ts';
import { gatewayUrl } from '@hearth/gateway/reachable-url';
import { findRunningGateway } from './running-gateway.ts';

/**
 * A client for the gateway this machine runs: the URL recorded by `start --background`, or in
 * the runtime file any running gateway writes (a foreground one on another port), when that
 * gateway is alive; else the config's [gateway] host/port. The API key is read from the
 * config the gateway was started with (resolving ENV:/op://) only when a request needs it. Only
 * those three values are read (not the whole schema), so a command that just asks the gateway
 * starts fast.
 */
export async function locateGateway(
  ctx: CommandContext,
  options: {
    timeoutMs?: number;
    /** `--url`: a gateway elsewhere (the pid file and the config's address are not read). */
    url?: string;
    /** `--api-key` / `HEARTH_API_KEY`: used instead of the config's `[gateway] api_key`. */
    apiKey?: string;
  } = {},
): Promise<GatewayClient> {
  const { env } = ctx.deps;
  if (options.url !== undefined) {
    return createGatewayClient({
      baseUrl: parseGatewayUrl(options.url),
      fetch: ctx.deps.gatewayFetch ?? ctx.deps.fetch,
      timeoutMs: options.timeoutMs,
      apiKey: () => Promise.resolve(options.apiKey || undefined),
    });
  }
  const running = await findRunningGateway(env.home);
  const configPath = running?.configPath ?? ctx.configPath();

  let baseUrl = running?.url;
  if (baseUrl === undefined) {
    const address = await readGatewayAddress(configPath);
    baseUrl = gatewayUrl(address.host, address.port);
  }

  return createGatewayClient({
    baseUrl,
    fetch: ctx.deps.gatewayFetch ?? ctx.deps.fetch,
    timeoutMs: options.timeoutMs,
    apiKey: async () => {
      if (options.apiKey) return options.apiKey;
      const raw = (await readGatewayAddress(configPath)).api_key;
      if (raw === '') return undefined;
      return resolveSecret('gateway.api_key', raw, {
        env: env.variables,
        readOnePassword: createOnePasswordReader(env.variables),
      });
    },
  });
}

/** A `--url` value: an http(s) URL without credentials, query or fragment (else exit 2). */
export function parseGatewayUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`--url: not a URL: ${value}`, 2);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`--url: use http:// or https:// (got ${url.protocol})`, 2);
  if (url.username || url.password)
    throw new CliError('--url: put the API key in --api-key or HEARTH_API_KEY, not in the URL', 2);
  if (url.search || url.hash) throw new CliError('--url: no query or fragment', 2);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
