import {
  createHostStats,
  createLlmRouter,
  createMetrics,
  createOnePasswordReader,
  createUsageTracker,
  loadConfig,
  openDatabase,
  resolveDbPath,
  silentLogger,
  statePaths,
  type Database,
  type HearthConfig,
} from '@hearth/gateway';
import type { CommandContext } from './deps.ts';

/** The configuration with secrets resolved (for local fallbacks that call providers). */
export async function loadResolvedConfig(ctx: CommandContext): Promise<HearthConfig> {
  const { env } = ctx.deps;
  const loaded = await loadConfig(ctx.configPath(), {
    env: env.variables,
    readOnePassword: createOnePasswordReader(env.variables),
  });
  return loaded.config;
}

/** Opens the long-term store this machine's gateway uses (it is shared across processes). */
export async function withLocalStore<T>(
  ctx: CommandContext,
  work: (db: Database, config: HearthConfig) => Promise<T>,
): Promise<T> {
  const config = await loadResolvedConfig(ctx);
  const db = await openDatabase(
    resolveDbPath(config.memory.db_path, statePaths(ctx.deps.env.home)),
  );
  try {
    return await work(db, config);
  } finally {
    await db.close();
  }
}

/** A router built from the on-disk configuration, for local work that needs a model. */
export function localRouter(config: HearthConfig) {
  const metrics = createMetrics(createHostStats('/'));
  return createLlmRouter({
    models: () => config.models,
    fetch: globalThis.fetch,
    usage: createUsageTracker(metrics),
    metrics,
    logger: silentLogger(),
  });
}
