import { readFile } from 'node:fs/promises';
import * as TOML from '@decimalturn/toml-patch';
import { GATEWAY_ADDRESS_DEFAULTS } from './gateway-address.ts';

/** What the early listener (lifecycle/early-listener.ts) needs of the configuration. */
export interface EarlySettings {
  host: string;
  port: number;
  /** Resolved (an `ENV:NAME` reference read); empty: no key. */
  apiKey: string;
  corsOrigins: string[];
  allowedHosts: string[];
  allowUnauthenticated: boolean;
  /** A `[channels.<name>]` table is enabled: /ready then reports `channel_connected`. */
  channelsConfigured: boolean;
}

export interface EarlySettingsSource {
  configPath: string;
  /** `--bind` / `--port`, as given on the command line. */
  host?: string;
  port?: number;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The few settings of a config file the early listener needs, read without the full schema
 * (whose validation library is most of the start-up's cost). Undefined whenever anything is
 * off (no file, unreadable, not TOML, a value of the wrong kind, an `op://` key): the process
 * then binds only once the real loader has read the file, which reports the problem exactly as
 * it always has.
 */
export async function readEarlySettings(
  source: EarlySettingsSource,
): Promise<EarlySettings | undefined> {
  let parsed: unknown;
  try {
    parsed = TOML.parse(await readFile(source.configPath, 'utf8'));
  } catch {
    return undefined;
  }
  const gateway = table((parsed as Record<string, unknown>).gateway ?? {});
  const channels = table((parsed as Record<string, unknown>).channels ?? {});
  if (gateway === undefined || channels === undefined) return undefined;

  const host = source.host ?? gateway.host ?? GATEWAY_ADDRESS_DEFAULTS.host;
  const port = source.port ?? gateway.port ?? GATEWAY_ADDRESS_DEFAULTS.port;
  const apiKey = resolveKey(gateway.api_key ?? '', source.env);
  const corsOrigins = gateway.cors_origins ?? [];
  const allowedHosts = gateway.allowed_hosts ?? [];
  const allowUnauthenticated = gateway.allow_unauthenticated ?? false;
  if (
    typeof host !== 'string' ||
    host === '' ||
    typeof port !== 'number' ||
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65_535 ||
    apiKey === undefined ||
    !isStrings(corsOrigins) ||
    !corsOrigins.every((origin) => URL.canParse(origin)) ||
    !isStrings(allowedHosts) ||
    typeof allowUnauthenticated !== 'boolean'
  )
    return undefined;
  const channelsConfigured = Object.values(channels).some(
    (channel) => table(channel)?.enabled !== false,
  );
  return {
    host,
    port,
    apiKey,
    corsOrigins,
    allowedHosts,
    allowUnauthenticated,
    channelsConfigured,
  };
}

function table(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** A literal, or `ENV:NAME` read from the environment; undefined for what cannot be read here. */
function resolveKey(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (typeof value !== 'string' || value.startsWith('op://')) return undefined;
  if (!value.startsWith('ENV:')) return value;
  const resolved = env[value.slice(4)];
  return resolved === undefined || resolved === '' ? undefined : resolved;
}
