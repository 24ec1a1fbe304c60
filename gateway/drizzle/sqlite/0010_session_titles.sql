-- Sessions' titles (PATCH /sessions/{id}); a session without a row is shown with a title
-- derived from its first message.
CREATE TABLE `session_titles` (
	`session_id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
