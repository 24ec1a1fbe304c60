import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLongTermMemoryConformance } from '../../memory/long-term-conformance.ts';
import { runDatabaseConformance } from '../conformance.ts';
import { openDatabase } from '../open-database.ts';
import { describePostgresUrl, openPostgresDatabase } from './open-postgres.ts';

// The services project needs a real PostgreSQL; an unreachable server fails this file loudly.
const adminUrl = process.env.HEARTH_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const databaseName = `hearth_test_${randomBytes(6).toString('hex')}`;
const testUrl = withDatabase(adminUrl, databaseName);

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
      // 0004_orchestrator_nodes, 0005_channels, 0006_memory_origin
      expect(result.rows[0]?.count).toBe('7');
    } finally {
      await client.end();
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

runLongTermMemoryConformance('PostgreSQL', () => openPostgresDatabase(testUrl));
