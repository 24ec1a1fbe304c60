-- Keyword search index for memory_entries.content: an FTS5 trigram index (case folded by FTS5)
-- over the table's own rows (external content: the text is not stored twice), kept in step by
-- the triggers below. It only narrows the candidates to the rows holding all of a query's
-- trigrams; the repository applies the exact substring test to them
-- (gateway/src/db/sqlite/memory-search.ts). So it keeps no positions (detail = none: a quarter
-- of the size, and faster to write) and no token counts (columnsize = 0: no ranking is done).
CREATE VIRTUAL TABLE `memory_entries_fts` USING fts5(
	`content`,
	content = 'memory_entries',
	content_rowid = 'id',
	tokenize = 'trigram case_sensitive 0',
	detail = none,
	columnsize = 0
);
--> statement-breakpoint
CREATE TRIGGER `memory_entries_fts_insert` AFTER INSERT ON `memory_entries` BEGIN
	INSERT INTO `memory_entries_fts` (`rowid`, `content`) VALUES (new.`id`, new.`content`);
END;
--> statement-breakpoint
CREATE TRIGGER `memory_entries_fts_delete` AFTER DELETE ON `memory_entries` BEGIN
	INSERT INTO `memory_entries_fts` (`memory_entries_fts`, `rowid`, `content`)
		VALUES ('delete', old.`id`, old.`content`);
END;
--> statement-breakpoint
CREATE TRIGGER `memory_entries_fts_update` AFTER UPDATE OF `id`, `content` ON `memory_entries` BEGIN
	INSERT INTO `memory_entries_fts` (`memory_entries_fts`, `rowid`, `content`)
		VALUES ('delete', old.`id`, old.`content`);
	INSERT INTO `memory_entries_fts` (`rowid`, `content`) VALUES (new.`id`, new.`content`);
END;
--> statement-breakpoint
-- Backfill: index the rows written before this migration.
INSERT INTO `memory_entries_fts` (`memory_entries_fts`) VALUES ('rebuild');
--> statement-breakpoint
-- Rows per trigram, so the repository can tell a rare phrase from a common one.
CREATE VIRTUAL TABLE `memory_entries_fts_vocab` USING fts5vocab(`memory_entries_fts`, 'row');
