import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openPostgresDatabase } from '../db/postgres/open-postgres.ts';
import { runNamespaceConformance } from './namespace-conformance.ts';
import { runNodeStoreConformance } from './node-store-conformance.ts';

// A real PostgreSQL on 127.0.0.1:5432, a database of this file's own (dropped afterwards).
const adminUrl = process.env.HEARTH_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const databaseName = `hearth_test_nodes_${randomBytes(6).toString('hex')}`;
const testUrl = (() => {
  const parsed = new URL(adminUrl);
  parsed.pathname = `/${databaseName}`;
  return parsed.toString();
})();

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let created = false;
beforeAll(async () => {
  await admin(`create database "${databaseName}"`);
  created = true;
});
afterAll(async () => {
  if (created) await admin(`drop database if exists "${databaseName}" with (force)`);
});

runNodeStoreConformance('PostgreSQL', async () => {
  const db = await openPostgresDatabase(testUrl);
  return { store: db.orchestratorNodes, close: () => db.close() };
});

runNamespaceConformance('PostgreSQL', () => openPostgresDatabase(testUrl));
