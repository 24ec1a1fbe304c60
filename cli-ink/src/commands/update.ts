import { VERSION } from '@hearth/gateway/version';
import type { Command } from 'commander';
import { CliError, errorMessage } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';

/** The npm package Hearth is published as, and the registry asked about it. */
export const NPM_PACKAGE = 'hearth';
const DEFAULT_REGISTRY = 'https://registry.npmjs.org';

/** -1, 0 or 1 comparing two x.y.z versions (a pre-release sorts before its release). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.replace(/^v/, '').split('-', 2);
    return { nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i += 1) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/**
 * `hearth update [--check] [--json]`: asks the npm registry (npm_config_registry, else
 * registry.npmjs.org) for the newest version. It never installs anything by itself: it prints
 * the command that would, so an update is always the user's own act.
 */
export function registerUpdate(program: Command, ctx: CommandContext): void {
  program
    .command('update')
    .description('check the npm registry for a newer Hearth (never updates silently)')
    .option('--check', 'only check (exit 0 either way)')
    .option('--json', 'print {current, latest, update_available, command} as JSON')
    .action(async (options: { check?: boolean; json?: boolean }) => {
      const registry = (ctx.deps.env.variables.npm_config_registry || DEFAULT_REGISTRY).replace(
        /\/+$/,
        '',
      );
      let latest: string;
      try {
        const response = await ctx.deps.fetch(`${registry}/${NPM_PACKAGE}/latest`, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        const body = (await response.json()) as { version?: unknown };
        if (typeof body.version !== 'string' || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(body.version))
          throw new Error('the answer has no version');
        latest = body.version;
      } catch (error) {
        throw new CliError(
          `could not ask ${registry} for the newest version: ${errorMessage(error)}`,
        );
      }
      const available = compareVersions(latest, VERSION) > 0;
      const command = `npm install -g ${NPM_PACKAGE}@${latest}`;
      const result = {
        current: VERSION,
        latest,
        update_available: available,
        command: available ? command : null,
      };
      if (options.json) return ctx.deps.output.out(JSON.stringify(result, null, 2));
      ctx.deps.output.out(
        available
          ? `Hearth ${latest} is available (this is ${VERSION}).${options.check ? '' : `\nTo update, run: ${command}\nthen restart the gateway (hearth stop; hearth start).`}`
          : `Hearth ${VERSION} is the newest version.`,
      );
    });
}
