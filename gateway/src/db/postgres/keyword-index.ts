/**
 * The pg_trgm GIN index behind `memory.search` on PostgreSQL. Migration 0002_memory_search
 * creates it when it can; when pg_trgm was missing or not permitted then, each start tries
 * again (so installing the extension and restarting is enough), and the outcome is reported
 * as the store's `keywordSearch`. Without the index every search scans the table, with the
 * same results.
 */
import type pg from 'pg';
import type { KeywordSearchInfo } from '../database.ts';

export const TRIGRAM_INDEX = 'memory_entries_content_trgm_idx';

/** Finds, or creates, the index; never throws for want of pg_trgm or of permission. */
export async function ensureKeywordIndex(client: pg.ClientBase): Promise<KeywordSearchInfo> {
  if (await hasIndex(client)) return { indexed: true, method: 'pg_trgm' };
  try {
    let schema = await trigramSchema(client);
    if (schema === undefined) {
      await client.query('create extension if not exists pg_trgm');
      schema = await trigramSchema(client);
    }
    if (schema === undefined) throw new Error('extension pg_trgm is not installed');
    await client.query(
      `create index if not exists ${TRIGRAM_INDEX} on memory_entries ` +
        `using gin (lower(content) ${quoteIdentifier(schema)}.gin_trgm_ops)`,
    );
    return { indexed: true, method: 'pg_trgm' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { indexed: false, method: 'scan', reason: `pg_trgm index unavailable: ${message}` };
  }
}

async function hasIndex(client: pg.ClientBase): Promise<boolean> {
  const result = await client.query<{ valid: boolean | null }>(
    `select i.indisvalid as valid from pg_index i
       where i.indexrelid = to_regclass($1) and i.indrelid = to_regclass('memory_entries')`,
    [TRIGRAM_INDEX],
  );
  return result.rows[0]?.valid === true;
}

async function trigramSchema(client: pg.ClientBase): Promise<string | undefined> {
  const result = await client.query<{ schema: string }>(
    `select n.nspname as schema from pg_extension e
       join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`,
  );
  return result.rows[0]?.schema;
}

const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;
