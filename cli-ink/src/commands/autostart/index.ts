import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@hearth/gateway/atomic-write';
import type { Command } from 'commander';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { LAUNCHD_LABEL, launchdPlist, SYSTEMD_UNIT, systemdUnit } from './unit-files.ts';

interface Where {
  kind: 'systemd' | 'launchd';
  file: string;
}

/** The unit's place: ~/.config/systemd/user (XDG_CONFIG_HOME) or ~/Library/LaunchAgents. */
function where(ctx: CommandContext): Where {
  const { platform, env } = ctx.deps;
  const home = env.variables.HOME;
  if (!home) throw new CliError('HOME is not set: cannot find the autostart folder');
  if (platform === 'linux') {
    const base = env.variables.XDG_CONFIG_HOME || join(home, '.config');
    return { kind: 'systemd', file: join(base, 'systemd', 'user', SYSTEMD_UNIT) };
  }
  if (platform === 'darwin')
    return {
      kind: 'launchd',
      file: join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`),
    };
  throw new CliError(
    `autostart is not available on ${platform} (systemd on Linux, launchd on macOS)`,
  );
}

async function exists(file: string): Promise<boolean> {
  try {
    await readFile(file);
    return true;
  } catch {
    return false;
  }
}

/** `hearth autostart enable|disable|status [--json]`. */
export function registerAutostart(program: Command, ctx: CommandContext): void {
  const autostart = program
    .command('autostart')
    .description('start the gateway at login (systemd user unit on Linux, launchd agent on macOS)');
  const out = (json: boolean | undefined, value: Record<string, unknown>, text: string) =>
    ctx.deps.output.out(json ? JSON.stringify(value, null, 2) : text);

  /** Runs systemctl --user / launchctl; a failure is reported with its output. */
  const run = async (command: string, args: string[]) => {
    const result = await ctx.deps.runProgram(command, args, { timeoutMs: 15_000 });
    if (result.code !== 0)
      throw new CliError(
        `${command} ${args.join(' ')} failed: ${(result.error ?? result.stderr.trim()) || `exit ${result.code}`}`,
      );
    return result;
  };

  autostart
    .command('enable')
    .description('write the unit and enable it')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const w = where(ctx);
      const target = {
        node: ctx.deps.execPath,
        script: ctx.deps.binPath,
        configPath: ctx.configPath(),
        home: ctx.deps.env.home,
      };
      await mkdir(join(w.file, '..'), { recursive: true });
      if (w.kind === 'systemd') {
        await writeFileAtomic(w.file, systemdUnit(target), 0o644);
        await run('systemctl', ['--user', 'daemon-reload']);
        await run('systemctl', ['--user', 'enable', SYSTEMD_UNIT]);
      } else {
        await writeFileAtomic(w.file, launchdPlist(target, ctx.deps.env.home), 0o644);
        await run('launchctl', ['load', '-w', w.file]);
      }
      out(
        options.json,
        { enabled: true, kind: w.kind, file: w.file },
        `Autostart enabled (${w.kind}): ${w.file}`,
      );
    });

  autostart
    .command('disable')
    .description('disable and remove the unit')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const w = where(ctx);
      const present = await exists(w.file);
      if (present) {
        if (w.kind === 'systemd') await run('systemctl', ['--user', 'disable', SYSTEMD_UNIT]);
        else await run('launchctl', ['unload', '-w', w.file]);
        await rm(w.file, { force: true });
        if (w.kind === 'systemd') await run('systemctl', ['--user', 'daemon-reload']);
      }
      out(
        options.json,
        { enabled: false, kind: w.kind, file: w.file, removed: present },
        present ? `Autostart disabled; removed ${w.file}` : 'Autostart was not enabled.',
      );
    });

  autostart
    .command('status')
    .description('is the unit installed and enabled?')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const w = where(ctx);
      const installed = await exists(w.file);
      let enabled = false;
      if (installed) {
        const result =
          w.kind === 'systemd'
            ? await ctx.deps.runProgram('systemctl', ['--user', 'is-enabled', SYSTEMD_UNIT])
            : await ctx.deps.runProgram('launchctl', ['list', LAUNCHD_LABEL]);
        enabled = result.code === 0;
      }
      out(
        options.json,
        { installed, enabled, kind: w.kind, file: w.file },
        installed
          ? `Autostart ${enabled ? 'enabled' : 'installed but not enabled'} (${w.kind}): ${w.file}`
          : 'Autostart is not enabled.',
      );
    });
}
