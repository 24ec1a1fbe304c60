import { readFile } from 'node:fs/promises';
import * as TOML from '@decimalturn/toml-patch';
import { HearthError } from '../errors.ts';
import { tomlSyntaxMessage } from './toml-syntax.ts';

/** What a client needs to reach the gateway a config file describes. */
export interface GatewayAddress {
  host: string;
  port: number;
  /** As written: a literal, `ENV:NAME` or `op://…` (resolve with `resolveSecret`). */
  api_key: string;
}

/** The `[gateway]` defaults of `schema.ts` (a test keeps the two equal). */
export const GATEWAY_ADDRESS_DEFAULTS: GatewayAddress = {
  host: '127.0.0.1',
  port: 7432,
  api_key: '',
};

/**
 * `[gateway] host`, `port` and `api_key` of a config file, read without the full schema (whose
 * validation library costs CLI commands such as `hearth status` a few hundred milliseconds to
 * load). The gateway itself validates the whole file; this only checks the three values it reads.
 * A missing file gives the defaults.
 */
export async function readGatewayAddress(path: string): Promise<GatewayAddress> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...GATEWAY_ADDRESS_DEFAULTS };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = TOML.parse(text);
  } catch (error) {
    throw new HearthError('validation', tomlSyntaxMessage(path, text, error));
  }
  const section = (parsed as { gateway?: unknown }).gateway ?? {};
  if (typeof section !== 'object' || section === null)
    throw new HearthError('validation', `${path}: [gateway] must be a table`);
  const { host, port, api_key: apiKey } = section as Record<string, unknown>;
  const invalid = (key: string, what: string) =>
    new HearthError('validation', `${path}: gateway.${key} must be ${what}`);
  if (host !== undefined && (typeof host !== 'string' || host === ''))
    throw invalid('host', 'a non-empty string');
  if (
    port !== undefined &&
    (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65_535)
  )
    throw invalid('port', 'an integer from 0 to 65535');
  if (apiKey !== undefined && typeof apiKey !== 'string') throw invalid('api_key', 'a string');
  return {
    host: host ?? GATEWAY_ADDRESS_DEFAULTS.host,
    port: port ?? GATEWAY_ADDRESS_DEFAULTS.port,
    api_key: apiKey ?? GATEWAY_ADDRESS_DEFAULTS.api_key,
  };
}
