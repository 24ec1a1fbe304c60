-- Provenance of memory rows (MemoryOrigin, gateway/src/memory/origin.ts) as JSON. Rows written
-- before it was kept stay NULL and read as the default of their type: a 'note' (stored by the
-- owner) is the owner's, any other type Hearth's (gateway/src/db/memory-rows.ts).
ALTER TABLE `memory_entries` ADD `origin` text;
