CREATE TABLE "channel_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"direction" text NOT NULL,
	"chat_id" text NOT NULL,
	"user" text,
	"text" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	CONSTRAINT "channel_messages_direction" CHECK ("channel_messages"."direction" in ('in', 'out'))
);
--> statement-breakpoint
CREATE TABLE "channel_pairings" (
	"channel" text NOT NULL,
	"sender_id" text NOT NULL,
	"code" text,
	"status" text NOT NULL,
	"created_at" bigint NOT NULL,
	"approved_at" bigint,
	CONSTRAINT "channel_pairings_channel_sender_id_pk" PRIMARY KEY("channel","sender_id"),
	CONSTRAINT "channel_pairings_status" CHECK ("channel_pairings"."status" in ('pending', 'approved'))
);
--> statement-breakpoint
CREATE INDEX "channel_messages_channel_time_idx" ON "channel_messages" USING btree ("channel","timestamp");--> statement-breakpoint
CREATE INDEX "channel_pairings_code_idx" ON "channel_pairings" USING btree ("channel","code");