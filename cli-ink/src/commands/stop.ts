import type { Command } from 'commander';
import { readGatewayAddress } from '@hearth/gateway/gateway-address';
import { runtimeFilePath } from '@hearth/gateway/runtime-file';
import { statePaths } from '@hearth/gateway/state-dir';
import { rm } from 'node:fs/promises';
import { CliError, errorMessage } from '../cli-error.ts';
import { gatewayUrl } from '@hearth/gateway/reachable-url';
import type { CommandContext } from '../deps.ts';
import { removePidFile } from '../pid-file.ts';
import { printResult } from '../print-result.ts';
import { waitForExit } from '../process-alive.ts';
import { findRunningGateway } from '../running-gateway.ts';

const GRACE_MS = 10_000;
const KILL_WAIT_MS = 2_000;

/**
 * `hearth stop`: SIGTERM the running gateway (the background one, or one started in the
 * foreground that its runtime file names), SIGKILL it after 10 s, remove its file.
 */
export function registerStop(program: Command, ctx: CommandContext): void {
  program
    .command('stop')
    .description('stop the running gateway')
    .option('--json', 'print {running, pid, how} as JSON')
    .action(async (options: { json?: boolean }) => {
      const { output, env } = ctx.deps;
      const { pidFile } = statePaths(env.home);
      const record = await findRunningGateway(env.home);
      if (record === undefined) {
        await removePidFile(pidFile);
        // Nothing on record: still, never say "not running" while a gateway answers.
        const url = await answeringGateway(ctx);
        if (url !== undefined) {
          throw new CliError(
            `a Hearth gateway answers at ${url}, but no pid file or runtime file in ${env.home} ` +
              'names its process (started with another state directory?): stop it where it runs.',
          );
        }
        printResult(output, options, { running: false }, () => 'Hearth is not running');
        return;
      }
      if (
        record.source === 'runtime-file' &&
        !(await answersAsHearth(ctx.deps.fetch, record.url))
      ) {
        // The pid may have been reused by another program: signal nothing that is not Hearth.
        throw new CliError(
          `process ${record.pid} is named by ${env.home}/gateway.runtime.json, but no Hearth ` +
            `gateway answers at ${record.url ?? '(no URL)'}; nothing was stopped.`,
        );
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
      if (record.source === 'pid-file') await removePidFile(pidFile);
      else await rm(runtimeFilePath(env.home), { force: true });
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

/** True when `url` answers `GET /health` as Hearth within a second. */
async function answersAsHearth(
  fetch: typeof globalThis.fetch,
  url: string | undefined,
): Promise<boolean> {
  if (url === undefined) return false;
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) });
    const body = (await res.json()) as { agent?: unknown };
    return res.ok && body.agent === 'hearth';
  } catch {
    return false;
  }
}

/** The config's [gateway] address when a Hearth gateway answers there, else undefined. */
async function answeringGateway(ctx: CommandContext): Promise<string | undefined> {
  let url: string;
  try {
    const address = await readGatewayAddress(ctx.configPath());
    url = gatewayUrl(address.host, address.port);
  } catch {
    return undefined;
  }
  return (await answersAsHearth(ctx.deps.fetch, url)) ? url : undefined;
}
