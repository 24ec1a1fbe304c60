import { isSecretKey, type HearthConfig } from './schema.ts';

type Json = Record<string, unknown>;

const isTable = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every secret string in a config-shaped value, at any depth (`[models]` keys and the nested
 * `[channels.<name>]` tables alike), with its dotted path.
 */
export function secretEntries(value: unknown, path: string[] = []): [string, string][] {
  if (!isTable(value)) return [];
  const out: [string, string][] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (isSecretKey(key) && typeof inner === 'string' && inner !== '')
      out.push([[...path, key].join('.'), inner]);
    else out.push(...secretEntries(inner, [...path, key]));
  }
  return out;
}

/** A copy of `value` with every non-empty secret string replaced by `replace(path, secret)`. */
export async function mapSecrets<T>(
  value: T,
  replace: (path: string, secret: string) => Promise<string> | string,
  path: string[] = [],
): Promise<T> {
  if (!isTable(value)) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      isSecretKey(key) && typeof inner === 'string' && inner !== ''
        ? await replace([...path, key].join('.'), inner)
        : await mapSecrets(inner, replace, [...path, key]);
  }
  return out as T;
}

/**
 * A copy of `value` where each secret key (at any depth) becomes the entry `entry(key, value)`
 * returns: `(set)` markers for printing, `<key>_set` booleans for GET /settings.
 */
export function redactTable(
  value: unknown,
  entry: (key: string, secret: string) => [string, unknown],
): unknown {
  if (!isTable(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]): [string, unknown] =>
      isSecretKey(key) && typeof inner === 'string'
        ? entry(key, inner)
        : [key, redactTable(inner, entry)],
    ),
  );
}

/** Every configured secret value (resolved), so children never see one, whatever its name. */
export function configuredSecrets(config: HearthConfig): string[] {
  return secretEntries(config).map(([, value]) => value);
}
