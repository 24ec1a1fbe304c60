import { CommanderError, type Command } from 'commander';

/**
 * Makes `command` and the subcommands defined on it afterwards exit 2 on a usage error
 * (unknown option, missing argument or required option), as the spec's 0/1/2 rule says;
 * help stays 0. Commander itself exits 1 for both failures and usage errors.
 */
export function exitTwoOnUsageError(command: Command): Command {
  return command.exitOverride((error) => {
    throw error.exitCode === 0 ? error : new CommanderError(2, error.code, error.message);
  });
}
