import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { SecretCommandRunner } from './secrets.ts';

const run = promisify(execFile);

/** The real `op read` runner; `env` is passed explicitly so PATH lookups are testable. */
export function createOnePasswordReader(
  env: Readonly<Record<string, string | undefined>>,
): SecretCommandRunner {
  return async (reference) => {
    const { stdout } = await run('op', ['read', '--no-newline', reference], {
      env,
      timeout: 15_000,
    });
    return stdout;
  };
}
