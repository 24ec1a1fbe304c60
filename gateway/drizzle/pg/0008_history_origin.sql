-- Sessions' conversation history, kept so that it (and what it was made from) outlives the
-- process: the messages a session's turns send upstream again and at most one summary per
-- session. `origin` is a message's provenance (MemoryOrigin, gateway/src/memory/origin.ts);
-- NULL is the role's default (the user's words the owner's, the rest Hearth's).
CREATE TABLE "conversation_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "conversation_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" text NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"origin" jsonb,
	"created_at" bigint DEFAULT (extract(epoch from now()))::bigint NOT NULL,
	CONSTRAINT "conversation_messages_role" CHECK ("conversation_messages"."role" in ('user', 'assistant', 'summary'))
);
--> statement-breakpoint
CREATE INDEX "conversation_messages_session_idx" ON "conversation_messages" USING btree ("session_id","id");