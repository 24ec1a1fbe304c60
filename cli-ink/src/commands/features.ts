import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';
import { appRoot } from './update.ts';

/**
 * `hearth features`: which optional features (large packages the default install leaves out:
 * ONNX Runtime for local embeddings and voice) are installed, and `hearth features add
 * <name>...` to install them. Both run scripts/features.js, the one implementation CI and the
 * Dockerfile use too, on this process's Node.
 */
export function registerFeatures(program: Command, _ctx: CommandContext): void {
  const features = program
    .command('features')
    .description('list the optional features (on/off), or add them: features add voice')
    .option('--json', 'print {"features": {name: {on, missing, summary}}}')
    .action((options: { json?: boolean }) =>
      runFeatures(['list', ...(options.json ? ['--json'] : [])]),
    );
  features
    .command('add')
    .argument('<feature...>', 'embeddings, voice')
    .description('install the packages of optional features (npm install --no-save)')
    .option('--json', 'print {"on": [features]} once installed (npm\'s output on stderr)')
    .action((names: string[], options: { json?: boolean }) =>
      runFeatures(['add', ...names, ...(options.json ? ['--json'] : [])]),
    );
}

function runFeatures(args: readonly string[]): void {
  const root = appRoot(fileURLToPath(import.meta.url));
  const script = root === undefined ? undefined : join(root, 'scripts', 'features.js');
  if (script === undefined || !existsSync(script)) {
    throw new CliError(
      'cannot manage features: this copy of Hearth has no scripts/features.js (install the packages with npm instead)',
    );
  }
  const result = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit' });
  if (result.status !== 0) {
    throw new CliError(
      `features ${args[0]} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`,
      result.status ?? 1,
    );
  }
}
