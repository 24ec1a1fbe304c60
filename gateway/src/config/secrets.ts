import { HearthError } from '../errors.ts';

/** Runs `op read <reference>` (the password-manager CLI) and returns its stdout. */
export type SecretCommandRunner = (reference: string) => Promise<string>;

export interface SecretResolverDeps {
  env: Readonly<Record<string, string | undefined>>;
  readOnePassword: SecretCommandRunner;
}

/** True for an `ENV:NAME` or `op://…` reference (resolved at load), false for a literal. */
export function isSecretReference(value: string): boolean {
  return value.startsWith('ENV:') || value.startsWith('op://');
}

/**
 * Resolves a secret value: a literal is returned as is, `ENV:NAME` reads an environment
 * variable, `op://vault/item/field` asks the password-manager CLI. `key` names the config key
 * in error messages (never the value).
 */
export async function resolveSecret(
  key: string,
  value: string,
  deps: SecretResolverDeps,
): Promise<string> {
  if (value.startsWith('ENV:')) {
    const name = value.slice(4);
    const resolved = deps.env[name];
    if (resolved === undefined || resolved === '') {
      throw new HearthError('validation', `${key}: environment variable ${name} is not set`);
    }
    return resolved;
  }
  if (value.startsWith('op://')) {
    if (!/^op:\/\/[^/]+\/[^/]+\/[^/]+/.test(value)) {
      throw new HearthError('validation', `${key}: expected op://<vault>/<item>/<field>`);
    }
    try {
      return (await deps.readOnePassword(value)).trim();
    } catch (error) {
      throw new HearthError(
        'unavailable',
        `${key}: could not resolve ${value}: ${describe(error)}`,
        {
          cause: error,
        },
      );
    }
  }
  return value;
}

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && error.code === 'ENOENT') {
    return "the 'op' CLI is not installed or not on PATH";
  }
  return error instanceof Error ? (error.message.split('\n')[0] ?? 'failed') : String(error);
}
