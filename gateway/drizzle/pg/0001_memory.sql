CREATE TABLE "memory_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "memory_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" text NOT NULL,
	"content" text NOT NULL,
	"content_hash" text NOT NULL,
	"importance_score" double precision NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"type" text DEFAULT 'turn' NOT NULL,
	"embedding" "bytea",
	"created_at" bigint DEFAULT (extract(epoch from now()))::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()))::bigint NOT NULL,
	CONSTRAINT "memory_entries_importance_in_range" CHECK ("memory_entries"."importance_score" >= 0 and "memory_entries"."importance_score" <= 1),
	CONSTRAINT "memory_entries_tags_is_json_array" CHECK (jsonb_typeof("memory_entries"."tags") = 'array')
);
--> statement-breakpoint
CREATE INDEX "memory_entries_session_created_idx" ON "memory_entries" USING btree ("session_id","created_at");--> statement-breakpoint
CREATE INDEX "memory_entries_content_hash_idx" ON "memory_entries" USING btree ("content_hash");--> statement-breakpoint
CREATE INDEX "memory_entries_created_idx" ON "memory_entries" USING btree ("created_at");