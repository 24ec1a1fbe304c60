CREATE TABLE "orchestrator_nodes" (
	"name" text PRIMARY KEY NOT NULL,
	"model_override" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"task_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"system_prompt" text,
	"created_at" bigint DEFAULT (extract(epoch from now()))::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()))::bigint NOT NULL,
	CONSTRAINT "orchestrator_nodes_lists_are_json_arrays" CHECK (jsonb_typeof("orchestrator_nodes"."keywords") = 'array' and jsonb_typeof("orchestrator_nodes"."channels") = 'array' and jsonb_typeof("orchestrator_nodes"."task_types") = 'array')
);
