import { HearthError } from '@hearth/gateway/errors';
import { CommanderError } from 'commander';
import { CliError, errorMessage } from './cli-error.ts';
import type { CliDeps } from './deps.ts';
import { wantsJson } from './json-mode.ts';
import { buildProgram, withDefaultCommand } from './program.ts';
import { EXIT_USAGE, ReportedUsageError, usageDetail } from './usage-exit.ts';

/**
 * Runs one `hearth` invocation (`argv` without node and the script) and returns its exit
 * code: 0 ok, 1 failure, 2 usage error. Failures are reported on the output's stderr as
 * `hearth: <message>`, or as `{"detail": "<message>"}` when `--json` was given.
 */
export async function runCli(given: readonly string[], deps: CliDeps): Promise<number> {
  const argv = withDefaultCommand(given, deps.isTTY);
  const json = wantsJson(argv);
  const report = (message: string) =>
    deps.output.err(json ? JSON.stringify({ detail: message }) : `hearth: ${message}`);
  try {
    const program = await buildProgram(deps, argv);
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof ReportedUsageError) {
      // Commander printed it already, except in JSON mode (program.ts keeps it quiet then).
      if (json) report(usageDetail(error));
      return error.exitCode;
    }
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      // An InvalidArgumentError (or another commander error) thrown by a command's action.
      report(usageDetail(error));
      return EXIT_USAGE;
    }
    const known = error instanceof CliError || error instanceof HearthError;
    report(known ? error.message : `unexpected error: ${errorMessage(error)}`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}
