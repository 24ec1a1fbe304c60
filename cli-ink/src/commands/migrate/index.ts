import { access, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseConfig, resolveDbPath, statePaths } from '@hearth/gateway/config';
import {
  localEmbedder,
  migrateNeuralcleave,
  PUSH_SUBSCRIPTIONS_FILE,
  openDatabase,
  type Database,
  readOnlyTarget,
  storeTarget,
  withLocalSkillStore,
  type MigrationReport,
} from '@hearth/gateway/migrate-neuralcleave';
import { createSkillValidator } from '@hearth/gateway/skill-validator';
import { type Command, InvalidArgumentError } from 'commander';
import type { CommandContext } from '../../deps.ts';
import { formatMigration } from './format.ts';

const PREDECESSORS = ['neuralcleave'] as const;

function predecessor(value: string): string {
  if (!(PREDECESSORS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`Hearth migrates from: ${PREDECESSORS.join(', ')}.`);
  return value;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Hearth's store location from config.toml, read without resolving any secret. */
async function storeLocation(ctx: CommandContext): Promise<string> {
  const configPath = ctx.configPath();
  const text = await readFile(configPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const config = parseConfig(text, configPath);
  return resolveDbPath(config.memory.db_path, statePaths(ctx.deps.env.home, configPath));
}

/** `hearth migrate neuralcleave --source <dir> [--dry-run]`. */
export function registerMigrate(program: Command, ctx: CommandContext): void {
  program
    .command('migrate')
    .description('bring over a predecessor’s state directory (neuralcleave)')
    .argument('<predecessor>', 'the product to migrate from: neuralcleave', predecessor)
    .option('--source <dir>', 'its state directory', join(homedir(), '.neuralcleave'))
    .option('--dry-run', 'print the report and write nothing')
    .option('--json', 'print JSON')
    .action(
      async (_product: string, options: { source: string; dryRun?: boolean; json?: boolean }) => {
        const home = ctx.deps.env.home;
        const dryRun = options.dryRun === true;
        const location = await storeLocation(ctx);
        const postgres = /^postgres(ql)?:\/\//.test(location);
        // A dry run opens Hearth's store only when there is one (it creates nothing).
        const database: Database | undefined =
          !dryRun || postgres || (await exists(location))
            ? await openDatabase(location)
            : undefined;
        try {
          const { embedder, unavailable } = dryRun
            ? { embedder: undefined, unavailable: 'dry run' }
            : await localEmbedder(join(home, 'models'));
          const run = (target: Parameters<typeof migrateNeuralcleave>[0]['skills']) =>
            migrateNeuralcleave({
              source: resolve(options.source),
              configPath: ctx.configPath(),
              dryRun,
              database,
              skills: target,
              validate: createSkillValidator(),
              embedder,
              noEmbedder: unavailable,
              pushStorePath: join(home, PUSH_SUBSCRIPTIONS_FILE),
            });
          const report: MigrationReport = dryRun
            ? await run(readOnlyTarget(join(home, 'skills')))
            : await withLocalSkillStore(home, (store) => run(storeTarget(store)));
          ctx.deps.output.out(
            options.json ? JSON.stringify(report, null, 2) : formatMigration(report),
          );
        } finally {
          await database?.close();
        }
      },
    );
}
