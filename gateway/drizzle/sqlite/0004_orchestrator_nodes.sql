CREATE TABLE `orchestrator_nodes` (
	`name` text PRIMARY KEY NOT NULL,
	`model_override` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`keywords` text DEFAULT '[]' NOT NULL,
	`channels` text DEFAULT '[]' NOT NULL,
	`task_types` text DEFAULT '[]' NOT NULL,
	`system_prompt` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	CONSTRAINT "orchestrator_nodes_lists_are_json_arrays" CHECK(json_type("orchestrator_nodes"."keywords") = 'array' and json_type("orchestrator_nodes"."channels") = 'array' and json_type("orchestrator_nodes"."task_types") = 'array')
);
