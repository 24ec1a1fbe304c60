import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openSqliteDatabase } from '../db/sqlite/open-sqlite.ts';
import { runNodeStoreConformance } from './node-store-conformance.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-nodes-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

runNodeStoreConformance('SQLite file', async () => {
  const db = await openSqliteDatabase(join(dir, 'memory.db'));
  return { store: db.orchestratorNodes, close: () => db.close() };
});
