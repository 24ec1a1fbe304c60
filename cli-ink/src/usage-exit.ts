import { CommanderError } from 'commander';

/** The spec's exit codes: 0 ok, 1 failure, 2 usage error. */
export const EXIT_USAGE = 2;

/** A usage error commander has already reported (on stderr, unless in JSON mode). */
export class ReportedUsageError extends CommanderError {
  constructor(error: CommanderError) {
    super(EXIT_USAGE, error.code, error.message);
    this.name = 'ReportedUsageError';
  }
}

/**
 * The exit callback for the root `hearth` command: every error commander reports while
 * parsing (unknown option or command, missing argument or required option, an option value
 * its parser rejects with InvalidArgumentError, excess arguments, a command group run without
 * a subcommand) is a usage error and exits 2; `--help` and `--version` stay 0. Subcommands
 * made with `.command()` copy the callback, so setting it once on the root covers the whole
 * tree. Commander itself exits 1 for both failures and usage errors.
 */
export function usageExit(error: CommanderError): never {
  throw error.exitCode === 0 ? error : new ReportedUsageError(error);
}

/** The text of a usage error for `{"detail": …}`: commander's message without its prefix. */
export function usageDetail(error: CommanderError): string {
  if (error.code === 'commander.help') return 'a subcommand is needed (run with --help for usage)';
  return error.message.replace(/^error: /, '');
}
