import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNodePostgres } from '../drizzle.ts';
import { openPostgresDatabase } from './open-postgres.ts';
import { TRIGRAM_INDEX } from './keyword-index.ts';

// Needs a real PostgreSQL where this user may create databases and event triggers (a superuser).
const adminUrl = process.env.HEARTH_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const suffix = randomBytes(6).toString('hex');
const migrationsFolder = fileURLToPath(new URL('../../../drizzle/pg', import.meta.url));

function urlFor(database: string): string {
  const parsed = new URL(adminUrl);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const databases: string[] = [];
let folder = '';

async function createDatabase(name: string): Promise<string> {
  await withClient(adminUrl, (client) => client.query(`create database "${name}"`));
  databases.push(name);
  return urlFor(name);
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hearth-pg-keyword-'));
});

afterAll(async () => {
  await withClient(adminUrl, async (client) => {
    for (const name of databases)
      await client.query(`drop database if exists "${name}" with (force)`);
  });
  await rm(folder, { recursive: true, force: true });
});

/** The migrations up to 0001_memory only: the store as the previous release left it. */
async function migrationsBeforeSearch(): Promise<string> {
  const old = join(folder, 'migrations-0001');
  await cp(migrationsFolder, old, { recursive: true });
  const journalFile = join(old, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, 2);
  await writeFile(journalFile, JSON.stringify(journal));
  return old;
}

describe('PostgreSQL keyword index (pg_trgm)', () => {
  it('covers the entries written before its migration, and serves the search', async () => {
    const url = await createDatabase(`hearth_test_trgm_${suffix}`);
    const oldMigrations = await migrationsBeforeSearch();
    const before = await withClient(url, async (client) => {
      const { driver, migrator } = loadNodePostgres();
      await migrator.migrate(driver.drizzle({ client }), { migrationsFolder: oldMigrations });
      const inserted = await client.query<{ id: number }>(
        `insert into memory_entries (session_id, content, content_hash, importance_score)
           values ('s', 'Written before the index', 'x', 0.5), ('s', 'something else', 'y', 0.5)
           returning id`,
      );
      return inserted.rows[0]?.id;
    });

    const db = await openPostgresDatabase(url);
    try {
      expect(db.keywordSearch).toStrictEqual({ indexed: true, method: 'pg_trgm' });
      const found = await db.memory.search('BEFORE THE INDEX', { limit: 5 });
      expect(found.map((entry) => entry.id)).toStrictEqual([before]);
    } finally {
      await db.close();
    }

    await withClient(url, async (client) => {
      const index = await client.query<{ indexdef: string }>(
        'select indexdef from pg_indexes where indexname = $1',
        [TRIGRAM_INDEX],
      );
      expect(index.rows[0]?.indexdef).toMatch(/USING gin \(lower\(content\) .*gin_trgm_ops\)/);
      await client.query('set enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        "explain select id from memory_entries where lower(content) like lower('%before the index%')",
      );
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(TRIGRAM_INDEX);
    });
  });

  it('when pg_trgm cannot be created: migrates, scans, says why; builds it once pg_trgm is there', async () => {
    const url = await createDatabase(`hearth_test_notrgm_${suffix}`);
    // An event trigger refuses CREATE EXTENSION, as a managed server or a missing contrib would.
    await withClient(url, async (client) => {
      await client.query(
        `create function deny_extensions() returns event_trigger language plpgsql as
           $$ begin raise exception 'extensions are not allowed here'; end $$`,
      );
      await client.query(
        `create event trigger deny_extensions on ddl_command_start
           when tag in ('CREATE EXTENSION') execute function deny_extensions()`,
      );
    });

    const db = await openPostgresDatabase(url);
    try {
      expect(db.keywordSearch).toMatchObject({ indexed: false, method: 'scan' });
      expect(db.keywordSearch.reason).toMatch(/pg_trgm.*extensions are not allowed here/);
      const entry = await db.memory.insert({
        session_id: 's',
        content: 'Found by a plain scan',
        importance_score: 0.5,
      });
      await expect(db.memory.search('plain scan', { limit: 5 })).resolves.toStrictEqual([entry]);
    } finally {
      await db.close();
    }

    // An administrator installs pg_trgm, in a schema of its own; the next start builds the index.
    await withClient(url, async (client) => {
      await client.query('drop event trigger deny_extensions');
      await client.query('create schema trgm');
      await client.query('create extension pg_trgm schema trgm');
    });
    const again = await openPostgresDatabase(url);
    try {
      expect(again.keywordSearch).toStrictEqual({ indexed: true, method: 'pg_trgm' });
      const found = await again.memory.search('PLAIN SCAN', { limit: 5 });
      expect(found.map((entry) => entry.content)).toStrictEqual(['Found by a plain scan']);
    } finally {
      await again.close();
    }
  });
});
