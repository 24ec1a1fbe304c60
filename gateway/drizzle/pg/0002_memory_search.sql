-- Keyword search index for memory_entries.content: a pg_trgm GIN index on lower(content),
-- which serves the repository's `lower(content) LIKE '%…%'`. pg_trgm is a contrib extension:
-- when it is not installed, or this role may not create it, neither step fails the migration
-- (each runs in its own exception block, so the transaction survives); searches then scan
-- the table, and the gateway retries on each start (gateway/src/db/postgres/keyword-index.ts).
DO $$
BEGIN
	CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE 'pg_trgm is not available (%); memory search will scan the table', SQLERRM;
END $$;
--> statement-breakpoint
DO $$
DECLARE
	trgm_schema name := (
		SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
		WHERE e.extname = 'pg_trgm'
	);
BEGIN
	IF trgm_schema IS NOT NULL THEN
		EXECUTE format(
			'CREATE INDEX IF NOT EXISTS memory_entries_content_trgm_idx ON memory_entries '
			'USING gin (lower(content) %I.gin_trgm_ops)',
			trgm_schema
		);
	END IF;
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE 'cannot create memory_entries_content_trgm_idx (%); memory search will scan the table', SQLERRM;
END $$;
