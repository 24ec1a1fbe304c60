import { postgresUsageHistoryStore } from './usage-history.ts';
import { fileURLToPath } from 'node:url';
import { loadNodePostgres, orm } from '../drizzle.ts';
import pg from 'pg';
import type { Database, KeywordSearchInfo } from '../database.ts';
import { ensureKeywordIndex } from './keyword-index.ts';
import { postgresChannelRepository } from './channel-repository.ts';
import { postgresConversationRepository } from './conversation-repository.ts';
import { postgresMemoryRepository } from './memory-repository.ts';
import { postgresOrchestratorNodeStore } from './orchestrator-nodes.ts';
import { postgresAllowlistRepository, postgresSettingsRepository } from './repositories.ts';

const migrationsFolder = fileURLToPath(new URL('../../../drizzle/pg', import.meta.url));

/** Any constant works; it only has to be the same in every Hearth process sharing the DB. */
const MIGRATION_LOCK_KEY = 0x4865_6172; // "Hear"

export interface PostgresOptions {
  /**
   * Errors of idle pooled connections (for example a server restart). Without a listener they
   * would crash the process; by default they are dropped and ping() reports the outage.
   */
  onIdleError?: (error: Error) => void;
}

/**
 * Connects to PostgreSQL at `url` (postgres:// or postgresql://) with a pool of at most 10
 * connections and applies pending migrations from gateway/drizzle/pg, serialised across
 * processes by an advisory lock. Rejects with an Error naming the server when it cannot connect
 * within 5 seconds.
 */
export async function openPostgresDatabase(
  url: string,
  options: PostgresOptions = {},
): Promise<Database> {
  const target = describePostgresUrl(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    application_name: 'hearth-gateway',
  });
  pool.on('error', (error) => options.onIdleError?.(error));

  let keywordSearch: KeywordSearchInfo;
  try {
    keywordSearch = await migrateWithLock(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`Cannot open the PostgreSQL database at ${target.server}: ${reason(error)}`, {
      cause: error,
    });
  }

  const { driver } = loadNodePostgres();
  const db = driver.drizzle({ client: pool });
  let closing: Promise<void> | undefined;
  return {
    kind: 'postgresql',
    location: target.location,
    settings: postgresSettingsRepository(db),
    allowlist: postgresAllowlistRepository(db),
    memory: postgresMemoryRepository(db),
    orchestratorNodes: postgresOrchestratorNodeStore(db),
    channels: postgresChannelRepository(db),
    usageHistory: postgresUsageHistoryStore(db),
    conversations: postgresConversationRepository(db),
    keywordSearch,
    async ping() {
      if (closing !== undefined) return false;
      try {
        const result = await db.execute<{ ok: number }>(orm.sql`select 1 as ok`);
        return result.rows[0]?.ok === 1;
      } catch {
        return false;
      }
    },
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}

/** Applies the migrations, then makes sure of the keyword index (both under the lock). */
async function migrateWithLock(pool: pg.Pool): Promise<KeywordSearchInfo> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const { driver, migrator } = loadNodePostgres();
      await migrator.migrate(driver.drizzle({ client }), { migrationsFolder });
      return await ensureKeywordIndex(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** `location`: the URL without its password; `server`: host:port/database for messages. */
export function describePostgresUrl(url: string): { location: string; server: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Never echo the input: it may hold a password.
    throw new Error('The PostgreSQL URL is not a valid URL.');
  }
  parsed.password = '';
  parsed.searchParams.delete('password');
  // A `?host=` parameter (for example a Unix socket folder) wins over the authority, as in pg.
  const host =
    parsed.searchParams.get('host') || decodeURIComponent(parsed.hostname) || 'localhost';
  const port = parsed.port || '5432';
  const database = decodeURIComponent(parsed.pathname.slice(1)) || '(default database)';
  return { location: parsed.toString(), server: `${host}:${port}/${database}` };
}

function reason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reason(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = error.message || 'connection failed';
    return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
  }
  return String(error);
}
