import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLongTermMemoryConformance } from '../../memory/long-term-conformance.ts';
import { runDatabaseConformance } from '../conformance.ts';
import { loadNodePostgres } from '../drizzle.ts';
import { openDatabase } from '../open-database.ts';
import { describePostgresUrl, openPostgresDatabase } from './open-postgres.ts';

// The services project needs a real PostgreSQL; an unreachable server fails this file loudly.
const adminUrl = process.env.HEARTH_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const databaseName = `hearth_test_${randomBytes(6).toString('hex')}`;
const testUrl = withDatabase(adminUrl, databaseName);
const migrationsFolder = fileURLToPath(new URL('../../../drizzle/pg', import.meta.url));

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${describePostgresUrl(adminUrl).server} ` +
        `(${error instanceof Error ? error.message : String(error)}). The services tests need it: ` +
        'start it, or point HEARTH_TEST_PG_URL at a server where this user may CREATE DATABASE.',
      { cause: error },
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let created = false;

beforeAll(async () => {
  await admin((client) => client.query(`create database "${databaseName}"`));
  created = true;
});

afterAll(async () => {
  if (created) {
    await admin((client) => client.query(`drop database if exists "${databaseName}" with (force)`));
  }
});

runDatabaseConformance('PostgreSQL', () => openPostgresDatabase(testUrl), {
  kind: 'postgresql',
  location: testUrl,
});

describe('PostgreSQL specifics', () => {
  it('is what openDatabase() picks for postgres:// and postgresql:// URLs', async () => {
    for (const url of [testUrl, testUrl.replace(/^postgresql:/, 'postgres:')]) {
      const db = await openDatabase(url);
      try {
        expect(db.kind).toBe('postgresql');
        await expect(db.ping()).resolves.toBe(true);
      } finally {
        await db.close();
      }
    }
  });

  it('removes the password from its location', async () => {
    const parsed = new URL(testUrl);
    parsed.password = 's3cret-Pa55';
    const db = await openPostgresDatabase(parsed.toString());
    try {
      expect(db.location).toBe(testUrl);
      expect(db.location).not.toContain('s3cret-Pa55');
    } finally {
      await db.close();
    }
  });

  it('records each migration once, however often it is opened', async () => {
    for (let i = 0; i < 3; i += 1) await (await openPostgresDatabase(testUrl)).close();
    const client = new pg.Client({ connectionString: testUrl });
    await client.connect();
    try {
      const result = await client.query<{ count: string }>(
        'select count(*) from drizzle.__drizzle_migrations',
      );
      // 0000_foundation, 0001_memory, 0002_memory_search, 0003_allowlist_directory,
      // 0004_orchestrator_nodes, 0005_channels, 0006_memory_origin, 0007_channel_replay,
      // 0008_history_origin, 0009_usage_history, 0010_session_titles
      expect(result.rows[0]?.count).toBe('11');
    } finally {
      await client.end();
    }
  });

  it('adds the origin column to a database written before it; its rows read as the default of their type', async () => {
    const oldMigrations = await mkdtemp(join(tmpdir(), 'hearth-pg-0005-'));
    const scratch = `${databaseName}_before_origin`;
    await admin((client) => client.query(`create database "${scratch}"`));
    try {
      // A database as the previous release left it: migrated up to 0005_channels, with rows.
      await cp(migrationsFolder, oldMigrations, { recursive: true });
      const journalFile = join(oldMigrations, 'meta', '_journal.json');
      const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
        entries: { tag: string }[];
      };
      journal.entries = journal.entries.filter((entry) => entry.tag < '0006');
      await writeFile(journalFile, JSON.stringify(journal));
      const client = new pg.Client({ connectionString: withDatabase(adminUrl, scratch) });
      await client.connect();
      let ids: number[] = [];
      try {
        const { driver, migrator } = loadNodePostgres();
        await migrator.migrate(driver.drizzle({ client }), { migrationsFolder: oldMigrations });
        const columns = await client.query<{ column_name: string }>(
          "select column_name from information_schema.columns where table_name = 'memory_entries'",
        );
        expect(columns.rows.map((row) => row.column_name)).not.toContain('origin');
        for (const type of ['note', 'turn', 'summary']) {
          const row = await client.query<{ id: number }>(
            'insert into memory_entries (session_id, content, content_hash, importance_score, type) values ($1, $2, $3, $4, $5) returning id',
            ['old', `an old ${type}`, 'x', 0.5, type],
          );
          ids = [...ids, row.rows[0]?.id ?? 0];
        }
      } finally {
        await client.end();
      }

      const db = await openPostgresDatabase(withDatabase(adminUrl, scratch));
      try {
        const origins = (await db.memory.getMany(ids)).map((entry) => [entry.type, entry.origin]);
        expect(origins).toStrictEqual([
          ['note', { trust: 'owner', sources: [] }],
          ['turn', { trust: 'hearth', sources: [] }],
          ['summary', { trust: 'hearth', sources: [] }],
        ]);
      } finally {
        await db.close();
      }
    } finally {
      await rm(oldMigrations, { recursive: true, force: true });
      await admin((client) => client.query(`drop database if exists "${scratch}" with (force)`));
    }
  });

  it('rejects with an Error naming the host when the server cannot be reached', async () => {
    const unreachable = 'postgresql://postgres:hunter2@127.0.0.1:1/hearth';
    const started = Date.now();
    const failure = openPostgresDatabase(unreachable);
    await expect(failure).rejects.toThrow(/127\.0\.0\.1:1\/hearth/);
    await expect(failure).rejects.toThrow(/ECONNREFUSED/);
    await expect(failure).rejects.not.toThrow(/hunter2/);
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('rejects with an Error naming the database when it does not exist', async () => {
    const missing = withDatabase(adminUrl, `${databaseName}_missing`);
    await expect(openPostgresDatabase(missing)).rejects.toThrow(
      new RegExp(`${databaseName}_missing.*does not exist`),
    );
  });
});

runLongTermMemoryConformance('PostgreSQL', () => openPostgresDatabase(testUrl), {
  forgetOrigin: async (id) => {
    const client = new pg.Client({ connectionString: testUrl });
    await client.connect();
    try {
      await client.query('update memory_entries set origin = null where id = $1', [id]);
    } finally {
      await client.end();
    }
  },
});
