import { HearthError } from '@hearth/gateway/errors';
import { CommanderError } from 'commander';
import { CliError, errorMessage } from './cli-error.ts';
import type { CliDeps } from './deps.ts';
import { buildProgram, withDefaultCommand } from './program.ts';

/**
 * Runs one `hearth` invocation (`argv` without node and the script) and returns its exit
 * code. Failures are reported on the output's stderr as `hearth: <message>`.
 */
export async function runCli(given: readonly string[], deps: CliDeps): Promise<number> {
  const argv = withDefaultCommand(given, deps.isTTY);
  try {
    const program = await buildProgram(deps, argv);
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode; // already reported by commander
    const known = error instanceof CliError || error instanceof HearthError;
    deps.output.err(
      `hearth: ${known ? error.message : `unexpected error: ${errorMessage(error)}`}`,
    );
    return error instanceof CliError ? error.exitCode : 1;
  }
}
