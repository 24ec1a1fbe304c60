-- What each channel has already taken (a delivery's signature, a message or update id), so a
-- repeated delivery is dropped across restarts and among gateways sharing the database: the
-- insert of (channel, key) is the claim; a row holds until expires_at (epoch ms) and is pruned.
CREATE TABLE "channel_seen" (
	"channel" text NOT NULL,
	"key" text NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "channel_seen_channel_key_pk" PRIMARY KEY("channel","key")
);
--> statement-breakpoint
CREATE INDEX "channel_seen_expires_idx" ON "channel_seen" USING btree ("expires_at");