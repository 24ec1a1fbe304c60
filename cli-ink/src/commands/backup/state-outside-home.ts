import { readFile } from 'node:fs/promises';
import { parseConfig, resolveDbPath, statePaths } from '@hearth/gateway/config';
import type { CommandContext } from '../../deps.ts';

/**
 * This Hearth's files as configured (config.toml, the memory and audit databases), which may
 * lie outside the state directory, and the PostgreSQL URL when the store is one. Reads the
 * configuration without resolving any secret; an unreadable one falls back to the defaults.
 */
export async function stateOutsideHome(
  ctx: CommandContext,
): Promise<{ files: string[]; postgresUrl?: string }> {
  const configPath = ctx.configPath();
  let text = '';
  try {
    text = await readFile(configPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let dbPath = '';
  try {
    dbPath = parseConfig(text, configPath).memory.db_path;
  } catch (error) {
    // A broken config.toml is still worth a backup: it is taken as it is.
    ctx.deps.output.err(
      `note: ${error instanceof Error ? error.message : String(error)}; using the default database path.`,
    );
  }
  const paths = statePaths(ctx.deps.env.home, configPath, ctx.deps.env.auditDbPath);
  const db = resolveDbPath(dbPath, paths);
  const postgres = /^postgres(ql)?:\/\//.test(db);
  return {
    files: [configPath, paths.auditDbPath, ...(postgres ? [] : [db])],
    postgresUrl: postgres ? db : undefined,
  };
}
