CREATE TABLE `channel_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`direction` text NOT NULL,
	`chat_id` text NOT NULL,
	`user` text,
	`text` text NOT NULL,
	`timestamp` integer NOT NULL,
	`read` integer DEFAULT false NOT NULL,
	CONSTRAINT "channel_messages_direction" CHECK("channel_messages"."direction" in ('in', 'out'))
);
--> statement-breakpoint
CREATE INDEX `channel_messages_channel_time_idx` ON `channel_messages` (`channel`,`timestamp`);--> statement-breakpoint
CREATE TABLE `channel_pairings` (
	`channel` text NOT NULL,
	`sender_id` text NOT NULL,
	`code` text,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`approved_at` integer,
	PRIMARY KEY(`channel`, `sender_id`),
	CONSTRAINT "channel_pairings_status" CHECK("channel_pairings"."status" in ('pending', 'approved'))
);
--> statement-breakpoint
CREATE INDEX `channel_pairings_code_idx` ON `channel_pairings` (`channel`,`code`);