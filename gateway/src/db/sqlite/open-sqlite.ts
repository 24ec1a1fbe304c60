import { sqliteUsageHistoryStore } from './usage-history.ts';
import { chmod, mkdir, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { loadBetterSqlite3, orm } from '../drizzle.ts';
import type { Database } from '../database.ts';
import type { SqliteMemoryOptions } from './memory-search.ts';
import { sqliteChannelRepository } from './channel-repository.ts';
import { sqliteConversationRepository } from './conversation-repository.ts';
import { deferredWrites } from './deferred-writes.ts';
import { sqliteMemoryRepository } from './memory-repository.ts';
import { sqliteOrchestratorNodeStore } from './orchestrator-nodes.ts';
import { sqliteAllowlistRepository, sqliteSettingsRepository } from './repositories.ts';

const migrationsFolder = fileURLToPath(new URL('../../../drizzle/sqlite', import.meta.url));

const IN_MEMORY = ':memory:';

export type SqliteOptions = SqliteMemoryOptions;

/**
 * Opens (creating if needed) the SQLite store at `file` and applies pending migrations from
 * gateway/drizzle/sqlite. The parent folder is created with mode 0700 and the file is kept at
 * 0600 (SQLite gives its -wal/-shm files the same mode). `':memory:'` opens a private
 * in-memory store.
 */
export async function openSqliteDatabase(
  file: string,
  options: SqliteOptions = {},
): Promise<Database> {
  const inMemory = file === IN_MEMORY;
  const location = inMemory ? IN_MEMORY : resolve(file);
  try {
    if (!inMemory) await prepareFile(location);
    return openPrepared(location, inMemory, options);
  } catch (error) {
    throw new Error(`Cannot open the SQLite database at ${location}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

function openPrepared(location: string, inMemory: boolean, options: SqliteOptions): Database {
  const client = new BetterSqlite3(location);
  try {
    if (!inMemory) client.pragma('journal_mode = WAL');
    client.pragma('foreign_keys = ON');
    client.pragma('busy_timeout = 5000');
    client.pragma('synchronous = NORMAL');
    const { driver, migrator } = loadBetterSqlite3();
    const db = driver.drizzle({ client });
    migrator.migrate(db, { migrationsFolder });

    const writes = deferredWrites(client);
    let closed = false;
    return {
      kind: 'sqlite',
      location,
      settings: sqliteSettingsRepository(db),
      allowlist: sqliteAllowlistRepository(db),
      memory: sqliteMemoryRepository(db, options),
      orchestratorNodes: sqliteOrchestratorNodeStore(db),
      channels: sqliteChannelRepository(db),
      usageHistory: sqliteUsageHistoryStore(db, writes),
      conversations: sqliteConversationRepository(db, writes),
      keywordSearch: { indexed: true, method: 'fts5-trigram' },
      ping() {
        if (closed) return Promise.resolve(false);
        try {
          return Promise.resolve(db.get<{ ok: number }>(orm.sql`select 1 as ok`).ok === 1);
        } catch {
          return Promise.resolve(false);
        }
      },
      close() {
        if (!closed) {
          closed = true;
          // Writes still waiting for their tick are written before the file is closed.
          writes.flush();
          client.close();
        }
        return Promise.resolve();
      },
    };
  } catch (error) {
    client.close();
    throw error;
  }
}

async function prepareFile(file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, 'a', 0o600);
  await handle.close();
  await chmod(file, 0o600);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
