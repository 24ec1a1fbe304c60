/**
 * A throwaway database on the tests' PostgreSQL server (`HEARTH_TEST_PG_URL`, else the machine's
 * on 127.0.0.1:5432 with trust auth), made by a services test and dropped after it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  /** Its connection URL (a `[memory] db_path` for a gateway). */
  url: string;
  /** Drops it, whoever is still connected. */
  drop(): Promise<void>;
}

/** The server the services tests use: `HEARTH_TEST_PG_URL` of `env`, else the machine's. */
export const testPostgresAdminUrl = (env: NodeJS.ProcessEnv): string =>
  env.HEARTH_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function asAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect().catch((error: unknown) => {
    throw new Error(
      `PostgreSQL is not reachable (${String(error)}): the services tests need it, ` +
        'or HEARTH_TEST_PG_URL pointing at a server where this user may CREATE DATABASE',
      { cause: error },
    );
  });
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates `<prefix>_<random>`; its name is safe to quote (letters, digits, underscores). */
export async function createScratchDatabase(
  prefix: string,
  env: NodeJS.ProcessEnv,
): Promise<ScratchDatabase> {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(prefix)) throw new Error(`bad database prefix ${prefix}`);
  const adminUrl = testPostgresAdminUrl(env);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => asAdmin(adminUrl, `drop database if exists "${name}" with (force)`),
  };
}

/**
 * Why the tests' PostgreSQL server cannot be reached, or undefined when it can: a services suite
 * that needs nothing else skips, saying so.
 */
export async function postgresUnavailable(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const client = new pg.Client({
    connectionString: testPostgresAdminUrl(env),
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return `PostgreSQL is not reachable at ${testPostgresAdminUrl(env).replace(/\/\/[^@]*@/, '//')}: ${String(error)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}
