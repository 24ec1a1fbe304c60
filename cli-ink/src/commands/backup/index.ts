import { access } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { VERSION } from '@hearth/gateway/version';
import {
  backupsDirFor,
  createBackup,
  listBackups,
  restoreBackup,
  verifyBackup,
} from '@hearth/gateway/backup';
import type { Command } from 'commander';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { formatCreated, formatList, formatRestored, formatVerified } from './format.ts';
import { limitsFrom, withLimitOptions, type LimitOptions } from './limits.ts';
import { stateOutsideHome } from './state-outside-home.ts';

/** A path as given, else a bare archive name looked up in the backups directory. */
async function archivePath(given: string, backupsDir: string): Promise<string> {
  const asGiven = resolve(given);
  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );
  if (await exists(asGiven)) return asGiven;
  const inBackups = join(backupsDir, given);
  if (!given.includes('/') && (await exists(inBackups))) return inBackups;
  throw new CliError(`no such archive: ${given}`);
}

const inside = (home: string, path: string) => {
  const rel = relative(home, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/** `hearth backup create|list|verify <archive>|restore <archive> --target <path> [--force]`. */
export function registerBackup(program: Command, ctx: CommandContext): void {
  const backup = program
    .command('backup')
    .description('archives of the state directory: create, list, verify, restore');
  const out = (text: string) => ctx.deps.output.out(text);
  const dirOf = (dir?: string) => (dir ? resolve(dir) : backupsDirFor(ctx.deps.env.home));

  withLimitOptions(
    backup
      .command('create')
      .description('archive the state directory (safe while the gateway runs)')
      .option('--dir <path>', 'where archives go (default: backups/ beside the state directory)')
      .option('--json', 'print JSON'),
  ).action(async (options: { dir?: string; json?: boolean } & LimitOptions) => {
    const home = ctx.deps.env.home;
    const state = await stateOutsideHome(ctx);
    const created = await createBackup({
      home,
      backupsDir: dirOf(options.dir),
      externalFiles: state.files.filter((file) => !inside(home, file)),
      postgresUrl: state.postgresUrl,
      hearthVersion: VERSION,
      limits: limitsFrom(options),
      onProgress: ctx.deps.isTTY
        ? ({ name, done, total }) => ctx.deps.output.err(`[${done}/${total}] ${name}`)
        : undefined,
    });
    if (options.json) {
      const { manifest, ...rest } = created;
      return out(JSON.stringify({ ...rest, ...manifest }, null, 2));
    }
    out(formatCreated(created));
  });

  backup
    .command('list')
    .description('archives in the backups directory, newest first')
    .option('--dir <path>', 'the backups directory (default: backups/ beside the state directory)')
    .option('--json', 'print JSON')
    .action(async (options: { dir?: string; json?: boolean }) => {
      const dir = dirOf(options.dir);
      const listed = await listBackups(dir);
      out(options.json ? JSON.stringify(listed, null, 2) : formatList(dir, listed));
    });

  withLimitOptions(
    backup
      .command('verify <archive>')
      .description('check the manifest, every member, every SHA-256 and each database’s integrity')
      .option('--json', 'print JSON'),
  ).action(async (given: string, options: { json?: boolean } & LimitOptions) => {
    const report = await verifyBackup(await archivePath(given, dirOf()), {
      limits: limitsFrom(options),
    });
    const { manifest, ...rest } = report;
    out(
      options.json
        ? JSON.stringify({ ...rest, created_at: manifest?.created_at ?? null }, null, 2)
        : formatVerified(report),
    );
    if (!report.ok) throw new CliError(`${report.archive} failed verification`);
  });

  withLimitOptions(
    backup
      .command('restore <archive>')
      .description('restore an archive into a state directory (atomic, all or nothing)')
      .requiredOption('--target <path>', 'the state directory to create or replace')
      .option('--force', 'replace a target that is not empty')
      .option('--json', 'print JSON'),
  ).action(
    async (
      given: string,
      options: { target: string; force?: boolean; json?: boolean } & LimitOptions,
    ) => {
      const report = await restoreBackup(await archivePath(given, dirOf()), {
        target: options.target,
        force: options.force === true,
        limits: limitsFrom(options),
        onProgress: ctx.deps.isTTY ? (step) => ctx.deps.output.err(`restore: ${step}`) : undefined,
      });
      const { manifest, ...rest } = report;
      out(
        options.json
          ? JSON.stringify({ ...rest, created_at: manifest?.created_at ?? null }, null, 2)
          : formatRestored(report),
      );
      if (!report.ok) throw new CliError(`${report.archive} was not restored; nothing was written`);
    },
  );
}
