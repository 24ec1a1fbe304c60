-- Sessions' conversation history, kept so that it (and what it was made from) outlives the
-- process: the messages a session's turns send upstream again and at most one summary per
-- session. `origin` is a message's provenance (MemoryOrigin, gateway/src/memory/origin.ts);
-- NULL is the role's default (the user's words the owner's, the rest Hearth's).
CREATE TABLE `conversation_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`origin` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	CONSTRAINT "conversation_messages_role" CHECK("conversation_messages"."role" in ('user', 'assistant', 'summary')),
	CONSTRAINT "conversation_messages_origin_is_json" CHECK("conversation_messages"."origin" is null or json_valid("conversation_messages"."origin"))
);
--> statement-breakpoint
CREATE INDEX `conversation_messages_session_idx` ON `conversation_messages` (`session_id`,`id`);