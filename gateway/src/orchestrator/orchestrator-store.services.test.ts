import { afterAll, beforeAll } from 'vitest';
import { openPostgresDatabase } from '../db/postgres/open-postgres.ts';
import {
  createScratchDatabase,
  type ScratchDatabase,
} from '../db/postgres/testing/scratch-database.ts';
import { runNamespaceConformance } from './namespace-conformance.ts';
import { runNodeStoreConformance } from './node-store-conformance.ts';

// A real PostgreSQL on 127.0.0.1:5432, a database of this file's own (dropped afterwards).
let database: ScratchDatabase | undefined;
beforeAll(async () => {
  database = await createScratchDatabase('hearth_test_nodes', process.env);
});
afterAll(async () => {
  await database?.drop();
});
const testUrl = () => database!.url;

runNodeStoreConformance('PostgreSQL', async () => {
  const db = await openPostgresDatabase(testUrl());
  return { store: db.orchestratorNodes, close: () => db.close() };
});

runNamespaceConformance('PostgreSQL', () => openPostgresDatabase(testUrl()));
