CREATE TABLE `memory_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`content` text NOT NULL,
	`content_hash` text NOT NULL,
	`importance_score` real NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`type` text DEFAULT 'turn' NOT NULL,
	`embedding` blob,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	CONSTRAINT "memory_entries_importance_in_range" CHECK("memory_entries"."importance_score" >= 0 and "memory_entries"."importance_score" <= 1),
	CONSTRAINT "memory_entries_tags_is_json_array" CHECK(json_valid("memory_entries"."tags") and json_type("memory_entries"."tags") = 'array')
);
--> statement-breakpoint
CREATE INDEX `memory_entries_session_created_idx` ON `memory_entries` (`session_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `memory_entries_content_hash_idx` ON `memory_entries` (`content_hash`);--> statement-breakpoint
CREATE INDEX `memory_entries_created_idx` ON `memory_entries` (`created_at`);