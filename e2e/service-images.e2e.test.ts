/**
 * The Debian-based service images of scripts/build-images.sh, each started with
 * testcontainers and spoken to with the client library the gateway uses: Redis answers and
 * stores nothing on disk; PostgreSQL creates the user and database named by the official
 * image's variables on an empty volume, refuses a wrong password, and serves the gateway's
 * migrations.
 *
 * Skipped, with the reason in the title, when no Docker engine or no built image is here.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createClient } from 'redis';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../gateway/src/db/open-database.ts';
import { engineUnavailableReason, IMAGE_TAG, missingImagesReason } from './containers/engine.ts';

const REDIS = `hearth-redis:${IMAGE_TAG}`;
const POSTGRES = `hearth-postgres:${IMAGE_TAG}`;
const unavailable = engineUnavailableReason() ?? missingImagesReason([REDIS, POSTGRES]);
const title = unavailable === null ? 'service images' : `service images (skipped: ${unavailable})`;
if (unavailable !== null) process.stderr.write(`${title}\n`);

describe.skipIf(unavailable !== null)(title, () => {
  const password = randomBytes(12).toString('hex');
  let redis: StartedTestContainer | undefined;
  let postgres: StartedTestContainer | undefined;

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([
      new GenericContainer(REDIS)
        .withExposedPorts(6379)
        .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
        .start(),
      new GenericContainer(POSTGRES)
        .withEnvironment({
          POSTGRES_USER: 'hearth',
          POSTGRES_DB: 'hearth',
          POSTGRES_PASSWORD: password,
        })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/))
        .withStartupTimeout(120_000)
        .start(),
    ]);
  }, 150_000);

  afterAll(async () => {
    await Promise.all([redis?.stop(), postgres?.stop()]);
  }, 60_000);

  it('Redis answers as an unprivileged user and keeps nothing on disk', async () => {
    const client = createClient({
      url: `redis://${redis?.getHost()}:${redis?.getMappedPort(6379)}`,
    });
    await client.connect();
    try {
      await client.set('hearth:e2e', 'yes');
      expect(await client.get('hearth:e2e')).toBe('yes');
      expect(await client.configGet('save')).toEqual({ save: '' });
      expect(await client.configGet('appendonly')).toEqual({ appendonly: 'no' });
    } finally {
      await client.quit();
    }
    expect((await redis?.exec(['id', '-un']))?.output.trim()).toBe('redis');
  });

  it('PostgreSQL creates the user and database of the official variables and checks the password', async () => {
    const url = (secret: string) =>
      `postgresql://hearth:${secret}@${postgres?.getHost()}:${postgres?.getMappedPort(5432)}/hearth`;
    const client = new pg.Client({ connectionString: url(password) });
    await client.connect();
    try {
      const row = await client.query<{ db: string; who: string }>(
        'select current_database() as db, current_user as who',
      );
      expect(row.rows[0]).toEqual({ db: 'hearth', who: 'hearth' });
    } finally {
      await client.end();
    }
    const wrong = new pg.Client({ connectionString: url('wrong') });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
    expect((await postgres?.exec(['id', '-un']))?.output.trim()).toBe('postgres');
  });

  it('PostgreSQL serves the gateway: its migrations run and a memory row is stored and found', async () => {
    const url = `postgresql://hearth:${password}@${postgres?.getHost()}:${postgres?.getMappedPort(5432)}/hearth`;
    const database = await openDatabase(url);
    try {
      expect(database.kind).toBe('postgresql');
      expect(database.location).not.toContain(password);
      expect(await database.ping()).toBe(true);
      await database.memory.insert({
        session_id: 'e2e',
        content: 'kept in the Debian PostgreSQL image',
        importance_score: 0.9,
      });
      const found = await database.memory.search('Debian PostgreSQL', { limit: 5 });
      expect(found.map((entry) => entry.content)).toContain('kept in the Debian PostgreSQL image');
    } finally {
      await database.close();
    }
  });
});
