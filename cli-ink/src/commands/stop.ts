import type { Command } from 'commander';
import { statePaths } from '@hearth/gateway/state-dir';
import { CliError, errorMessage } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';
import { readPidFile, removePidFile } from '../pid-file.ts';
import { printResult } from '../print-result.ts';
import { isProcessAlive, waitForExit } from '../process-alive.ts';

const GRACE_MS = 10_000;
const KILL_WAIT_MS = 2_000;

/** `hearth stop`: SIGTERM the background gateway, SIGKILL it after 10 s, remove the pid file. */
export function registerStop(program: Command, ctx: CommandContext): void {
  program
    .command('stop')
    .description('stop the gateway started with start --background')
    .option('--json', 'print {running, pid, how} as JSON')
    .action(async (options: { json?: boolean }) => {
      const { output, env } = ctx.deps;
      const { pidFile } = statePaths(env.home);
      const record = await readPidFile(pidFile);
      if (record === undefined || !isProcessAlive(record.pid)) {
        await removePidFile(pidFile);
        printResult(output, options, { running: false }, () => 'Hearth is not running');
        return;
      }

      const { pid } = record;
      signal(pid, 'SIGTERM');
      let how = 'stopped';
      if (!(await waitForExit(pid, GRACE_MS))) {
        signal(pid, 'SIGKILL');
        how = `killed after ${GRACE_MS / 1000} s`;
        if (!(await waitForExit(pid, KILL_WAIT_MS))) {
          throw new CliError(`process ${pid} did not exit after SIGKILL; the pid file is kept.`);
        }
      }
      await removePidFile(pidFile);
      printResult(
        output,
        options,
        { running: false, pid, how },
        () => `Hearth ${how} (pid ${pid})`,
      );
    });
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return; // exited meanwhile
    throw new CliError(`cannot send ${name} to process ${pid}: ${errorMessage(error)}`);
  }
}
