import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DEFAULT_CONFIG_TOML, ensureStateDir, writeFileAtomic } from '@hearth/gateway';
import type { Command } from 'commander';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { printResult } from '../../print-result.ts';

/** `hearth config init [--force]`: writes the commented default config.toml (mode 0600). */
export function registerConfigInit(config: Command, ctx: CommandContext): void {
  config
    .command('init')
    .description('write the default config.toml')
    .option('--force', 'overwrite an existing file')
    .option('--json', 'print JSON')
    .action(async (options: { force?: boolean; json?: boolean }) => {
      const path = ctx.configPath();
      if (!options.force && (await exists(path))) {
        throw new CliError(`${path} already exists; use --force to overwrite it.`);
      }
      await writeDefaultConfig(ctx, path);
      printResult(ctx.deps.output, options, { path, written: true }, () => `Wrote ${path}`);
    });
}

/** Writes the default file; the state directory (when it holds the file) is made 0700. */
export async function writeDefaultConfig(ctx: CommandContext, path: string): Promise<void> {
  if (dirname(path) === ctx.deps.env.home) await ensureStateDir(ctx.deps.env.home);
  await writeFileAtomic(path, DEFAULT_CONFIG_TOML, 0o600);
}

export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
