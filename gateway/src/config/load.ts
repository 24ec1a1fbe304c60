import { readFile } from 'node:fs/promises';
import * as TOML from '@decimalturn/toml-patch';
import type { z } from 'zod';
import { HearthError } from '../errors.ts';
import { configSchema, type HearthConfig } from './schema.ts';
import { mapSecrets, redactTable } from './secret-walk.ts';
import { resolveSecret, type SecretResolverDeps } from './secrets.ts';
import { tomlSyntaxMessage } from './toml-syntax.ts';

export interface LoadedConfig {
  /** Validated configuration with every secret reference resolved to its value. */
  config: HearthConfig;
  /** Validated configuration as written in the file (secret references left as written). */
  raw: HearthConfig;
  path: string;
  exists: boolean;
}

/** Parses TOML text into a validated configuration; errors name the file and the key. */
export function parseConfig(text: string, path: string): HearthConfig {
  let data: unknown;
  try {
    data = TOML.parse(text);
  } catch (error) {
    throw new HearthError('validation', tomlSyntaxMessage(path, text, error));
  }
  const result = configSchema.safeParse(data);
  if (!result.success) {
    throw new HearthError(
      'validation',
      `Invalid configuration in ${path}: ${formatIssues(result.error)}`,
    );
  }
  return result.data;
}

export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        const where = issue.path.length > 0 ? `${issue.path.join('.')}.` : '';
        return `unknown key ${issue.keys.map((k) => where + k).join(', ')}`;
      }
      return `${issue.path.join('.') || '(root)'}: ${issue.message}`;
    })
    .join('; ');
}

/** Reads `path` (a missing file means all defaults), validates it and resolves secrets. */
export async function loadConfig(path: string, deps: SecretResolverDeps): Promise<LoadedConfig> {
  let text = '';
  let exists = true;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new HearthError('unavailable', `Cannot read ${path}: ${(error as Error).message}`);
    }
    exists = false;
  }
  const raw = parseConfig(text, path);
  const config = await resolveSecrets(raw, deps);
  return { config, raw, path, exists };
}

async function resolveSecrets(raw: HearthConfig, deps: SecretResolverDeps): Promise<HearthConfig> {
  return mapSecrets(structuredClone(raw), (path, value) => resolveSecret(path, value, deps));
}

/** A copy of `config` with every secret value replaced by a marker, safe to print or return. */
export function redactSecrets(config: HearthConfig): Record<string, Record<string, unknown>> {
  return redactTable(config, (key, value) => [key, value !== '' ? '(set)' : value]) as Record<
    string,
    Record<string, unknown>
  >;
}
